// Signed responses: made by the offline machine from a request it has read and checked, and
// checked again by the online machine against the request it prepared before anything is sent.
import {
  SIGNATURE_RE,
  buildSignedRequest,
  type Address,
  type ActionOf,
  type Hex,
  type RequestKind,
  type SignedRequest,
} from '../../shared/protocol';
import type { ActionSigner, SignedAction } from '../actions/signed-actions';
import { sameAddress } from '../actions/inputs';
import { airgapError } from './errors';
import { checkCarriedSignature } from './signature-check';
import { domainFromJson, domainToJson, expectFormat, parseWith, sameDomain, type DomainJson } from './edge';
import {
  RESPONSE_FORMAT,
  responseJson,
  type SignedResponse,
  type StepSignature,
  type UnsignedRequest,
} from './formats';
import { STEP_COUNT, stepAt, stepDigest } from './steps';

/** The exchange route each kind is sent to. */
export const REQUEST_KIND_OF: Readonly<Record<UnsignedRequest['kind'], RequestKind>> = {
  order: 'orders',
  cancel: 'cancels',
  'cancel-all': 'cancels',
  'cancel-replace': 'cancelReplace',
  claim: 'claim',
  withdrawal: 'withdrawals',
  'agent-approval': 'agentsApprove',
  'agent-revocation': 'agentsRevoke',
};

/**
 * The offline machine's half: signs every step of a request already read with
 * parseUnsignedRequest (so its fingerprint and rules hold) with the master's key.
 * Whether to ask the user first is main's business; this only signs.
 */
export async function signUnsignedRequest(
  request: UnsignedRequest,
  signer: ActionSigner,
  now: () => Date = () => new Date(),
): Promise<SignedResponse> {
  if (!sameAddress(signer.address, request.signer)) {
    throw airgapError(
      'AIRGAP_WRONG_KEY',
      `This request must be signed by ${request.signer}; the key chosen is ${signer.address}.`,
    );
  }
  if (request.kind === 'agent-approval' && request.approval.approvalNonce * 1000n <= BigInt(now().getTime())) {
    throw airgapError(
      'AIRGAP_EXPIRED',
      'This agent approval has already expired: prepare a new one and sign it within its few minutes.',
    );
  }
  const signatures: StepSignature[] = [];
  for (let i = 0; i < STEP_COUNT[request.kind]; i++) {
    const prior = signatures.map((s) => s.signature);
    const digest = stepDigest(request, i, prior);
    const step = stepAt(request, i, prior);
    await signer.review?.({
      primaryType: step.primaryType,
      digest,
      signer: signer.address,
      action: step.action,
      domain: request.domain,
    });
    const signature = await signer.signDigest(digest);
    if (typeof signature !== 'string' || !SIGNATURE_RE.test(signature)) {
      throw airgapError('AIRGAP_SIGNER_FAILED', 'The signer returned something that is not a 65-byte signature.');
    }
    signatures.push({ digest, signature: signature.toLowerCase() as Hex });
  }
  return {
    requestId: request.id,
    fingerprint: request.fingerprint,
    domain: request.domain,
    signer: request.signer,
    signatures,
    signedAt: now().toISOString(),
  };
}

/**
 * Checks a response against the request this machine prepared: same request, same domain, same
 * signer; each digest recomputed from the request (never taken from the response) and each signature
 * low-s and recovering to the request's signer. Throws an AirgapError naming the first failure.
 */
