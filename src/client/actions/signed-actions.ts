// Build and sign request wrappers without sending them (offline signing, and the signed client's
// first step). Each builder fills the auth prefix, converts inputs, hashes, signs through the
// injected signer and serialises in the documented key order (docs/protocol/endpoints.md#request-bodies).
import {
  DigestSigner,
  NonceManager,
  SIGNATURE_RE,
  SignatureType,
  Typ,
  ZERO_HASH,
  buildSignedRequest,
  hashAction,
  type ActionOf,
  type Address,
  type AgentApproval,
  type ExchangeDomain,
  type FillOrder,
  type Hex,
  type PrimaryType,
  type RequestKind,
  type SignedRequest,
  type SignedRequestBody,
} from '../../shared/protocol';
import { ExchangeError, ExchangeValidationError, localCheck } from '../errors';
import {
  sameAddress,
  toAddress,
  toAgentApprovalNonce,
  toAmount,
  toHash,
  toPrice,
  toSide,
  toSize,
  toTimeInForce,
  toUint,
  type AmountInput,
  type PriceInput,
  type SideInput,
  type SizeInput,
  type TimeInForceInput,
} from './inputs';

/** The vault adapts to this; private keys never come near the client. */
export interface ActionSigner {
  readonly address: Address;
  /**
   * Sees the struct and domain behind the next digest before it is signed, and may refuse (throw).
   * The app's vault signer signs only digests it reviewed this way, so every order it signs passed
   * main's order gate (src/main/core/session/vault-signer.ts).
   */
  review?(info: SignRequestInfo): void | Promise<void>;
  signDigest(digest: Hex): Promise<Hex>;
}

/**
 * An ActionSigner over a key held in this process (bots, tests, benchmarks). The app itself signs
 * through the vault instead (core/session/vault-signer.ts), so its keys never sit here.
 */
export function keySigner(key: DigestSigner | Hex): ActionSigner {
  const signer = typeof key === 'string' ? new DigestSigner(key) : key;
  return { address: signer.address, signDigest: (digest: Hex) => Promise.resolve(signer.sign(digest)) };
}

export interface SignRequestInfo {
  primaryType: PrimaryType;
  digest: Hex;
  signer: Address;
  /** The struct exactly as hashed into `digest`. */
  action: Readonly<Record<string, unknown>>;
  domain: Readonly<ExchangeDomain>;
}

export interface SigningContext {
  signer: ActionSigner;
  domain: Readonly<ExchangeDomain>;
  /** Nonce source; default: the shared allocator of this signer. */
  nonces?: NonceRegistry;
  /** Runs before every signature; throw to block (e.g. a pending deployment pin change). */
  beforeSign?: (info: SignRequestInfo) => void | Promise<void>;
}

/**
 * One nonce allocator (docs/protocol/units.md#nonces) per signer address, shared by every caller that uses the same
 * registry.
 */
export class NonceRegistry {
  readonly #managers = new Map<string, NonceManager>();
  constructor(private readonly clock: () => number = Date.now) {}
  forSigner(address: string): NonceManager {
    const key = address.toLowerCase();
    let m = this.#managers.get(key);
    if (!m) {
      m = new NonceManager(this.clock);
      this.#managers.set(key, m);
    }
    return m;
  }
}

/** The process-wide registry: the app, the bot and offline signing never reuse a nonce. */
export const sharedNonceRegistry = new NonceRegistry();

/** A signed request ready to send: parsed form, JSON body and the exact bytes. */
export interface SignedAction<K extends RequestKind> {
  kind: K;
  request: SignedRequest<K>;
  body: SignedRequestBody;
  bodyText: string;
  /** The action's digest (the API's `orderHash`). */
  orderHash: Hex;
}

/** Agent actions (docs/protocol/agents.md#agent-actions): the master account and its current approval nonce. */
export interface AgentFields {
  master: Address;
  approvalNonce: bigint;
}

export interface OrderInput {
  assetId: bigint;
  epoch: bigint;
  side: SideInput;
  price: PriceInput;
  size: SizeInput;
  /** Default GTC. */
  timeInForce?: TimeInForceInput;
  nonce?: bigint;
}

