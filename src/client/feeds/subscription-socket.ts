// One WebSocket carrying many subscriptions (docs/protocol/feeds.md#one-socket-many-subscriptions): explicit
// subscribe/unsubscribe with acks and timeouts, reconnect with backoff (reset on open), resubscribe after reconnect,
// and every event of an abandoned socket ignored. Protocol pings are answered by `ws` itself; we only note them.
// The server is untrusted: frames are capped (maxPayload), the opening handshake has a deadline,
// every frame is decoded under a guard, and a heartbeat (our ping, any frame back within a
// deadline) replaces a socket that went silent, so a frozen feed cannot pass for a live one.
import WebSocket from 'ws';
import { ExchangeError, formatBytes } from '../errors';
import { exchangeSaid } from '../exchange-words';
import { realTimers, type Timers } from '../actions/intents';

/** Largest frame (message) read from a feed: a book update is a few hundred bytes. */
export const MAX_FEED_FRAME_BYTES = 1024 * 1024;
/** The opening handshake must complete within this. */
export const FEED_HANDSHAKE_TIMEOUT_MS = 10_000;
/** A ping goes out this often while nothing is outstanding. */
export const FEED_PING_INTERVAL_MS = 1_000;
/** No frame at all (pong or otherwise) this long after a ping: the socket is silent and replaced. */
export const FEED_PONG_TIMEOUT_MS = 1_500;

export interface SubscriptionSocketOptions {
  url: string;
  /** "assetId" for the market feed, "symbolId" for the oracle feed. */
  keyField: 'assetId' | 'symbolId';
  ackTimeoutMs?: number;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Largest frame accepted; a bigger one closes the socket with FEED_FRAME_TOO_LARGE. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Deadline of the opening handshake. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** Heartbeat ping period; 0 turns the heartbeat off. Default 1 s. */
  pingIntervalMs?: number;
  /** How long after a ping some frame must arrive. Default 1.5 s. */
  pongTimeoutMs?: number;
  timers?: Timers;
  /** Every non-control message, with the key it belongs to (if it names one). */
  onMessage(msg: Record<string, unknown>): void;
  /**
   * The subscription may have missed messages: consumers reload state (docs/protocol/feeds.md#sequencing-and-resync).
   * `reason` says why.
   */
  onResyncRequired(key: string, reason: string): void;
  onError?(err: ExchangeError): void;
  /** Any frame or ping arrived (liveness). */
  onActivity?(): void;
  /** The server dropped a subscription by itself (oracle "unsubscribed" with a reason). */
  onDropped?(key: string, reason: string): void;
}

type Waiter = { resolve(): void; reject(e: ExchangeError): void };

export type SocketState = 'idle' | 'connecting' | 'open' | 'waiting' | 'closed';

export class SubscriptionSocket {
  readonly #o: SubscriptionSocketOptions;
  readonly #timers: Timers;
  readonly #keys = new Set<string>();
  #ws: WebSocket | null = null;
  #attempt = 0;
  #reconnectTimer: unknown = null;
  #closed = false;
  #state: SocketState = 'idle';
  /** Callers waiting for an ack, by "subscribe:key" / "unsubscribe:key". */
  readonly #waiters = new Map<string, Waiter[]>();
  /** Keys the current socket's server has acknowledged. */
  readonly #acked = new Set<string>();
  /** Ack timers of the current socket. */
  readonly #ackTimers = new Map<string, unknown>();
  /** Counters for health displays and tests. */
  readonly stats = { opens: 0, reconnects: 0, ackTimeouts: 0, silences: 0, pings: 0 };
  /** Why the last socket was dropped (shown while reconnecting); null before any drop. */
  dropReason: string | null = null;
  /** Heartbeat: the next ping, and the deadline of the outstanding one. */
  #pingTimer: unknown = null;
  #pongTimer: unknown = null;
  /** The error the current socket reported before closing, if any (frame too large, handshake timeout). */
  #socketError: ExchangeError | null = null;

