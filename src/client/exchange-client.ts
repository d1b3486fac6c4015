// The exchange client: read-only endpoints plus signed actions for one signer. Fills every field the
// reference client fills (docs/protocol/signing.md#what-the-client-fills-in), checks human inputs before
// signing, sends orders/cancels/cancel-replaces as idempotent intents and explains 401s.
import {
  REQUEST_KINDS,
  SIGNATURE_RE,
  STRUCTS,
  ZERO_HASH,
  buildSignedRequest,
  hashAction,
  parseSignedRequest,
  recoverDigestSigner,
  type Address,
  type ExchangeDomain,
  type Hex,
  type PrimaryType,
  type RequestKind,
  type SignedRequest,
} from '../shared/protocol';
import type { ZodType } from 'zod';
import { diagnose, type DoctorFacts } from './doctor';
import { ExchangeError, ExchangeHttpError, ExchangeValidationError, localCheck } from './errors';
import { HttpCore, type CallOptions, type HttpCoreOptions } from './http/http';
import {
  checkApprovalWindow,
  defaultApprovalNonce,
  toAddress,
  toAgentApprovalNonce,
  toPrice,
  toSide,
  toSize,
  toTimeInForce,
} from './actions/inputs';
import {
  DEFAULT_RETRY,
  IntentLedger,
  deliverIntent,
  isRateLimited,
  realTimers,
  retryDelay,
  sleep,
  type DeliveryResult,
  type RetryPolicy,
  type Timers,
} from './actions/intents';
import { ExchangeReader } from './http/read-client';
import * as s from './http/schemas';
import {
  buildSignedApproveAgent,
  buildSignedCancel,
  buildSignedCancelAll,
  buildSignedCancelReplace,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  signAgentApproval,
  type ActionSigner,
  type AgentFields,
  type CancelAllInput,
  type CancelInput,
  type CancelReplaceInput,
  type ClaimInput,
  type NonceRegistry,
  type OrderInput,
  type SignRequestInfo,
  type SignedAction,
  type SignedAgentApproval,
  type SigningContext,
} from './actions/signed-actions';

/** What signing needs from the pinned deployment configuration. */
export interface DeploymentContext {
  domain: Readonly<ExchangeDomain>;
  /** contracts.ledger, for withdrawals. */
  ledger?: Address;
}

export interface ExchangeClientOptions extends HttpCoreOptions {
  /** Required for signed actions only. */
  signer?: ActionSigner;
  /** Domain (and ledger) from the pinned deployment; read before every signature. */
  deployment?: () => DeploymentContext | Promise<DeploymentContext>;
  /** Throw to block signing (e.g. while a pin change awaits the user). */
  beforeSign?: (info: SignRequestInfo) => void | Promise<void>;
  nonces?: NonceRegistry;
  /** Exchange time in ms (see trading/clock); approval nonces use it. Default Date.now. */
  now?: () => number;
  retry?: RetryPolicy;
  timers?: Timers;
  /** Run the signature doctor on authentication failures. Default true. */
  doctor?: boolean;
}

export interface SendOptions extends CallOptions {
  /** Override the retry policy for this intent (maxAttempts 1 disables retries). */
  retry?: RetryPolicy;
}

/** Agent variant inputs: the master account, and optionally its approval nonce (read from /agents/status otherwise). */
export interface AgentInput {
  master: Address;
  approvalNonce?: bigint;
}

/** Outcome of an idempotent intent. */
export type IntentOutcome<R> =
  | { delivery: 'answered'; orderHash: Hex; attempts: number; response: R }
  /** Already processed (404 ENTRY_PROCESSED on a resend); `resting` from the account's book orders. */
  | { delivery: 'duplicate'; orderHash: Hex; attempts: number; resting: boolean | undefined };

export type OrderOutcome = IntentOutcome<s.NewOrderResponse>;
export type CancelOutcome = IntentOutcome<s.CancelResponse>;
export type CancelReplaceOutcome = IntentOutcome<s.CancelReplaceResponse>;

