// Unsigned requests: drafted on the machine that holds no key, read on the one that does.
// Drafting runs the very builders that sign online (actions/signed-actions.ts) with a signer that
// signs nothing, so every field, the nonce draw and the digest are exactly what buildSignedX signs.
import {
  SignatureType,
  ZERO_HASH,
  serializeAction,
  type Address,
  type ExchangeDomain,
  type Hex,
  type PrimaryType,
  type WireAction,
} from '../../shared/protocol';
import {
  buildSignedApproveAgent,
  buildSignedCancel,
  buildSignedCancelAll,
  buildSignedCancelReplace,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  type ApproveAgentInput,
  type CancelAllInput,
  type CancelInput,
  type CancelReplaceInput,
  type ClaimInput,
  type NonceRegistry,
  type OrderInput,
  type SigningContext,
  type WithdrawInput,
} from '../actions/signed-actions';
import { sameAddress } from '../actions/inputs';
import { airgapError } from './errors';
import { domainFromJson, domainToJson, expectFormat, parseWith, randomId, type DomainJson } from './edge';
import { fingerprintOf } from './fingerprint';
import {
  REQUEST_FORMAT,
  requestJson,
  type AirgapContracts,
  type UnsignedActions,
  type UnsignedRequest,
} from './formats';
import { APPROVAL_PLACEHOLDER, bindingDigests, stepDigest } from './steps';

/** What drafting needs: the watch-only master and the selected deployment's pinned facts. */
export interface DraftContext {
  signer: Address;
  domain: Readonly<ExchangeDomain>;
  contracts: AirgapContracts;
  /** The same registry the online builders use, so drafted and signed nonces never collide. */
  nonces?: NonceRegistry;
  now?: () => Date;
  newId?: () => string;
}

// A well-formed signature the builders accept; it is dropped with the rest of the drafted body.
const NOTHING_SIGNED = `0x${'00'.repeat(64)}1b` as Hex;

function draftingContext(ctx: DraftContext): SigningContext {
  return {
    signer: { address: ctx.signer, signDigest: () => Promise.resolve(NOTHING_SIGNED) },
    domain: ctx.domain,
    ...(ctx.nonces ? { nonces: ctx.nonces } : {}),
  };
}

function finishDraft(ctx: DraftContext, actions: UnsignedActions): UnsignedRequest {
  if (
    ctx.contracts.ledger !== null &&
    actions.kind === 'withdrawal' &&
    !sameAddress(actions.withdrawal.ledger, ctx.contracts.ledger)
  ) {
    throw airgapError('AIRGAP_INCONSISTENT', 'The withdrawal names another account ledger than the deployment pins.');
  }
  const base = {
    id: (ctx.newId ?? randomId)(),
    domain: ctx.domain,
    contracts: ctx.contracts,
    signer: ctx.signer,
    createdAt: (ctx.now?.() ?? new Date()).toISOString(),
    fingerprint: '',
    ...actions,
  };
  checkRequest(base);
  return { ...base, fingerprint: requestFingerprint(base) };
}

export async function draftOrder(ctx: DraftContext, input: OrderInput): Promise<UnsignedRequest> {
  const s = await buildSignedOrder(draftingContext(ctx), input);
  return finishDraft(ctx, { kind: 'order', order: s.request.order });
}

export async function draftCancel(ctx: DraftContext, input: CancelInput): Promise<UnsignedRequest> {
  const s = await buildSignedCancel(draftingContext(ctx), input);
  return finishDraft(ctx, {
    kind: s.request.cancel.orderHash === ZERO_HASH ? 'cancel-all' : 'cancel',
    cancel: s.request.cancel,
  });
}

export async function draftCancelAll(ctx: DraftContext, input: CancelAllInput): Promise<UnsignedRequest> {
  const s = await buildSignedCancelAll(draftingContext(ctx), input);
  return finishDraft(ctx, { kind: 'cancel-all', cancel: s.request.cancel });
}

export async function draftCancelReplace(ctx: DraftContext, input: CancelReplaceInput): Promise<UnsignedRequest> {
  const s = await buildSignedCancelReplace(draftingContext(ctx), input);
  return finishDraft(ctx, {
    kind: 'cancel-replace',
    cancelReplace: s.request.cancelReplace,
    replacement: s.request.replacement,
  });
}