export function verifyResponse(request: UnsignedRequest, response: SignedResponse): void {
  if (response.requestId !== request.id || response.fingerprint !== request.fingerprint) {
    throw airgapError(
      'AIRGAP_REQUEST_MISMATCH',
      `This response answers another request (fingerprint ${response.fingerprint}), not the one prepared here (${request.fingerprint}).`,
    );
  }
  if (!sameDomain(response.domain, request.domain)) {
    throw airgapError(
      'AIRGAP_DOMAIN_MISMATCH',
      `This response was signed for another exchange domain (chain ${response.domain.chainId}, contract ${response.domain.verifyingContract}) than the request (chain ${request.domain.chainId}, contract ${request.domain.verifyingContract}).`,
    );
  }
  if (!sameAddress(response.signer, request.signer)) {
    throw airgapError(
      'AIRGAP_SIGNER_MISMATCH',
      `This response says it was signed by ${response.signer}, but the request is for ${request.signer}.`,
    );
  }
  const steps = STEP_COUNT[request.kind];
  if (response.signatures.length !== steps) {
    throw airgapError(
      'AIRGAP_INCONSISTENT',
      `A ${request.kind} needs ${steps} signature${steps === 1 ? '' : 's'}; this response has ${response.signatures.length}.`,
    );
  }
  const prior: Hex[] = [];
  for (let i = 0; i < steps; i++) {
    const given = response.signatures[i]!;
    const digest = stepDigest(request, i, prior);
    if (given.digest.toLowerCase() !== digest.toLowerCase()) {
      throw airgapError(
        'AIRGAP_DIGEST_MISMATCH',
        `Signature ${i + 1} is for a different digest than the request: something was changed on the way, so nothing will be sent.`,
      );
    }
    checkCarriedSignature(digest, given.signature, request.signer, `Signature ${i + 1}`);
    prior.push(given.signature.toLowerCase() as Hex);
  }
}

/**
 * The request body exactly as the online builders would have produced it, from a request and its
 * verified response. Verifies first; nothing unverified leaves this function.
 */
export function toSignedAction(request: UnsignedRequest, response: SignedResponse): SignedAction<RequestKind> {
  verifyResponse(request, response);
  const sig = response.signatures.map((s) => ({
    orderHash: s.digest.toLowerCase() as Hex,
    signature: s.signature.toLowerCase() as Hex,
  }));
  const kind = REQUEST_KIND_OF[request.kind];
  const chainId = request.domain.chainId;
  let parsed: SignedRequest<RequestKind>;
  switch (request.kind) {
    case 'order':
      parsed = { order: request.order, chainId, ...sig[0]! };
      break;
    case 'cancel':
    case 'cancel-all':
      parsed = { cancel: request.cancel, chainId, ...sig[0]! };
      break;
    case 'cancel-replace':
      parsed = {
        cancelReplace: request.cancelReplace,
        replacement: request.replacement,
        chainId,
        orderHash: sig[1]!.orderHash,
        signature: sig[1]!.signature,
        replacementOrderHash: sig[0]!.orderHash,
        replacementSignature: sig[0]!.signature,
      };
      break;
    case 'claim':
      parsed = { claim: request.claim, chainId, ...sig[0]! };
      break;
    case 'withdrawal':
      parsed = { withdrawal: request.withdrawal, chainId, ...sig[0]! };
      break;
    case 'agent-approval': {
      const approval: ActionOf<'ApproveAgentOrder'> = { ...request.approveAgent, approvalSignature: sig[0]!.signature };
      parsed = { approval, chainId, ...sig[1]! };
      break;
    }
    case 'agent-revocation':
      parsed = { revocation: request.revocation, chainId, ...sig[0]! };
      break;
  }
  const body = buildSignedRequest(kind, parsed as never);
  const orderHash =
    request.kind === 'cancel-replace' || request.kind === 'agent-approval' ? sig[1]!.orderHash : sig[0]!.orderHash;
  return { kind, request: parsed, body, bodyText: JSON.stringify(body), orderHash };
}

// ---------------------------------------------------------------------------------------------
// JSON form.

export interface SignedResponseJson {
  format: typeof RESPONSE_FORMAT;
  requestId: string;
  fingerprint: string;
  domain: DomainJson;
  signer: Address;
  signatures: StepSignature[];
  signedAt: string;
}

export function responseToJson(response: SignedResponse): SignedResponseJson {
  return {
    format: RESPONSE_FORMAT,
    requestId: response.requestId,
    fingerprint: response.fingerprint,
    domain: domainToJson(response.domain),
    signer: response.signer,
    signatures: response.signatures.map((s) => ({ digest: s.digest, signature: s.signature })),
    signedAt: response.signedAt,
  };
}

export function parseSignedResponse(value: unknown): SignedResponse {
  expectFormat(value, RESPONSE_FORMAT);
  const json = parseWith(responseJson, value, 'signed response');
  return {
    requestId: json.requestId,
    fingerprint: json.fingerprint,
    domain: domainFromJson(json.domain),
    signer: json.signer as Address,
    signatures: json.signatures.map((s) => ({ digest: s.digest as Hex, signature: s.signature as Hex })),
    signedAt: json.signedAt,
  };
}