type ResponseOf<K extends RequestKind> = K extends 'orders'
  ? s.NewOrderResponse
  : K extends 'cancels'
    ? s.CancelResponse
    : K extends 'cancelReplace'
      ? s.CancelReplaceResponse
      : K extends 'claim'
        ? s.ClaimResponse
        : K extends 'withdrawals'
          ? s.WithdrawalResponse
          : K extends 'agentsApprove' | 'agentsRevoke'
            ? s.AgentResponse
            : unknown;

const RESPONSE_SCHEMAS: Partial<Record<RequestKind, ZodType<unknown>>> = {
  orders: s.newOrderResponseSchema,
  cancels: s.cancelResponseSchema,
  cancelReplace: s.cancelReplaceResponseSchema,
  claim: s.claimResponseSchema,
  withdrawals: s.withdrawalResponseSchema,
  agentsApprove: s.agentResponseSchema,
  agentsRevoke: s.agentResponseSchema,
};

/** Codes after which the doctor runs even without a 401 (signature-type and agent checks answer 400). */
const AUTH_CODES = /HASH_MISMATCH|SIGNATURE|SIGNER|SENDER|APPROVAL|AGENT/;

export class ExchangeClient extends ExchangeReader {
  readonly #opts: ExchangeClientOptions;
  readonly intents = new IntentLedger();

  constructor(opts: ExchangeClientOptions, http: HttpCore = new HttpCore(opts)) {
    super(http);
    this.#opts = opts;
  }

  get signer(): ActionSigner {
    const s = this.#opts.signer;
    if (!s) throw new ExchangeError('NO_SIGNER', 'This exchange client has no wallet to sign with.');
    return s;
  }

  async #deployment(): Promise<DeploymentContext> {
    if (!this.#opts.deployment)
      throw new ExchangeError('NO_DEPLOYMENT', 'No exchange deployment is configured, so nothing can be signed.');
    return this.#opts.deployment();
  }

  async #ctx(): Promise<SigningContext> {
    const { domain } = await this.#deployment();
    return {
      signer: this.signer,
      domain,
      ...(this.#opts.nonces ? { nonces: this.#opts.nonces } : {}),
      ...(this.#opts.beforeSign ? { beforeSign: this.#opts.beforeSign } : {}),
    };
  }

  #now(): number {
    return (this.#opts.now ?? Date.now)();
  }

  async #agent(agent: AgentInput, opts?: CallOptions): Promise<AgentFields> {
    const master = toAddress(agent.master, 'Master account');
    const approvalNonce = agent.approvalNonce ?? (await this.getAgentApprovalNonce(master, opts));
    return { master, approvalNonce: toAgentApprovalNonce(approvalNonce) };
  }

  // ---------------------------------------------------------------- offline builders