export async function draftClaim(ctx: DraftContext, input: ClaimInput): Promise<UnsignedRequest> {
  const s = await buildSignedClaim(draftingContext(ctx), input);
  return finishDraft(ctx, { kind: 'claim', claim: s.request.claim });
}

export async function draftWithdrawal(ctx: DraftContext, input: WithdrawInput): Promise<UnsignedRequest> {
  const s = await buildSignedWithdrawal(draftingContext(ctx), input);
  return finishDraft(ctx, { kind: 'withdrawal', withdrawal: s.request.withdrawal });
}

export async function draftApproveAgent(ctx: DraftContext, input: ApproveAgentInput): Promise<UnsignedRequest> {
  const s = await buildSignedApproveAgent(draftingContext(ctx), input);
  const outer = s.request.approval;
  return finishDraft(ctx, {
    kind: 'agent-approval',
    approval: {
      master: outer.signer,
      agent: outer.agent,
      approvalNonce: outer.approvalNonce,
      approvalSignature: APPROVAL_PLACEHOLDER,
    },
    approveAgent: { ...outer, approvalSignature: APPROVAL_PLACEHOLDER },
  });
}

export async function draftRevokeAgent(ctx: DraftContext, input: { nonce?: bigint } = {}): Promise<UnsignedRequest> {
  const s = await buildSignedRevokeAgent(draftingContext(ctx), input);
  return finishDraft(ctx, { kind: 'agent-revocation', revocation: s.request.revocation });
}

// ---------------------------------------------------------------------------------------------

function inconsistent(sentence: string): never {
  throw airgapError('AIRGAP_INCONSISTENT', sentence);
}

/** Every struct is the master's own EOA action; an agent never signs through this path. */
function checkAuth(request: UnsignedRequest, action: Record<string, unknown>, what: string): void {
  if (!sameAddress(String(action['signer']), request.signer))
    inconsistent(
      `The ${what} is signed by ${String(action['signer'])}, not by the account ${request.signer} the request names.`,
    );
  if (!sameAddress(String(action['sender']), request.signer))
    inconsistent(`The ${what} acts for ${String(action['sender'])}, not for the account ${request.signer}.`);
  if (action['signatureType'] !== SignatureType.EOA)
    inconsistent(`The ${what} is not a master-key action (signature type ${String(action['signatureType'])}).`);
  if ('approvalNonce' in action && action['approvalNonce'] !== 0n && what !== 'agent approval')
    inconsistent(`The ${what} carries an agent approval nonce, but the master signs it.`);
}

/** The rules a request must keep beyond its schema; run after drafting and after reading. */
export function checkRequest(request: UnsignedRequest): void {
  if (!sameAddress(request.contracts.exchange, request.domain.verifyingContract)) {
    inconsistent(
      `The exchange contract ${request.contracts.exchange} is not the domain's verifying contract ${request.domain.verifyingContract}.`,
    );
  }
  switch (request.kind) {
    case 'order':
      return checkAuth(request, request.order, 'order');
    case 'cancel':
      checkAuth(request, request.cancel, 'cancel');
      if (request.cancel.orderHash === ZERO_HASH)
        inconsistent('A single cancel must name an order; the zero hash cancels every order.');
      return;
    case 'cancel-all':
      checkAuth(request, request.cancel, 'cancel-all');
      if (request.cancel.orderHash !== ZERO_HASH) inconsistent('A cancel-all must carry the zero hash, not one order.');
      return;
    case 'cancel-replace': {
      const { cancelReplace: cr, replacement: rep } = request;
      checkAuth(request, cr, 'cancel-and-replace');
      checkAuth(request, rep, 'replacement order');
      if (cr.assetId !== rep.assetId || cr.epoch !== rep.epoch)
        inconsistent('The replacement order is for another market than the order it replaces.');
      if (cr.cancelOrderHash === ZERO_HASH) inconsistent('A cancel-and-replace must name the order it replaces.');
      if (cr.replacementOrderHash.toLowerCase() !== stepDigest(request, 0).toLowerCase())
        inconsistent('The cancel-and-replace does not name the digest of its replacement order.');
      return;
    }
    case 'claim':
      return checkAuth(request, request.claim, 'claim');
    case 'withdrawal':
      checkAuth(request, request.withdrawal, 'withdrawal');
      if (request.contracts.ledger === null)
        inconsistent(
          'The request does not say which account ledger the deployment uses, so the withdrawal cannot be checked.',
        );
      if (!sameAddress(request.withdrawal.ledger, request.contracts.ledger))
        inconsistent(
          `The withdrawal names the ledger ${request.withdrawal.ledger}, not the deployment's account ledger ${request.contracts.ledger}.`,
        );
      return;
    case 'agent-approval': {
      const { approval: inner, approveAgent: outer } = request;
      checkAuth(request, outer, 'agent approval');
      if (!sameAddress(inner.master, request.signer))
        inconsistent(`The approval is for the account ${inner.master}, not ${request.signer}.`);
      if (!sameAddress(inner.agent, outer.agent) || inner.approvalNonce !== outer.approvalNonce)
        inconsistent('The two halves of the agent approval name different agents or expiries.');
      if (sameAddress(inner.agent, request.signer)) inconsistent('An account cannot approve itself as its agent.');
      if (inner.approvalSignature !== APPROVAL_PLACEHOLDER || outer.approvalSignature !== APPROVAL_PLACEHOLDER)
        inconsistent('An unsigned agent approval must not carry a signature yet.');
      return;
    }
    case 'agent-revocation':
      return checkAuth(request, request.revocation, 'agent revocation');
  }
}

