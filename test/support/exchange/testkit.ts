// Helpers for tests, benchmarks and fuzz/chaos tests of the service: deterministic keys, signed
// request bodies built with the protocol core, and a tiny JSON HTTP client.
import {
  buildSignedRequest,
  DigestSigner,
  hashActionBytes,
  keccakUtf8,
  bytesToHex,
  signCancelReplaceRequest,
  signRequest,
  type Address,
  type ActionOf,
  type CancelReplaceOrder,
  type ExchangeDomain,
  type FillOrder,
  type Hex,
  type SignedRequestBody,
  type SimpleRequestKind,
  type REQUEST_KINDS,
} from '../../../src/shared/protocol';

/** A deterministic key per (label, index): never use outside tests and the devnet. */
export function testSigner(label: string, index = 0): DigestSigner {
  return new DigestSigner(bytesToHex(keccakUtf8(`exchange-terminal test key ${label} ${index}`)));
}

/** JSON body (exact wire form) of a simple signed request. */
export function signedBody<K extends SimpleRequestKind>(
  kind: K,
  action: ActionOf<(typeof REQUEST_KINDS)[K]['primaryType']>,
  domain: ExchangeDomain,
  key: DigestSigner,
): SignedRequestBody {
  return buildSignedRequest(kind, signRequest(kind, action, domain, key) as never);
}

export function cancelReplaceBody(
  cr: Omit<CancelReplaceOrder, 'replacementOrderHash'>,
  replacement: FillOrder,
  domain: ExchangeDomain,
  key: DigestSigner,
): SignedRequestBody {
  return buildSignedRequest('cancelReplace', signCancelReplaceRequest(cr, replacement, domain, key));
}

let nonceCounter = 0n;
/** A unique nonce per call in this process, shaped as in docs/protocol/units.md#nonces. */
export function nextNonce(): bigint {
  nonceCounter++;
  return (BigInt(Date.now()) << 16n) | (nonceCounter & 0xffffn);
}

export interface AuthSpec {
  /** The signing key (the agent for agent actions). */
  key: DigestSigner;
  /** The master account for agent actions; defaults to the key's address (EOA). */
  sender?: Address;
  /** The master's approval nonce (agent actions). */
  approvalNonce?: bigint;
  nonce?: bigint;
  /** Default: 4 when sender differs from the key (agent), else 0; role actions always 0. */
  signatureType?: bigint;
}

function prefix(typ: bigint, a: AuthSpec, role = false) {
  const agent = !role && a.sender !== undefined && a.sender.toLowerCase() !== a.key.address.toLowerCase();
  return {
    typ,
    nonce: a.nonce ?? nextNonce(),
    signer: a.key.address,
    signatureType: a.signatureType ?? (agent ? 4n : 0n),
    sender: a.sender ?? a.key.address,
  };
}

export function fillOrder(
  a: AuthSpec,
  o: { assetId: bigint; epoch: bigint; side: boolean; price: bigint; size: bigint; timeInForce?: bigint },
): FillOrder {
  return {
    ...prefix(2n, a),
    epoch: o.epoch,
    side: o.side,
    assetId: o.assetId,
    size: o.size,
    price: o.price,
    timeInForce: o.timeInForce ?? 0n,
    approvalNonce: a.approvalNonce ?? 0n,
  };
}

export function cancelOrder(
  a: AuthSpec,
  c: { assetId: bigint; epoch: bigint; orderHash: Hex },
): ActionOf<'CancelOrder'> {
  return {
    ...prefix(3n, a),
    assetId: c.assetId,
    epoch: c.epoch,
    orderHash: c.orderHash,
    approvalNonce: a.approvalNonce ?? 0n,
  };
}

export function cancelReplaceOrder(
  a: AuthSpec,
  c: { assetId: bigint; epoch: bigint; cancelOrderHash: Hex; allOrNothing?: boolean },
): Omit<CancelReplaceOrder, 'replacementOrderHash'> {
  return {
    ...prefix(63n, a),
    assetId: c.assetId,
    epoch: c.epoch,
    cancelOrderHash: c.cancelOrderHash,
    approvalNonce: a.approvalNonce ?? 0n,
    allOrNothing: c.allOrNothing ?? false,
  };
}

export function claimOrder(a: AuthSpec, c: { assetId: bigint; epoch: bigint }): ActionOf<'ClaimOrder'> {
  return { ...prefix(5n, a), assetId: c.assetId, epoch: c.epoch, approvalNonce: a.approvalNonce ?? 0n };
}

export function withdrawalOrder(
  a: AuthSpec,
  w: { amount: bigint; ledger: Address; receiver?: Address },
): ActionOf<'WithdrawalOrder'> {
  return { ...prefix(1n, a), receiver: w.receiver ?? a.key.address, amount: w.amount, ledger: w.ledger };
}

/** ApproveAgentOrder with its inner AgentApproval signature (both by the master `key`). */
export function approveAgentOrder(
  a: AuthSpec,
  agent: Address,
  approvalNonce: bigint,
  domain: ExchangeDomain,
): ActionOf<'ApproveAgentOrder'> {
  const inner = hashActionBytes('AgentApproval', { master: a.key.address, agent, approvalNonce }, domain);
  return { ...prefix(61n, a), agent, approvalNonce, approvalSignature: a.key.sign(inner) };
}

export function revokeAgentOrder(a: AuthSpec): ActionOf<'RevokeAgentOrder'> {
  return prefix(62n, a);
}

export function resolutionOrder(
  a: AuthSpec,
  r: { assetId: bigint; epoch: bigint; price: bigint },
): ActionOf<'ResolutionOrder'> {
  return { ...prefix(4n, a, true), assetId: r.assetId, epoch: r.epoch, price: r.price };
}

export function pauseOrder(a: AuthSpec, isPause: boolean): ActionOf<'PauseOrder'> {
  return { ...prefix(6n, a, true), isPause };
}

export function invalidateOrder(a: AuthSpec, id: bigint): ActionOf<'InvalidateOrder'> {
  return { ...prefix(60n, a, true), id };
}

export interface JsonReply<T = unknown> {
  status: number;
  body: T;
}

/** fetch-based JSON client for tests. */
export function jsonClient(baseUrl: string) {
  const call = async <T>(method: string, path: string, body?: unknown, raw?: string): Promise<JsonReply<T>> => {
    const init: RequestInit = { method };
    if (body !== undefined || raw !== undefined) {
      init.body = raw ?? JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const res = await fetch(`${baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T };
  };
  return {
    get: <T = Record<string, unknown>>(path: string) => call<T>('GET', path),
    post: <T = Record<string, unknown>>(path: string, body: unknown) => call<T>('POST', path, body),
    postRaw: <T = Record<string, unknown>>(path: string, raw: string) => call<T>('POST', path, undefined, raw),
    request: call,
  };
}