  buildSignedOrder(input: OrderInput, agent?: AgentFields): Promise<SignedAction<'orders'>> {
    return this.#ctx().then((c) => buildSignedOrder(c, input, agent));
  }
  buildSignedCancel(input: CancelInput, agent?: AgentFields): Promise<SignedAction<'cancels'>> {
    return this.#ctx().then((c) => buildSignedCancel(c, input, agent));
  }
  buildSignedCancelAll(input: CancelAllInput, agent?: AgentFields): Promise<SignedAction<'cancels'>> {
    return this.#ctx().then((c) => buildSignedCancelAll(c, input, agent));
  }
  buildSignedCancelReplace(input: CancelReplaceInput, agent?: AgentFields): Promise<SignedAction<'cancelReplace'>> {
    return this.#ctx().then((c) => buildSignedCancelReplace(c, input, agent));
  }
  buildSignedClaim(input: ClaimInput, agent?: AgentFields): Promise<SignedAction<'claim'>> {
    return this.#ctx().then((c) => buildSignedClaim(c, input, agent));
  }
  async buildSignedWithdrawal(input: {
    amount: string | bigint;
    receiver?: Address;
    nonce?: bigint;
  }): Promise<SignedAction<'withdrawals'>> {
    const dep = await this.#deployment();
    if (!dep.ledger)
      throw new ExchangeError(
        'NO_LEDGER',
        'The deployment has no account ledger configured, so a withdrawal cannot be signed.',
      );
    return buildSignedWithdrawal(await this.#ctx(), { ...input, ledger: dep.ledger });
  }
  async buildSignedApproveAgent(input: {
    agent: Address;
    approvalNonce?: bigint;
    nonce?: bigint;
  }): Promise<SignedAction<'agentsApprove'>> {
    if (input.approvalNonce === undefined) {
      // A fresh exchange timestamp (balance carries `ts`) so `now` reflects exchange time
      // (docs/protocol/agents.md#the-approval-nonce).
      await this.getBalance(this.signer.address).catch(() => undefined);
    }
    const approvalNonce = input.approvalNonce ?? defaultApprovalNonce(this.#now());
    checkApprovalWindow(approvalNonce, this.#now());
    return buildSignedApproveAgent(await this.#ctx(), { ...input, approvalNonce });
  }
  buildSignedRevokeAgent(input: { nonce?: bigint } = {}): Promise<SignedAction<'agentsRevoke'>> {
    return this.#ctx().then((c) => buildSignedRevokeAgent(c, input));
  }
  /** The inner AgentApproval signature only; approves nothing by itself (docs/protocol/agents.md#approve). */
  signAgentApproval(input: { agent: Address; approvalNonce: bigint }): Promise<SignedAgentApproval> {
    return this.#ctx().then((c) => signAgentApproval(c, input));
  }

  // ---------------------------------------------------------------- orders, cancels, cancel-replace (intents)

  async placeOrder(input: OrderInput, opts?: SendOptions): Promise<OrderOutcome> {
    return this.#intent(
      'orders',
      orderKey(input, undefined),
      () => this.buildSignedOrder(input),
      opts,
      (a) => a.request.order,
    );
  }

  async placeAgentOrder(input: OrderInput & AgentInput, opts?: SendOptions): Promise<OrderOutcome> {
    const agent = await this.#agent(input, opts);
    return this.#intent(
      'orders',
      orderKey(input, agent),
      () => this.buildSignedOrder(input, agent),
      opts,
      (a) => a.request.order,
    );
  }

  async cancelOrder(input: CancelInput, opts?: SendOptions): Promise<CancelOutcome> {
    return this.#intent(
      'cancels',
      cancelKey(input, undefined),
      () => this.buildSignedCancel(input),
      opts,
      (a) => a.request.cancel,
    );
  }

  /** Cancels every order of this account in the asset and epoch (zero hash, docs/protocol/signing.md#cancel-all). */
  cancelAll(input: CancelAllInput, opts?: SendOptions): Promise<CancelOutcome> {
    return this.cancelOrder({ ...input, orderHash: ZERO_HASH as Hex }, opts);
  }

  async cancelAgentOrder(input: CancelInput & AgentInput, opts?: SendOptions): Promise<CancelOutcome> {
    const agent = await this.#agent(input, opts);
    return this.#intent(
      'cancels',
      cancelKey(input, agent),
      () => this.buildSignedCancel(input, agent),
      opts,
      (a) => a.request.cancel,
    );
  }

  cancelAllAgent(input: CancelAllInput & AgentInput, opts?: SendOptions): Promise<CancelOutcome> {
    return this.cancelAgentOrder({ ...input, orderHash: ZERO_HASH as Hex }, opts);
  }