export interface CancelInput {
  assetId: bigint;
  epoch: bigint;
  /** The order's digest; the zero hash cancels all (use cancelAll). */
  orderHash: Hex;
  nonce?: bigint;
}

export interface CancelAllInput {
  assetId: bigint;
  epoch: bigint;
  nonce?: bigint;
}

export interface CancelReplaceInput {
  assetId: bigint;
  epoch: bigint;
  cancelOrderHash: Hex;
  side: SideInput;
  price: PriceInput;
  size: SizeInput;
  timeInForce?: TimeInForceInput;
  /** Default false. */
  allOrNothing?: boolean;
  nonce?: bigint;
  replacementNonce?: bigint;
}

export interface ClaimInput {
  assetId: bigint;
  epoch: bigint;
  nonce?: bigint;
}

export interface WithdrawInput {
  amount: AmountInput;
  /** Default: the signing wallet. */
  receiver?: Address;
  /** The account ledger (contracts.ledger), not the deposit ledger. */
  ledger: Address;
  nonce?: bigint;
}

export interface ApproveAgentInput {
  agent: Address;
  approvalNonce: bigint;
  nonce?: bigint;
}

export interface SignedAgentApproval {
  approval: AgentApproval;
  orderHash: Hex;
  signature: Hex;
}

function nextNonce(ctx: SigningContext, given: bigint | undefined): bigint {
  if (given !== undefined) return toUint(given, 'uint64', 'Nonce');
  return (ctx.nonces ?? sharedNonceRegistry).forSigner(ctx.signer.address).next();
}

async function signDigestOf<P extends PrimaryType>(
  ctx: SigningContext,
  primaryType: P,
  action: ActionOf<P>,
): Promise<{ orderHash: Hex; signature: Hex }> {
  const orderHash = localCheck(() => hashAction(primaryType, action as never, ctx.domain));
  const info: SignRequestInfo = {
    primaryType,
    digest: orderHash,
    signer: ctx.signer.address,
    action,
    domain: ctx.domain,
  };
  await ctx.beforeSign?.(info);
  await ctx.signer.review?.(info);
  const signature = await ctx.signer.signDigest(orderHash);
  if (typeof signature !== 'string' || !SIGNATURE_RE.test(signature)) {
    throw new ExchangeError('SIGNER_FAILED', 'The signer returned something that is not a 65-byte signature.');
  }
  return { orderHash, signature: signature.toLowerCase() as Hex };
}

function finish<K extends RequestKind>(kind: K, request: SignedRequest<K>, orderHash: Hex): SignedAction<K> {
  const body = localCheck(() => buildSignedRequest(kind, request));
  return { kind, request, body, bodyText: JSON.stringify(body), orderHash };
}

/** Auth prefix for EOA or agent actions. */
function auth(ctx: SigningContext, typ: bigint, nonce: bigint, agent: AgentFields | undefined) {
  const signer = ctx.signer.address;
  if (agent === undefined)
    return { typ, nonce, signer, signatureType: SignatureType.EOA, sender: signer, approvalNonce: 0n };
  const master = toAddress(agent.master, 'Master account');
  if (sameAddress(master, signer)) {
    throw new ExchangeValidationError(
      'SIGNATURE_TYPE_MISMATCH',
      'An agent action must be signed by the agent, not by the master account; use the EOA action instead.',
    );
  }
  return {
    typ,
    nonce,
    signer,
    signatureType: SignatureType.AGENT,
    sender: master,
    approvalNonce: toAgentApprovalNonce(agent.approvalNonce),
  };
}

function fillOrder(
  ctx: SigningContext,
  input: Omit<OrderInput, 'nonce'>,
  nonce: bigint,
  agent: AgentFields | undefined,
): FillOrder {
  // Convert every human input before the nonce is drawn or anything is signed.
  const side = toSide(input.side);
  const price = toPrice(input.price);
  const size = toSize(input.size);
  const timeInForce = toTimeInForce(input.timeInForce);
  const a = auth(ctx, Typ.FILL, nonce, agent);
  return {
    typ: a.typ,
    nonce: a.nonce,
    signer: a.signer,
    signatureType: a.signatureType,
    sender: a.sender,
    epoch: toUint(input.epoch, 'uint32', 'Epoch'),
    side,
    assetId: toUint(input.assetId, 'uint256', 'Asset id'),
    size,
    price,
    timeInForce,
    approvalNonce: a.approvalNonce,
  };
}