  constructor(opts: SubscriptionSocketOptions) {
    this.#o = opts;
    this.#timers = opts.timers ?? realTimers;
  }

  get state(): SocketState {
    return this.#state;
  }

  get keys(): ReadonlySet<string> {
    return this.#keys;
  }

  /** Whether the server has acknowledged `key` on the current socket (its updates are flowing). */
  isAcked(key: string): boolean {
    return this.#acked.has(key);
  }

  /** Open, heard from within the heartbeat deadline, and at least one subscription acknowledged. */
  isLive(): boolean {
    return this.#state === 'open' && (this.#keys.size === 0 || this.#acked.size > 0);
  }

  /** Add a subscription; resolves on the server's ack, rejects on an ack timeout (it keeps retrying). */
  subscribe(key: string): Promise<void> {
    if (this.#closed) return Promise.reject(new ExchangeError('FEED_CLOSED', 'The feed has been closed.'));
    const fresh = !this.#keys.has(key);
    this.#keys.add(key);
    if (!fresh && this.#acked.has(key)) return Promise.resolve();
    const p = this.#wait(`subscribe:${key}`);
    if (this.#ws === null && this.#reconnectTimer === null) this.#connect();
    else if (this.#state === 'open' && fresh) this.#send('subscribe', key);
    return p;
  }

  /**
   * Remove a subscription. If its ack times out the socket is replaced (docs/protocol/feeds.md#timeouts-and-backoff).
   */
  async unsubscribe(key: string): Promise<void> {
    if (!this.#keys.delete(key)) return;
    this.#acked.delete(key);
    if (this.#state === 'open') {
      const p = this.#wait(`unsubscribe:${key}`);
      this.#send('unsubscribe', key);
      try {
        await p;
      } catch (e) {
        this.#o.onError?.(e as ExchangeError);
        this.#abandon(this.#keys.size > 0, (e as ExchangeError).sentence);
        return;
      }
    }
    if (this.#keys.size === 0) this.#abandon(false);
  }

  /** Replace the socket now (e.g. the oracle went stale): every subscription resyncs. */
  restart(reason = 'the feed was restarted'): void {
    if (!this.#closed) this.#abandon(true, reason);
  }

  close(): void {
    this.#closed = true;
    this.#keys.clear();
    this.#abandon(false);
    this.#settleAll(new ExchangeError('FEED_CLOSED', 'The feed has been closed.'));
    this.#state = 'closed';
  }

  #wait(id: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const list = this.#waiters.get(id) ?? [];
      list.push({ resolve, reject });
      this.#waiters.set(id, list);
    });
  }

  #settle(id: string, err?: ExchangeError): void {
    const list = this.#waiters.get(id);
    this.#waiters.delete(id);
    for (const w of list ?? [])
      if (err) w.reject(err);
      else w.resolve();
  }

  #settleAll(err: ExchangeError): void {
    for (const id of [...this.#waiters.keys()]) this.#settle(id, err);
  }

  #send(cmd: 'subscribe' | 'unsubscribe', key: string): void {
    const ws = this.#ws;
    if (!ws) return;
    const id = `${cmd}:${key}`;
    const ackMs = this.#o.ackTimeoutMs ?? 15_000;
    const old = this.#ackTimers.get(id);
    if (old !== undefined) this.#timers.clearTimeout(old);
    this.#ackTimers.set(
      id,
      this.#timers.setTimeout(() => {
        if (this.#ws !== ws) return;
        this.#ackTimers.delete(id);
        this.stats.ackTimeouts++;
        const err = new ExchangeError(
          'FEED_ACK_TIMEOUT',
          `The feed did not acknowledge ${cmd} ${key} within ${ackMs / 1000} s.`,
        );
        this.#settle(id, err);
        this.#o.onError?.(err);
        // A subscribe without an ack: the socket is suspect; replace it and resubscribe.
        if (cmd === 'subscribe') this.#abandon(true, err.sentence);
      }, ackMs),
    );
    ws.send(JSON.stringify({ type: cmd, [this.#o.keyField]: key }));
  }

  #connect(): void {
    this.#reconnectTimer = null;
    if (this.#closed || this.#keys.size === 0) {
      this.#state = 'idle';
      return;
    }
    this.#state = 'connecting';
    this.#socketError = null;
    const maxPayload = this.#o.maxPayloadBytes ?? MAX_FEED_FRAME_BYTES;
    const handshakeMs = this.#o.handshakeTimeoutMs ?? FEED_HANDSHAKE_TIMEOUT_MS;
    // No compression (nothing to inflate), no redirects (main talks only to the configured host).
    const ws = new WebSocket(this.#o.url, {
      maxPayload,
      handshakeTimeout: handshakeMs,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.#ws = ws;
    const mine = () => this.#ws === ws;
    ws.on('open', () => {
      if (!mine()) return;
      this.#attempt = 0;
      this.stats.opens++;
      this.#state = 'open';
      this.#startHeartbeat(ws);
      for (const key of this.#keys) this.#send('subscribe', key);
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (!mine()) return;
      this.#heard();
      this.#o.onActivity?.();
      let msg: unknown;
      try {
        msg = JSON.parse(rawText(data));
      } catch {
        this.#o.onError?.(new ExchangeError('FEED_BAD_FRAME', 'The feed sent a frame that is not JSON.'));
        return;
      }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
        this.#o.onError?.(new ExchangeError('FEED_BAD_FRAME', 'The feed sent a frame that is not a JSON object.'));
        return;
      }
      try {
        this.#handle(msg as Record<string, unknown>);
      } catch (e) {
        // A message our consumers could not digest must cost that feed a resync, never main.
        const why = e instanceof Error ? e.message : String(e);
        this.#o.onError?.(
          new ExchangeError('FEED_BAD_MESSAGE', `A feed message could not be handled (${why}); resyncing.`, {
            cause: e,
          }),
        );
        if (mine()) this.#abandon(true, 'a feed message could not be handled');
      }
    });
    ws.on('ping', () => {
      if (!mine()) return;
      this.#heard();
      this.#o.onActivity?.();
    });
    ws.on('pong', () => {
      if (!mine()) return;
      this.#heard();
      this.#o.onActivity?.();
    });
    ws.on('error', (e: Error & { code?: string }) => {
      // 'close' follows. Only the bounds we enforce carry something worth telling.
      if (!mine()) return;
      if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.#socketError = new ExchangeError(
          'FEED_FRAME_TOO_LARGE',
          `The feed sent a frame larger than ${formatBytes(maxPayload)}; the connection was dropped.`,
        );
      } else if (/handshake has timed out/i.test(e.message)) {
        this.#socketError = new ExchangeError(
          'FEED_HANDSHAKE_TIMEOUT',
          `The feed did not complete its opening handshake within ${handshakeMs / 1000} s.`,
        );
      } else return;
      this.#o.onError?.(this.#socketError);
    });
    ws.on('close', () => {
      if (mine()) this.#abandon(true, this.#socketError?.sentence ?? 'the feed connection closed');
    });
  }

  /** Ping every interval while nothing is outstanding; silence past the pong deadline replaces the socket. */
  #startHeartbeat(ws: WebSocket): void {
    const every = this.#o.pingIntervalMs ?? FEED_PING_INTERVAL_MS;
    if (every <= 0) return;
    const deadline = this.#o.pongTimeoutMs ?? FEED_PONG_TIMEOUT_MS;
    const tick = (): void => {
      if (this.#ws !== ws) return;
      this.#pingTimer = this.#timers.setTimeout(tick, every);
      if (this.#pongTimer !== null) return;
      try {
        ws.ping();
        this.stats.pings++;
      } catch {
        return; // not open any more: 'close' follows
      }
      this.#pongTimer = this.#timers.setTimeout(() => {
        // One more turn of the event loop first, so an answer already on the socket is read before
        // we call it silent (a busy main process is not a silent server).
        this.#pongTimer = this.#timers.setTimeout(() => {
          this.#pongTimer = null;
          if (this.#ws !== ws) return;
          this.stats.silences++;
          const err = new ExchangeError(
            'FEED_SILENT',
            `The feed sent nothing, not even an answer to a ping, for ${deadline / 1000} s; reconnecting.`,
          );
          this.#o.onError?.(err);
          this.#abandon(true, `the feed went silent (no answer to a ping within ${deadline / 1000} s)`);
        }, 0);
      }, deadline);
    };
    tick();
  }

  /** Any frame from the server: the outstanding ping is answered. */
  #heard(): void {
    if (this.#pongTimer === null) return;
    this.#timers.clearTimeout(this.#pongTimer);
    this.#pongTimer = null;
  }

  #stopHeartbeat(): void {
    if (this.#pingTimer !== null) this.#timers.clearTimeout(this.#pingTimer);
    if (this.#pongTimer !== null) this.#timers.clearTimeout(this.#pongTimer);
    this.#pingTimer = null;
    this.#pongTimer = null;
  }

  #handle(msg: Record<string, unknown>): void {
    const type = msg['type'];
    const key = msg[this.#o.keyField];
    if (type === 'subscribed' || type === 'unsubscribed') {
      // Acks must carry string ids (docs/protocol/feeds.md#one-socket-many-subscriptions).
      if (typeof key !== 'string') {
        this.#o.onError?.(
          new ExchangeError('FEED_BAD_ACK', `The feed acknowledged with a non-string ${this.#o.keyField}.`),
        );
        return;
      }
      const id = `${type === 'subscribed' ? 'subscribe' : 'unsubscribe'}:${key}`;
      const timer = this.#ackTimers.get(id);
      if (timer !== undefined) {
        this.#timers.clearTimeout(timer);
        this.#ackTimers.delete(id);
        if (type === 'subscribed') this.#acked.add(key);
        this.#settle(id);
      } else if (type === 'unsubscribed' && typeof msg['reason'] === 'string' && this.#keys.has(key)) {
        this.#keys.delete(key);
        this.#o.onDropped?.(key, msg['reason']);
        this.#o.onError?.(
          new ExchangeError(
            'FEED_DROPPED',
            `The feed stopped ${this.#o.keyField} ${key}. ${exchangeSaid(msg['reason'])}`,
          ),
        );
      }
      return;
    }
    if (type === 'connected') return;
    if (type === 'error') {
      const text = typeof msg['message'] === 'string' ? msg['message'] : '';
      this.#o.onError?.(
        new ExchangeError(
          'FEED_ERROR',
          text === '' ? 'The feed reported an error.' : `The feed reported an error. ${exchangeSaid(text)}`,
        ),
      );
      return;
    }
    this.#o.onMessage(msg);
  }

  /** Drop the current socket; resync every subscription and reconnect when asked. */
  #abandon(reconnect: boolean, reason = 'the feed connection was replaced'): void {
    const ws = this.#ws;
    this.#ws = null;
    this.#stopHeartbeat();
    if (ws) this.dropReason = reason;
    for (const t of this.#ackTimers.values()) this.#timers.clearTimeout(t);
    this.#ackTimers.clear();
    this.#acked.clear();
    if (ws) {
      ws.removeAllListeners('message');
      ws.on('error', () => {});
      ws.terminate();
    }
    if (this.#reconnectTimer !== null) {
      this.#timers.clearTimeout(this.#reconnectTimer);
      this.#reconnectTimer = null;
    }
    if (!reconnect || this.#closed || this.#keys.size === 0) {
      if (!this.#closed) this.#state = 'idle';
      return;
    }
    this.#state = 'waiting';
    for (const key of this.#keys) this.#o.onResyncRequired(key, reason);
    const base = this.#o.reconnectDelayMs ?? 1_000;
    const max = this.#o.maxReconnectDelayMs ?? 30_000;
    const delay = Math.min(max, base * 2 ** this.#attempt);
    this.#attempt++;
    this.stats.reconnects++;
    this.#reconnectTimer = this.#timers.setTimeout(() => this.#connect(), delay);
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