  async cancelReplaceOrder(input: CancelReplaceInput, opts?: SendOptions): Promise<CancelReplaceOutcome> {
    return this.#intent(
      'cancelReplace',
      cancelReplaceKey(input, undefined),
      () => this.buildSignedCancelReplace(input),
      opts,
      (a) => a.request.cancelReplace,
    );
  }

  async cancelReplaceAgentOrder(
    input: CancelReplaceInput & AgentInput,
    opts?: SendOptions,
  ): Promise<CancelReplaceOutcome> {
    const agent = await this.#agent(input, opts);
    return this.#intent(
      'cancelReplace',
      cancelReplaceKey(input, agent),
      () => this.buildSignedCancelReplace(input, agent),
      opts,
      (a) => a.request.cancelReplace,
    );
  }

  // ---------------------------------------------------------------- single-shot actions

  async claim(input: ClaimInput, opts?: CallOptions): Promise<s.ClaimResponse> {
    return this.#sendOnce(await this.buildSignedClaim(input), opts);
  }

  async claimAgent(input: ClaimInput & AgentInput, opts?: CallOptions): Promise<s.ClaimResponse> {
    const agent = await this.#agent(input, opts);
    return this.#sendOnce(await this.buildSignedClaim(input, agent), opts);
  }

  /** Receiver defaults to the wallet itself (docs/protocol/deposits.md#withdrawals). */
  async withdraw(
    input: { amount: string | bigint; receiver?: Address; nonce?: bigint },
    opts?: CallOptions,
  ): Promise<s.WithdrawalResponse> {
    return this.#sendOnce(await this.buildSignedWithdrawal(input), opts);
  }

  /**
   * Approve `agent` for this wallet (docs/protocol/agents.md#approve): approval nonce (exchange time + 120..220 s) when
   * omitted, inner AgentApproval signature, then the outer ApproveAgentOrder. A FAIL comes back as a result.
   */
  async approveAgent(
    input: { agent: Address; approvalNonce?: bigint; nonce?: bigint },
    opts?: CallOptions,
  ): Promise<s.AgentResponse> {
    return this.#sendOnce(await this.buildSignedApproveAgent(input), opts);
  }

  async revokeAgent(input: { nonce?: bigint } = {}, opts?: CallOptions): Promise<s.AgentResponse> {
    return this.#sendOnce(await this.buildSignedRevokeAgent(input), opts);
  }

  /**
   * Send a wrapper signed elsewhere (offline signing). It is parsed strictly again, its digest is
   * recomputed over the current deployment's domain and its signature must recover to `signer`.
   */
  async submitSigned<K extends RequestKind>(kind: K, body: unknown, opts?: CallOptions): Promise<ResponseOf<K>> {
    if (!(kind in REQUEST_KINDS))
      throw new ExchangeValidationError('INVALID_REQUEST', `Unknown request kind "${String(kind)}".`);
    const json: unknown = typeof body === 'string' ? parseJsonText(body) : body;
    const request = localCheck(() => parseSignedRequest(kind, json));
    const { domain } = await this.#deployment();
    checkSignedWrapper(kind, request, domain);
    const wire = localCheck(() => buildSignedRequest(kind, request));
    const signed = {
      kind,
      request,
      body: wire,
      bodyText: JSON.stringify(wire),
      orderHash: (request as { orderHash: Hex }).orderHash,
    } as SignedAction<K>;
    return this.#sendOnce(signed, opts);
  }

  // ---------------------------------------------------------------- plumbing

  /**
   * One signed action, sent once, except after a 429: the exchange turned it away unprocessed, so
   * the same bytes go again after its Retry-After (or the backoff), up to the retry policy's
   * attempts. Anything else is answered or thrown at once.
   */
  async #sendOnce<K extends RequestKind>(signed: SignedAction<K>, opts?: CallOptions): Promise<ResponseOf<K>> {
    const path = REQUEST_KINDS[signed.kind].path;
    const policy = this.#opts.retry ?? DEFAULT_RETRY;
    let body: unknown;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          body = (await this.http.post(path, signed.bodyText, opts)).body;
          break;
        } catch (e) {
          if (!isRateLimited(e) || attempt >= policy.maxAttempts) throw e;
          await sleep(this.#opts.timers ?? realTimers, retryDelay(policy, attempt, e), opts?.signal);
        }
      }
    } catch (e) {
      // Approve/revoke FAIL arrives as 404 with the normal body (docs/protocol/endpoints.md#reading-errors).
      if (
        e instanceof ExchangeHttpError &&
        e.status === 404 &&
        (signed.kind === 'agentsApprove' || signed.kind === 'agentsRevoke')
      ) {
        const r = s.agentResponseSchema.safeParse(e.body);
        if (r.success) return r.data as ResponseOf<K>;
      }
      throw await this.#explain(signed, e);
    }
    return this.#parse(signed.kind, body);
  }

  #parse<K extends RequestKind>(kind: K, body: unknown): ResponseOf<K> {
    const schema = RESPONSE_SCHEMAS[kind];
    return (schema ? s.parseResponse(schema, body, `${REQUEST_KINDS[kind].path} answer`) : body) as ResponseOf<K>;
  }

  async #intent<K extends 'orders' | 'cancels' | 'cancelReplace'>(
    kind: K,
    key: string,
    build: () => Promise<SignedAction<K>>,
    opts: SendOptions | undefined,
    actionOf: (a: SignedAction<K>) => { assetId: bigint; epoch: bigint; sender: Address },
  ): Promise<IntentOutcome<ResponseOf<K>>> {
    const intent = await this.intents.take(`${kind}|${this.signer.address.toLowerCase()}|${key}`, build);
    const signed = intent.signed;
    let result: DeliveryResult;
    try {
      result = await deliverIntent(this.http, this.intents, intent, {
        policy: opts?.retry ?? this.#opts.retry ?? DEFAULT_RETRY,
        ...(this.#opts.timers ? { timers: this.#opts.timers } : {}),
        ...(opts?.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
        ...(opts?.signal ? { signal: opts.signal } : {}),
      });
    } catch (e) {
      throw await this.#explain(signed, e);
    }
    if (result.delivery === 'answered') {
      return {
        delivery: 'answered',
        orderHash: signed.orderHash,
        attempts: result.attempts,
        response: this.#parse(kind, result.response?.body),
      };
    }
    // Reconcile a duplicate from the account's resting orders (docs/protocol/choices.md#duplicates).
    const a = actionOf(signed);
    const target =
      kind === 'orders'
        ? signed.orderHash
        : kind === 'cancelReplace'
          ? (signed.request as SignedRequest<'cancelReplace'>).replacementOrderHash
          : (signed.request as SignedRequest<'cancels'>).cancel.orderHash;
    let resting: boolean | undefined;
    try {
      const book = await this.getBookOrders(a.assetId, a.epoch, a.sender);
      const ids = new Set([...book.buys, ...book.sells].map((o) => o.id.toLowerCase()));
      resting = target === ZERO_HASH ? ids.size > 0 : ids.has(target.toLowerCase());
    } catch {
      resting = undefined;
    }
    return { delivery: 'duplicate', orderHash: signed.orderHash, attempts: result.attempts, resting };
  }

  /** Attach the doctor's diagnosis to authentication failures. */
  async #explain(signed: SignedAction<RequestKind>, e: unknown): Promise<unknown> {
    if (!(e instanceof ExchangeHttpError) || this.#opts.doctor === false) return e;
    if (e.status !== 401 && !(e.status >= 400 && e.status < 500 && AUTH_CODES.test(e.code))) return e;
    try {
      e.diagnosis = await this.diagnose(signed.kind, signed.body, e.code);
    } catch {
      /* the doctor is best effort */
    }
    return e;
  }

  /** Run the signature doctor on a body that the exchange refused with `code`. */
  async diagnose(kind: RequestKind, body: unknown, code: string): Promise<ReturnType<typeof diagnose>> {
    const { domain } = await this.#deployment();
    const quick: CallOptions = { timeoutMs: 3_000 };
    const facts: DoctorFacts = { kind, body, domain, code };
    const [config, served] = await Promise.all([
      this.getExchangeConfig(domain.chainId, quick).catch(() => null),
      this.getExchangeDomain(domain.chainId, quick).catch(() => null),
    ]);
    facts.serverConfig = config && served ? { ...config, domainName: served.name } : config;
    const action =
      typeof body === 'object' && body !== null
        ? (body as Record<string, unknown>)[REQUEST_KIND_JSON_KEY[kind]]
        : undefined;
    const sender =
      typeof action === 'object' && action !== null ? (action as Record<string, unknown>)['sender'] : undefined;
    if (typeof sender === 'string' && (action as Record<string, unknown>)['signatureType'] === '4') {
      facts.agentStatus = await this.getAgentApproval(sender as Address, quick).catch(() => null);
    }
    return diagnose(facts);
  }
}

const REQUEST_KIND_JSON_KEY = Object.fromEntries(
  Object.entries(REQUEST_KINDS).map(([k, v]) => [k, STRUCTS[v.primaryType].jsonKey]),
) as Record<RequestKind, string>;

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ExchangeValidationError('INVALID_REQUEST', 'The signed request is not valid JSON.');
  }
}