export async function buildSignedOrder(
  ctx: SigningContext,
  input: OrderInput,
  agent?: AgentFields,
): Promise<SignedAction<'orders'>> {
  fillOrder(ctx, input, 0n, agent); // validate first: a bad input must not consume a nonce
  const order = fillOrder(ctx, input, nextNonce(ctx, input.nonce), agent);
  const sig = await signDigestOf(ctx, 'FillOrder', order);
  return finish('orders', { order, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}

export async function buildSignedCancel(
  ctx: SigningContext,
  input: CancelInput,
  agent?: AgentFields,
): Promise<SignedAction<'cancels'>> {
  const orderHash = toHash(input.orderHash, 'Order hash', true);
  const assetId = toUint(input.assetId, 'uint256', 'Asset id');
  const epoch = toUint(input.epoch, 'uint32', 'Epoch');
  auth(ctx, Typ.CANCEL, 0n, agent);
  const a = auth(ctx, Typ.CANCEL, nextNonce(ctx, input.nonce), agent);
  const cancel = {
    typ: a.typ,
    nonce: a.nonce,
    signer: a.signer,
    signatureType: a.signatureType,
    sender: a.sender,
    assetId,
    epoch,
    orderHash,
    approvalNonce: a.approvalNonce,
  };
  const sig = await signDigestOf(ctx, 'CancelOrder', cancel);
  return finish('cancels', { cancel, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}

/** Cancel-all: a normal CancelOrder with the zero hash (docs/protocol/signing.md#cancel-all). */
export function buildSignedCancelAll(
  ctx: SigningContext,
  input: CancelAllInput,
  agent?: AgentFields,
): Promise<SignedAction<'cancels'>> {
  return buildSignedCancel(ctx, { ...input, orderHash: ZERO_HASH as Hex }, agent);
}

/**
 * Cancel-replace embedding: replacement nonce drawn first, replacement signed first
 * (docs/protocol/signing.md#cancel-replace).
 */
export async function buildSignedCancelReplace(
  ctx: SigningContext,
  input: CancelReplaceInput,
  agent?: AgentFields,
): Promise<SignedAction<'cancelReplace'>> {
  const cancelOrderHash = toHash(input.cancelOrderHash, 'The order to replace', false);
  const allOrNothing = input.allOrNothing ?? false;
  if (typeof allOrNothing !== 'boolean')
    throw new ExchangeValidationError('INVALID_ALL_OR_NOTHING', 'allOrNothing must be true or false.');
  fillOrder(ctx, input, 0n, agent);
  const replacement = fillOrder(ctx, input, nextNonce(ctx, input.replacementNonce), agent);
  const a = auth(ctx, Typ.CANCEL_REPLACE, nextNonce(ctx, input.nonce), agent);
  const rep = await signDigestOf(ctx, 'FillOrder', replacement);
  const cancelReplace = {
    typ: a.typ,
    nonce: a.nonce,
    signer: a.signer,
    signatureType: a.signatureType,
    sender: a.sender,
    assetId: replacement.assetId,
    epoch: replacement.epoch,
    cancelOrderHash,
    replacementOrderHash: rep.orderHash,
    approvalNonce: a.approvalNonce,
    allOrNothing,
  };
  const outer = await signDigestOf(ctx, 'CancelReplaceOrder', cancelReplace);
  return finish(
    'cancelReplace',
    {
      cancelReplace,
      replacement,
      chainId: ctx.domain.chainId,
      orderHash: outer.orderHash,
      signature: outer.signature,
      replacementOrderHash: rep.orderHash,
      replacementSignature: rep.signature,
    },
    outer.orderHash,
  );
}

export async function buildSignedClaim(
  ctx: SigningContext,
  input: ClaimInput,
  agent?: AgentFields,
): Promise<SignedAction<'claim'>> {
  const assetId = toUint(input.assetId, 'uint256', 'Asset id');
  const epoch = toUint(input.epoch, 'uint32', 'Epoch');
  auth(ctx, Typ.CLAIM, 0n, agent);
  const a = auth(ctx, Typ.CLAIM, nextNonce(ctx, input.nonce), agent);
  const claim = {
    typ: a.typ,
    nonce: a.nonce,
    signer: a.signer,
    signatureType: a.signatureType,
    sender: a.sender,
    assetId,
    epoch,
    approvalNonce: a.approvalNonce,
  };
  const sig = await signDigestOf(ctx, 'ClaimOrder', claim);
  return finish('claim', { claim, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}

/** Withdrawals are EOA only (docs/protocol/deposits.md#withdrawals). */
export async function buildSignedWithdrawal(
  ctx: SigningContext,
  input: WithdrawInput,
): Promise<SignedAction<'withdrawals'>> {
  const amount = toAmount(input.amount);
  const receiver = toAddress(input.receiver ?? ctx.signer.address, 'Receiver');
  const ledger = toAddress(input.ledger, 'Account ledger');
  const signer = ctx.signer.address;
  const withdrawal = {
    typ: Typ.WITHDRAWAL,
    nonce: nextNonce(ctx, input.nonce),
    signer,
    signatureType: SignatureType.EOA,
    sender: signer,
    receiver,
    amount,
    ledger,
  };
  const sig = await signDigestOf(ctx, 'WithdrawalOrder', withdrawal);
  return finish('withdrawals', { withdrawal, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}

/**
 * The inner AgentApproval signature (docs/protocol/agents.md#approve, step 2), local only: it approves nothing by
 * itself.
 */
export async function signAgentApproval(
  ctx: SigningContext,
  input: { agent: Address; approvalNonce: bigint },
): Promise<SignedAgentApproval> {
  const agent = toAddress(input.agent, 'Agent');
  if (sameAddress(agent, ctx.signer.address))
    throw new ExchangeValidationError(
      'AGENT_CANNOT_APPROVE_ITSELF',
      'The agent must be a different wallet from the master account.',
    );
  const approval: AgentApproval = {
    master: ctx.signer.address,
    agent,
    approvalNonce: toUint(input.approvalNonce, 'uint32', 'Approval nonce'),
    approvalSignature: '0x',
  };
  const sig = await signDigestOf(ctx, 'AgentApproval', approval);
  return { approval, orderHash: sig.orderHash, signature: sig.signature };
}

/** Inner AgentApproval signature, then the outer ApproveAgentOrder (docs/protocol/agents.md#approve). */
export async function buildSignedApproveAgent(
  ctx: SigningContext,
  input: ApproveAgentInput,
): Promise<SignedAction<'agentsApprove'>> {
  const inner = await signAgentApproval(ctx, input);
  const signer = ctx.signer.address;
  const approval = {
    typ: Typ.AGENT_APPROVE,
    nonce: nextNonce(ctx, input.nonce),
    signer,
    signatureType: SignatureType.EOA,
    sender: signer,
    agent: inner.approval.agent,
    approvalNonce: inner.approval.approvalNonce,
    approvalSignature: inner.signature,
  };
  const sig = await signDigestOf(ctx, 'ApproveAgentOrder', approval);
  return finish('agentsApprove', { approval, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}

export async function buildSignedRevokeAgent(
  ctx: SigningContext,
  input: { nonce?: bigint } = {},
): Promise<SignedAction<'agentsRevoke'>> {
  const signer = ctx.signer.address;
  const revocation = {
    typ: Typ.AGENT_REVOKE,
    nonce: nextNonce(ctx, input.nonce),
    signer,
    signatureType: SignatureType.EOA,
    sender: signer,
  };
  const sig = await signDigestOf(ctx, 'RevokeAgentOrder', revocation);
  return finish('agentsRevoke', { revocation, chainId: ctx.domain.chainId, ...sig }, sig.orderHash);
}
