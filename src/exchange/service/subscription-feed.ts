// One WebSocket endpoint with subscribe/unsubscribe by a decimal key
// (docs/protocol/feeds.md#one-socket-many-subscriptions): connected on open, string acks, an error message for unknown
// keys, protocol-level pings that terminate sockets which stop answering, and a cap on a slow client's send buffer.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

const DECIMAL_RE = /^(0|[1-9][0-9]{0,77})$/;
/** A client whose unsent data exceeds this is too slow to follow the feed and is dropped. */
const MAX_BUFFERED = 8 * 1024 * 1024;

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
}

export interface SubscriptionFeedOptions {
  /** 'assetId' (market feed) or 'symbolId' (oracle feed). */
  keyName: 'assetId' | 'symbolId';
  /** "AssetId" / "SymbolId", for error sentences. */
  label: string;
  isAvailable(key: string): boolean;
  pingIntervalMs: number;
  /** Called after a subscribe ack (e.g. to send the current price). */
  onSubscribed?(ws: WebSocket, key: string): void;
}

interface Client {
  alive: boolean;
  keys: Set<string>;
}

export class SubscriptionFeed {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly clients = new Map<WebSocket, Client>();
  private readonly byKey = new Map<string, Set<WebSocket>>();
  private readonly pinger: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: SubscriptionFeedOptions) {
    this.wss.on('connection', (ws) => this.onConnection(ws));
    if (opts.pingIntervalMs > 0) {
      this.pinger = setInterval(() => this.heartbeat(), opts.pingIntervalMs);
      this.pinger.unref();
    }
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  /** Keys that have at least one subscriber. */
  activeKeys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  hasSubscribers(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Sends an already serialised message to every subscriber of `key`. */
  sendToKey(key: string, text: string): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    for (const ws of set) this.send(ws, text);
  }

  send(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      ws.terminate();
      return;
    }
    ws.send(text);
  }

  private reply(ws: WebSocket, msg: Record<string, unknown>): void {
    this.send(ws, JSON.stringify(msg));
  }

  private onConnection(ws: WebSocket): void {
    const client: Client = { alive: true, keys: new Set() };
    this.clients.set(ws, client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data, isBinary) => this.onMessage(ws, client, isBinary ? null : rawText(data)));
    ws.on('close', () => this.drop(ws, client));
    ws.on('error', () => ws.terminate());
    this.reply(ws, {
      type: 'connected',
      message: `Connected. Send {"type":"subscribe","${this.opts.keyName}":"<decimal>"}.`,
    });
  }

  private onMessage(ws: WebSocket, client: Client, text: string | null): void {
    const key = this.opts.keyName;
    let msg: unknown;
    try {
      msg = text === null ? null : JSON.parse(text);
    } catch {
      msg = null;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      this.reply(ws, { type: 'error', message: 'Messages must be JSON objects such as {"type":"subscribe",…}.' });
      return;
    }
    const m = msg as Record<string, unknown>;
    if (m['type'] !== 'subscribe' && m['type'] !== 'unsubscribe') {
      this.reply(ws, {
        type: 'error',
        message: `Unknown message type ${JSON.stringify(m['type'])}; use "subscribe" or "unsubscribe".`,
      });
      return;
    }
    const value = m[key];
    if (typeof value !== 'string' || !DECIMAL_RE.test(value)) {
      this.reply(ws, { type: 'error', message: `"${key}" must be a decimal string.` });
      return;
    }
    if (m['type'] === 'unsubscribe') {
      client.keys.delete(value);
      this.removeFromKey(ws, value);
      this.reply(ws, { type: 'unsubscribed', [key]: value });
      return;
    }
    if (!this.opts.isAvailable(value)) {
      this.reply(ws, { type: 'error', message: `${this.opts.label} ${value} is not available` });
      return;
    }
    client.keys.add(value);
    let set = this.byKey.get(value);
    if (set === undefined) {
      set = new Set();
      this.byKey.set(value, set);
    }
    set.add(ws);
    this.reply(ws, { type: 'subscribed', [key]: value });
    this.opts.onSubscribed?.(ws, value);
  }

  private removeFromKey(ws: WebSocket, key: string): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    set.delete(ws);
    if (set.size === 0) this.byKey.delete(key);
  }

  private drop(ws: WebSocket, client: Client): void {
    for (const k of client.keys) this.removeFromKey(ws, k);
    this.clients.delete(ws);
  }

  private heartbeat(): void {
    for (const [ws, c] of this.clients) {
      if (!c.alive) {
        ws.terminate();
        continue;
      }
      c.alive = false;
      ws.ping();
    }
  }

  async close(): Promise<void> {
    if (this.pinger !== undefined) clearInterval(this.pinger);
    for (const ws of this.clients.keys()) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