/**
 * Local check of a wrapper (docs/protocol/signing.md#server-side-check): digest over `domain` and signer recovery, for
 * every signed pair.
 */
function checkSignedWrapper(
  kind: RequestKind,
  request: SignedRequest<RequestKind>,
  domain: Readonly<ExchangeDomain>,
): void {
  const r = request as unknown as Record<string, unknown>;
  if (r['chainId'] !== domain.chainId) {
    throw new ExchangeValidationError(
      'WRONG_CHAIN',
      `The signed request is for chain ${String(r['chainId'])}, but the connected exchange runs on chain ${domain.chainId}.`,
    );
  }
  const pairs: [PrimaryType, unknown, unknown, unknown][] =
    kind === 'cancelReplace'
      ? [
          ['FillOrder', r['replacement'], r['replacementOrderHash'], r['replacementSignature']],
          ['CancelReplaceOrder', r['cancelReplace'], r['orderHash'], r['signature']],
        ]
      : [[REQUEST_KINDS[kind].primaryType, r[REQUEST_KIND_JSON_KEY[kind]], r['orderHash'], r['signature']]];
  for (const [p, action, hash, sig] of pairs) {
    const digest = localCheck(() => hashAction(p, action as never, domain));
    if (digest !== String(hash).toLowerCase()) {
      throw new ExchangeValidationError(
        'DIGEST_MISMATCH',
        "The signed request's orderHash does not match its action on this exchange's domain; it was changed or signed for another deployment.",
      );
    }
    const signer = (action as { signer: string }).signer;
    if (
      typeof sig !== 'string' ||
      !SIGNATURE_RE.test(sig) ||
      recoverSafe(digest, sig as Hex) !== signer.toLowerCase()
    ) {
      throw new ExchangeValidationError(
        'SIGNER_MISMATCH',
        'The signature in the signed request was not made by its signer.',
      );
    }
  }
}

