// One WebSocket carrying many subscriptions (§7): explicit subscribe/unsubscribe with acks and
// timeouts, reconnect with backoff (reset on open), resubscribe after reconnect, and every event of
// an abandoned socket ignored. Protocol pings are answered by `ws` itself; we only note them.
import WebSocket from 'ws';
import { ExchangeError } from '../errors';
import { realTimers, type Timers } from '../intents';

export interface SubscriptionSocketOptions {
  url: string;
  /** "assetId" for the market feed, "symbolId" for the oracle feed. */
  keyField: 'assetId' | 'symbolId';
  ackTimeoutMs?: number;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  timers?: Timers;
  /** Every non-control message, with the key it belongs to (if it names one). */
  onMessage(msg: Record<string, unknown>): void;
  /** The subscription may have missed messages: consumers reload state (§7.1). */
  onResyncRequired(key: string): void;
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
  readonly stats = { opens: 0, reconnects: 0, ackTimeouts: 0 };

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

  /** Remove a subscription. If its ack times out the socket is replaced (§7.1). */
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
        this.#abandon(this.#keys.size > 0);
        return;
      }
    }
    if (this.#keys.size === 0) this.#abandon(false);
  }

  /** Replace the socket now (e.g. the oracle went stale): every subscription resyncs. */
  restart(): void {
    if (!this.#closed) this.#abandon(true);
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
    for (const w of list ?? []) if (err) w.reject(err);
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
        const err = new ExchangeError('FEED_ACK_TIMEOUT', `The feed did not acknowledge ${cmd} ${key} within ${ackMs / 1000} s.`);
        this.#settle(id, err);
        this.#o.onError?.(err);
        // A subscribe without an ack: the socket is suspect; replace it and resubscribe.
        if (cmd === 'subscribe') this.#abandon(true);
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
    const ws = new WebSocket(this.#o.url);
    this.#ws = ws;
    const mine = () => this.#ws === ws;
    ws.on('open', () => {
      if (!mine()) return;
      this.#attempt = 0;
      this.stats.opens++;
      this.#state = 'open';
      for (const key of this.#keys) this.#send('subscribe', key);
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (!mine()) return;
      this.#o.onActivity?.();
      let msg: unknown;
      try {
        msg = JSON.parse(rawText(data));
      } catch {
        this.#o.onError?.(new ExchangeError('FEED_BAD_FRAME', 'The feed sent a frame that is not JSON.'));
        return;
      }
      if (typeof msg === 'object' && msg !== null && !Array.isArray(msg)) this.#handle(msg as Record<string, unknown>);
    });
    ws.on('ping', () => {
      if (mine()) this.#o.onActivity?.();
    });
    ws.on('error', () => {
      // 'close' follows; the error itself carries nothing a trader can act on.
    });
    ws.on('close', () => {
      if (mine()) this.#abandon(true);
    });
  }

  #handle(msg: Record<string, unknown>): void {
    const type = msg['type'];
    const key = msg[this.#o.keyField];
    if (type === 'subscribed' || type === 'unsubscribed') {
      // Acks must carry string ids (§7.1, §11).
      if (typeof key !== 'string') {
        this.#o.onError?.(new ExchangeError('FEED_BAD_ACK', `The feed acknowledged with a non-string ${this.#o.keyField}.`));
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
        this.#o.onError?.(new ExchangeError('FEED_DROPPED', `The feed stopped ${this.#o.keyField} ${key}: ${msg['reason']}.`));
      }
      return;
    }
    if (type === 'connected') return;
    if (type === 'error') {
      const text = typeof msg['message'] === 'string' ? msg['message'] : 'unknown error';
      this.#o.onError?.(new ExchangeError('FEED_ERROR', `The feed reported: ${text}`));
      return;
    }
    this.#o.onMessage(msg);
  }

  /** Drop the current socket; resync every subscription and reconnect when asked. */
  #abandon(reconnect: boolean): void {
    const ws = this.#ws;
    this.#ws = null;
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
    for (const key of this.#keys) this.#o.onResyncRequired(key);
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
