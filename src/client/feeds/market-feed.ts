// Market / order-book feed client (docs/protocol/feeds.md#market-feed): one socket, one server subscription per asset,
// many local handlers. Updates are parsed at the edge into typed events with bigints.
import { z } from 'zod';
import type { ExchangeError } from '../errors';
import type { Timers } from '../actions/intents';
import { cleanExchangeText } from '../exchange-words';
import { bytes32, decStr, intLike } from '../http/schemas';
import { SubscriptionSocket } from './subscription-socket';

const sideSchema = z.enum(['buy', 'sell', 'bid', 'ask']).transform((s) => s === 'sell' || s === 'ask');

const orderData = z.object({
  orderId: bytes32,
  assetId: decStr,
  epoch: decStr,
  price: decStr,
  side: sideSchema,
  size: decStr,
  arrivalTime: decStr.optional(),
  tif: z.string().optional(),
  type: z.string().optional(),
});

const updateSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('order'), seqId: intLike, data: orderData }),
  z.object({ type: z.literal('trade'), seqId: intLike, data: orderData.extend({ fillPrice: decStr, fill: decStr }) }),
  z.object({
    type: z.literal('cancel'),
    seqId: intLike,
    data: z.object({
      orderId: bytes32,
      cancelId: bytes32,
      assetId: decStr,
      epoch: decStr,
      arrivalTime: decStr.optional(),
    }),
  }),
  z.object({
    type: z.literal('resolution'),
    seqId: intLike,
    data: z.object({ orderId: bytes32, assetId: decStr, epoch: decStr, price: decStr, arrivalTime: decStr.optional() }),
  }),
]);

type Parsed = z.infer<typeof updateSchema>;
/**
 * A market update as the reference client exposes it: `{type, seqId, assetId, epoch, data}`
 * (docs/protocol/feeds.md#market-feed).
 */
export type MarketUpdate = Parsed & { assetId: bigint; epoch: bigint };
export type OrderEvent = Extract<MarketUpdate, { type: 'order' }>;
export type TradeEvent = Extract<MarketUpdate, { type: 'trade' }>;
export type CancelEvent = Extract<MarketUpdate, { type: 'cancel' }>;
export type ResolutionEvent = Extract<MarketUpdate, { type: 'resolution' }>;

/** Parse one market message; null with a reason when it is not a valid update. */
export function parseMarketUpdate(msg: unknown): { update: MarketUpdate } | { error: string; assetId?: string } {
  const r = updateSchema.safeParse(msg);
  if (r.success) return { update: { ...r.data, assetId: r.data.data.assetId, epoch: r.data.data.epoch } };
  const first = r.error.issues[0];
  const data = typeof msg === 'object' && msg !== null ? (msg as { data?: { assetId?: unknown } }).data : undefined;
  const assetId = typeof data?.assetId === 'string' ? data.assetId : undefined;
  // The type is the server's text: shown cleaned and short (it lands in the book's health reason).
  const type = (msg as { type?: unknown } | null)?.type;
  const shown = typeof type === 'string' ? cleanExchangeText(type).slice(0, 32) : String(type);
  return {
    error: `invalid ${shown} event at ${first ? first.path.join('.') : '?'}: ${first?.message ?? ''}`,
    ...(assetId ? { assetId: assetId.slice(0, 80) } : {}),
  };
}

export interface MarketHandler {
  onUpdate(update: MarketUpdate): void;
  /** An event for this asset could not be parsed: the book must resync. */
  onInvalid?(reason: string): void;
  /**
   * The socket dropped or was replaced (`reason` says why): reload the REST book
   * (docs/protocol/feeds.md#sequencing-and-resync).
   */
  onResyncRequired?(reason: string): void;
}

export interface FeedOptions {
  url: string;
  ackTimeoutMs?: number;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Bounds and heartbeat of the socket (see SubscriptionSocketOptions for the defaults). */
  maxPayloadBytes?: number;
  handshakeTimeoutMs?: number;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  timers?: Timers;
  onError?(err: ExchangeError): void;
}

export interface FeedSubscription {
  /** Resolves on the server's ack. */
  ready: Promise<void>;
  unsubscribe(): Promise<void>;
}

/** The bound and heartbeat options a feed passes to its socket (unset ones keep the socket's defaults). */
export function socketBounds(
  o: FeedOptions,
): Pick<FeedOptions, 'maxPayloadBytes' | 'handshakeTimeoutMs' | 'pingIntervalMs' | 'pongTimeoutMs'> {
  return {
    maxPayloadBytes: o.maxPayloadBytes,
    handshakeTimeoutMs: o.handshakeTimeoutMs,
    pingIntervalMs: o.pingIntervalMs,
    pongTimeoutMs: o.pongTimeoutMs,
  };
}

export class MarketFeed {
  readonly socket: SubscriptionSocket;
  readonly #handlers = new Map<string, Set<MarketHandler>>();
  /** Local ms of the last frame or ping (book staleness). */
  lastActivityAt = 0;

  constructor(opts: FeedOptions) {
    this.socket = new SubscriptionSocket({
      url: opts.url,
      keyField: 'assetId',
      // Unset tuning falls back to the socket's defaults (docs/protocol/feeds.md#timeouts-and-backoff).
      ackTimeoutMs: opts.ackTimeoutMs,
      reconnectDelayMs: opts.reconnectDelayMs,
      maxReconnectDelayMs: opts.maxReconnectDelayMs,
      ...socketBounds(opts),
      timers: opts.timers,
      onMessage: (msg) => this.#dispatch(msg),
      onResyncRequired: (key, reason) => {
        for (const h of this.#handlers.get(key) ?? []) h.onResyncRequired?.(reason);
      },
      onActivity: () => {
        this.lastActivityAt = Date.now();
      },
      ...(opts.onError ? { onError: (e: ExchangeError) => opts.onError?.(e) } : {}),
    });
  }

  subscribe(assetId: bigint, handler: MarketHandler): FeedSubscription {
    const key = assetId.toString();
    let set = this.#handlers.get(key);
    if (!set) this.#handlers.set(key, (set = new Set()));
    set.add(handler);
    const ready = this.socket.subscribe(key);
    ready.catch(() => {}); // callers that ignore `ready` must not see an unhandled rejection
    return {
      ready,
      unsubscribe: async () => {
        set.delete(handler);
        if (set.size === 0) {
          this.#handlers.delete(key);
          await this.socket.unsubscribe(key);
        }
      },
    };
  }

  close(): void {
    this.#handlers.clear();
    this.socket.close();
  }

  #dispatch(msg: Record<string, unknown>): void {
    const parsed = parseMarketUpdate(msg);
    if ('update' in parsed) {
      // Updates for assets nobody tracks are dropped (docs/protocol/feeds.md#market-feed).
      for (const h of this.#handlers.get(parsed.update.assetId.toString()) ?? []) h.onUpdate(parsed.update);
      return;
    }
    const targets = parsed.assetId !== undefined ? [parsed.assetId] : [...this.#handlers.keys()];
    for (const key of targets) for (const h of this.#handlers.get(key) ?? []) h.onInvalid?.(parsed.error);
  }
}