function recoverSafe(digest: Hex, sig: Hex): string {
  try {
    return recoverDigestSigner(digest, sig).toLowerCase();
  } catch {
    return '';
  }
}

// Content keys (docs/protocol/trading-client.md#idempotent-retries): the same content while its outcome is unknown
// reuses the signed intent.
function orderKey(i: OrderInput, agent: AgentFields | undefined): string {
  return [
    i.assetId,
    i.epoch,
    toSide(i.side),
    toPrice(i.price),
    toSize(i.size),
    toTimeInForce(i.timeInForce),
    agent?.master.toLowerCase() ?? '',
    agent?.approvalNonce ?? '',
    i.nonce ?? '',
  ].join('|');
}
function cancelKey(i: CancelInput, agent: AgentFields | undefined): string {
  return [
    i.assetId,
    i.epoch,
    i.orderHash.toLowerCase(),
    agent?.master.toLowerCase() ?? '',
    agent?.approvalNonce ?? '',
    i.nonce ?? '',
  ].join('|');
}
function cancelReplaceKey(i: CancelReplaceInput, agent: AgentFields | undefined): string {
  return [
    i.assetId,
    i.epoch,
    i.cancelOrderHash.toLowerCase(),
    toSide(i.side),
    toPrice(i.price),
    toSize(i.size),
    toTimeInForce(i.timeInForce),
    i.allOrNothing ?? false,
    agent?.master.toLowerCase() ?? '',
    agent?.approvalNonce ?? '',
    i.nonce ?? '',
    i.replacementNonce ?? '',
  ].join('|');
}