/** Binds the structs (through their digests), the domain, and every other field of the request. */
export function requestFingerprint(request: UnsignedRequest): string {
  const { ledger } = request.contracts;
  // Addresses lower case: a change of hex case is not a change of address.
  const facts = [
    request.kind,
    request.id,
    request.createdAt,
    request.signer.toLowerCase(),
    request.contracts.exchange.toLowerCase(),
    ledger?.toLowerCase() ?? '-',
  ];
  return fingerprintOf(request.domain, bindingDigests(request), facts.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// JSON form.

const ACTION_KEYS: Readonly<Record<UnsignedRequest['kind'], readonly [string, PrimaryType][]>> = {
  order: [['order', 'FillOrder']],
  cancel: [['cancel', 'CancelOrder']],
  'cancel-all': [['cancel', 'CancelOrder']],
  'cancel-replace': [
    ['cancelReplace', 'CancelReplaceOrder'],
    ['replacement', 'FillOrder'],
  ],
  claim: [['claim', 'ClaimOrder']],
  withdrawal: [['withdrawal', 'WithdrawalOrder']],
  'agent-approval': [
    ['approval', 'AgentApproval'],
    ['approveAgent', 'ApproveAgentOrder'],
  ],
  'agent-revocation': [['revocation', 'RevokeAgentOrder']],
};

export interface UnsignedRequestJson {
  format: typeof REQUEST_FORMAT;
  id: string;
  kind: UnsignedRequest['kind'];
  domain: DomainJson;
  contracts: AirgapContracts;
  signer: Address;
  createdAt: string;
  fingerprint: string;
  [action: string]: unknown;
}

export function requestToJson(request: UnsignedRequest): UnsignedRequestJson {
  const out: UnsignedRequestJson = {
    format: REQUEST_FORMAT,
    id: request.id,
    kind: request.kind,
    domain: domainToJson(request.domain),
    contracts: request.contracts,
    signer: request.signer,
    createdAt: request.createdAt,
    fingerprint: request.fingerprint,
  };
  const src = request as unknown as Record<string, unknown>;
  for (const [key, p] of ACTION_KEYS[request.kind])
    out[key] = serializeAction(p, src[key] as never) satisfies WireAction;
  return out;
}

/**
 * Reads a request from its JSON form: schema, the rules above, then the fingerprint recomputed from
 * the structs. A request whose carried fingerprint differs was changed after it was prepared.
 */
export function parseUnsignedRequest(value: unknown): UnsignedRequest {
  expectFormat(value, REQUEST_FORMAT);
  const json = parseWith(requestJson, value, 'unsigned request');
  const { format: _format, domain, ...rest } = json;
  const request = { ...rest, domain: domainFromJson(domain) } as unknown as UnsignedRequest;
  checkRequest(request);
  const fingerprint = requestFingerprint(request);
  if (fingerprint !== json.fingerprint) {
    throw airgapError(
      'AIRGAP_FINGERPRINT_MISMATCH',
      `This request was changed after it was prepared: its content gives the fingerprint ${fingerprint}, not the ${json.fingerprint} it carries.`,
    );
  }
  return request;
}
