/**
 * A WebSocket proxy on loopback between the core and one of the devnet's feeds, which a test can cut:
 * `cut(refuseMs)` drops every open connection and, for refuseMs, drops each reconnect as soon as it
 * opens; `restore()` ends the refusal early. Frames pass both ways untouched otherwise.
 * (The minimal part of test/exchange-client/feed-chaos.test.ts's chaos proxy.)
 */
import WebSocket, { WebSocketServer } from 'ws';

export interface WsProxy {
  readonly url: string;
  readonly stats: { connections: number; refused: number; cuts: number };
  cut(refuseMs?: number): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startWsProxy(upstream: string): Promise<WsProxy> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', () => resolve());
    wss.once('error', reject);
  });
  const stats = { connections: 0, refused: 0, cuts: 0 };
  const pairs = new Set<[WebSocket, WebSocket]>();
  let refuseUntil = 0;
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
    client.on('message', (d: Buffer) => (up.readyState === WebSocket.OPEN ? up.send(d.toString()) : early.push(d.toString())));
    up.on('open', () => early.splice(0).forEach((m) => up.send(m)));
    up.on('message', (d: Buffer) => client.readyState === WebSocket.OPEN && client.send(d.toString()));
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
