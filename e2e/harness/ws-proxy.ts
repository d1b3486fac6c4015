/**
 * A WebSocket proxy on loopback between the core and one of the devnet's feeds, which a test can cut
 * or freeze: `cut(refuseMs)` drops every open connection and, for refuseMs, drops each reconnect as
 * soon as it opens; `restore()` ends the refusal early. `freeze()` keeps every socket open (and
 * accepts new ones) but forwards no frame either way and answers no ping, the failure a stuck
 * middlebox or server produces; `thaw()` lets frames and pongs through again. Frames pass both ways
 * untouched otherwise. (Also used by test/exchange-client/feed-chaos.test.ts.)
 */
import WebSocket, { WebSocketServer } from 'ws';

export interface WsProxy {
  readonly url: string;
  readonly stats: {
    connections: number;
    refused: number;
    cuts: number;
    freezes: number;
    swallowed: number;
    pingsUnanswered: number;
  };
  cut(refuseMs?: number): void;
  restore(): void;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startWsProxy(upstream: string): Promise<WsProxy> {
  // Pings are answered by hand, so a frozen proxy can leave them unanswered.
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', () => resolve());
    wss.once('error', reject);
  });
  const stats = { connections: 0, refused: 0, cuts: 0, freezes: 0, swallowed: 0, pingsUnanswered: 0 };
  const pairs = new Set<[WebSocket, WebSocket]>();
  let refuseUntil = 0;
  let frozen = false;
  /** Whether a frame may pass; counts the ones a freeze swallows. */
  const pass = (): boolean => {
    if (frozen) stats.swallowed++;
    return !frozen;
  };
  wss.on('connection', (client, request) => {
    if (Date.now() < refuseUntil) {
      stats.refused++;
      client.terminate();
      return;
    }
    stats.connections++;
    const up = new WebSocket(upstream + (request.url && request.url !== '/' ? request.url.replace(/^\//, '') : ''));
    const pair: [WebSocket, WebSocket] = [client, up];
    pairs.add(pair);
    const early: string[] = [];
    client.on('message', (d: Buffer) => {
      if (!pass()) return;
      if (up.readyState === WebSocket.OPEN) up.send(d.toString());
      else early.push(d.toString());
    });
    client.on('ping', (d: Buffer) => {
      if (frozen) stats.pingsUnanswered++;
      else client.pong(d);
    });
    up.on('open', () => early.splice(0).forEach((m) => up.send(m)));
    up.on('message', (d: Buffer) => {
      if (pass() && client.readyState === WebSocket.OPEN) client.send(d.toString());
    });
    const end = () => {
      pairs.delete(pair);
      client.terminate();
      up.terminate();
    };
    client.on('close', end);
    up.on('close', end);
    client.on('error', end);
    up.on('error', end);
  });
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/`,
    stats,
    cut(refuseMs = 0) {
      stats.cuts++;
      refuseUntil = Date.now() + refuseMs;
      for (const [client, up] of [...pairs]) {
        client.terminate();
        up.terminate();
      }
      pairs.clear();
    },
    restore() {
      refuseUntil = 0;
    },
    freeze() {
      stats.freezes++;
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    async close() {
      for (const [client, up] of [...pairs]) {
        client.terminate();
        up.terminate();
      }
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
