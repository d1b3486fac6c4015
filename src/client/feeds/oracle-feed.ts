// Oracle price feed client (docs/protocol/feeds.md#oracle-feed): prices per symbolId, no sequence ids and no catch-up.
// A symbol with no price for `staleAfterMs` (default 30 s) is reported stale and the socket is replaced.
import { z } from 'zod';
import { ExchangeError } from '../errors';
import type { Timers } from '../actions/intents';
import { realTimers } from '../actions/intents';
import { decStr, safeNum } from '../http/schemas';
import { SubscriptionSocket } from './subscription-socket';
import { socketBounds, type FeedOptions, type FeedSubscription } from './market-feed';

const priceSchema = z.object({ type: z.literal('price'), symbolId: decStr, price: decStr, ts: safeNum });

export interface OraclePrice {
  symbolId: bigint;
  /** Underlying's own scale (USD × 10^6 on the devnet: docs/protocol/choices.md#oracle-scale-and-timestamps). */
  price: bigint;
  /**
   * As sent; seconds or milliseconds (both accepted, see `tsMs`: docs/protocol/choices.md#oracle-scale-and-timestamps).
   */
  ts: number;
  /** `ts` in milliseconds: values below 10^11 are taken as seconds. */
  tsMs: number;
  receivedAt: number;
}

export interface OracleHandler {
  onPrice(p: OraclePrice): void;
  onStale?(symbolId: bigint): void;
}

export interface OracleFeedOptions extends FeedOptions {
  staleAfterMs?: number;
}

export class OracleFeed {
  readonly socket: SubscriptionSocket;
  readonly #handlers = new Map<string, Set<OracleHandler>>();
  readonly #staleTimers = new Map<string, unknown>();
  readonly #timers: Timers;
  readonly #staleAfterMs: number;
  readonly #latest = new Map<string, OraclePrice>();
  readonly #onError: ((e: ExchangeError) => void) | undefined;

  constructor(opts: OracleFeedOptions) {
    this.#timers = opts.timers ?? realTimers;
    this.#staleAfterMs = opts.staleAfterMs ?? 30_000;
    this.#onError = opts.onError ? (e) => opts.onError?.(e) : undefined;
    this.socket = new SubscriptionSocket({
      url: opts.url,
      keyField: 'symbolId',
      // Unset tuning falls back to the socket's defaults (docs/protocol/feeds.md#timeouts-and-backoff).
      ackTimeoutMs: opts.ackTimeoutMs,
      reconnectDelayMs: opts.reconnectDelayMs,
      maxReconnectDelayMs: opts.maxReconnectDelayMs,
      ...socketBounds(opts),
      timers: opts.timers,
      onMessage: (msg) => this.#onMessage(msg),
      onResyncRequired: () => {},
      onDropped: (key) => this.#disarm(key),
      ...(opts.onError ? { onError: (e: ExchangeError) => opts.onError?.(e) } : {}),
    });
  }

  /** The last price of a symbol, if any arrived. */
  latest(symbolId: bigint): OraclePrice | undefined {
    return this.#latest.get(symbolId.toString());
  }

  subscribe(symbolId: bigint, handler: OracleHandler): FeedSubscription {
    const key = symbolId.toString();
    let set = this.#handlers.get(key);
    if (!set) this.#handlers.set(key, (set = new Set()));
    set.add(handler);
    this.#arm(key);
    const ready = this.socket.subscribe(key);
    ready.catch(() => {});
    return {
      ready,
      unsubscribe: async () => {
        set.delete(handler);
        if (set.size === 0) {
          this.#handlers.delete(key);
          this.#disarm(key);
          await this.socket.unsubscribe(key);
        }
      },
    };
  }

  close(): void {
    for (const key of [...this.#staleTimers.keys()]) this.#disarm(key);
    this.#handlers.clear();
    this.socket.close();
  }

  #arm(key: string): void {
    this.#disarm(key);
    this.#staleTimers.set(
      key,
      this.#timers.setTimeout(() => {
        this.#staleTimers.delete(key);
        for (const h of this.#handlers.get(key) ?? []) h.onStale?.(BigInt(key));
        // Abandon the socket and resubscribe, which re-arms the timer (docs/protocol/feeds.md#oracle-feed).
        for (const k of this.#handlers.keys()) this.#arm(k);
        this.socket.restart(`no price for ${this.#staleAfterMs / 1000} s`);
      }, this.#staleAfterMs),
    );
  }

  #disarm(key: string): void {
    const t = this.#staleTimers.get(key);
    if (t !== undefined) this.#timers.clearTimeout(t);
    this.#staleTimers.delete(key);
  }

  #onMessage(msg: Record<string, unknown>): void {
    const r = priceSchema.safeParse(msg);
    if (!r.success) {
      // A price we cannot read is the feed's error, not ours; other message types are ignored.
      if (msg['type'] === 'price')
        this.#onError?.(
          new ExchangeError(
            'FEED_BAD_MESSAGE',
            `The oracle feed sent a price that could not be read (at ${r.error.issues[0]?.path.join('.') || '?'}).`,
          ),
        );
      return;
    }
    const key = r.data.symbolId.toString();
    if (!this.#handlers.has(key)) return;
    const p: OraclePrice = { ...r.data, tsMs: r.data.ts < 1e11 ? r.data.ts * 1000 : r.data.ts, receivedAt: Date.now() };
    this.#latest.set(key, p);
    this.#arm(key);
    for (const h of this.#handlers.get(key) ?? []) h.onPrice(p);
  }
}
