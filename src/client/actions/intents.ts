// Idempotent delivery of order, cancel and cancel-replace intents (docs/protocol/trading-client.md#idempotent-retries).
// An intent is signed once (one nonce, one digest); a retry after a timeout, transport failure or 5xx/429 resends the
// same bytes, so the exchange either executes it once or answers 404 ENTRY_PROCESSED for the duplicate.
import type { RequestKind } from '../../shared/protocol';
import { REQUEST_KINDS } from '../../shared/protocol';
import { ExchangeAbortError, ExchangeError, ExchangeHttpError } from '../errors';
import type { CallOptions, HttpCore, HttpResponse } from '../http/http';
import type { SignedAction } from './signed-actions';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface RetryPolicy {
  /** Total attempts including the first. 1 disables retries. */
  maxAttempts: number;
  /**
   * Backoff min(maxDelayMs, baseDelayMs × 2^(attempt−1)): 1 s doubling to 30 s
   * (docs/protocol/trading-client.md#idempotent-retries).
   */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 30_000 };

export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

/** The wait before attempt `attempt + 1`: the exchange's Retry-After when it sent one (capped), else the backoff. */
export function retryDelay(policy: RetryPolicy, attempt: number, e: unknown): number {
  const asked = e instanceof ExchangeHttpError ? e.retryAfterMs : undefined;
  return asked === undefined ? backoffDelay(policy, attempt) : Math.min(policy.maxDelayMs, asked);
}

/** 429: the exchange turned the request away unprocessed, so the same bytes may be sent again. */
export function isRateLimited(e: unknown): e is ExchangeHttpError {
  return e instanceof ExchangeHttpError && e.status === 429;
}

export type IntentState = 'pending' | 'unknown' | 'delivered' | 'rejected';

/** One intent: the signed bytes and what became of them. */
export interface Intent<K extends RequestKind = RequestKind> {
  key: string;
  signed: SignedAction<K>;
  state: IntentState;
  /** Sends so far, over all calls. */
  attempts: number;
}

export interface DeliveryResult {
  /** 'answered': the body of a 2xx. 'duplicate': 404 ENTRY_PROCESSED for an already-sent digest. */
  delivery: 'answered' | 'duplicate';
  response: HttpResponse | null;
  attempts: number;
}

const DUPLICATE_CODES = new Set(['ENTRY_PROCESSED', 'REPLACEMENT_ENTRY_PROCESSED']);

/** Whether an error leaves the outcome unknown (worth resending the same digest). */
export function isRetriable(e: unknown): boolean {
  if (e instanceof ExchangeAbortError) return false;
  if (isRateLimited(e)) return true;
  if (e instanceof ExchangeHttpError) return e.status >= 500;
  return e instanceof ExchangeError && (e.code === 'TRANSPORT_ERROR' || e.code === 'TIMEOUT');
}

export function sleep(timers: Timers, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ExchangeAbortError('retry', 'wait', signal.reason));
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(h);
      reject(new ExchangeAbortError('retry', 'wait', signal?.reason));
    };
    const h = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const INTENTS_KEPT = 256;

/**
 * Keeps intents keyed by their content. An intent whose outcome is unknown is reused (same digest)
 * when the same content is submitted again; delivered and rejected intents are forgotten.
 */
export class IntentLedger {
  readonly #byKey = new Map<string, Intent>();
  /** Intents kept at most: beyond it the oldest whose outcome is unknown is forgotten (never one in flight). */
  constructor(readonly limit = INTENTS_KEPT) {}

  /** The unknown intent for `key`, or a new pending one built by `build`. */
  async take<K extends RequestKind>(key: string, build: () => Promise<SignedAction<K>>): Promise<Intent<K>> {
    const old = this.#byKey.get(key);
    if (old && old.state === 'unknown') {
      old.state = 'pending';
      return old as unknown as Intent<K>;
    }
    const intent: Intent<K> = { key, signed: await build(), state: 'pending', attempts: 0 };
    this.#byKey.set(key, intent);
    if (this.#byKey.size > this.limit) {
      const oldest = [...this.#byKey.values()].find((i) => i.state === 'unknown');
      if (oldest) this.#byKey.delete(oldest.key);
    }
    return intent;
  }

  settle(intent: Intent, state: IntentState): void {
    intent.state = state;
    if (state === 'delivered' || state === 'rejected') {
      if (this.#byKey.get(intent.key) === intent) this.#byKey.delete(intent.key);
    }
  }

  /** Intents whose outcome is still unknown (for a UI or a reconciliation pass). */
  unknown(): Intent[] {
    return [...this.#byKey.values()].filter((i) => i.state === 'unknown');
  }
}

export interface DeliverOptions extends CallOptions {
  policy?: RetryPolicy;
  timers?: Timers;
}

/**
 * Send an intent's bytes until answered, refused, or out of attempts. Refusals (4xx other than
 * 429 and ENTRY_PROCESSED) are never retried. ENTRY_PROCESSED for a digest this ledger already
 * sent counts as delivered.
 */
export async function deliverIntent(
  http: HttpCore,
  ledger: IntentLedger,
  intent: Intent,
  opts: DeliverOptions = {},
): Promise<DeliveryResult> {
  const policy = opts.policy ?? DEFAULT_RETRY;
  const timers = opts.timers ?? realTimers;
  const path = REQUEST_KINDS[intent.signed.kind].path;
  const callOpts: CallOptions = {
    ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  for (let attempt = 1; ; attempt++) {
    const sentBefore = intent.attempts > 0;
    intent.attempts++;
    try {
      const response = await http.post(path, intent.signed.bodyText, callOpts);
      ledger.settle(intent, 'delivered');
      return { delivery: 'answered', response, attempts: intent.attempts };
    } catch (e) {
      if (e instanceof ExchangeHttpError && e.status === 404 && DUPLICATE_CODES.has(e.code) && sentBefore) {
        ledger.settle(intent, 'delivered');
        return { delivery: 'duplicate', response: null, attempts: intent.attempts };
      }
      if (!isRetriable(e)) {
        ledger.settle(intent, e instanceof ExchangeAbortError ? 'unknown' : 'rejected');
        throw e;
      }
      ledger.settle(intent, 'unknown');
      if (attempt >= policy.maxAttempts) throw e;
      await sleep(timers, retryDelay(policy, attempt, e), opts.signal);
      intent.state = 'pending';
    }
  }
}
