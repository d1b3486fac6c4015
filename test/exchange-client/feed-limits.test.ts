// A hostile or frozen feed server on loopback against the client's SubscriptionSocket / MarketFeed:
// frames over 1 MiB (whole or in fragments), a handshake that never completes, frames that are not
// JSON or have the wrong shape, a consumer that throws, and a server that goes silent. Each is a
// coded error on that feed and a reconnect, never an uncaught exception. The heartbeat runs on
// hand-driven timers, so "not live within 3 s" is measured in the test's time, not the machine's.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  FEED_PONG_TIMEOUT_MS,
  MAX_FEED_FRAME_BYTES,
  MarketFeed,
  SubscriptionSocket,
  type ExchangeError,
  type SubscriptionSocketOptions,
} from '../../src/client';
import { ManualTimers } from '../exchange-service/chaos-kit';
import { startDevnet } from './helpers';

const MiB = 1024 * 1024;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown): void => void uncaught.push(e);

/** What the server does, by the path the client connects to. */
type Behaviour = (ws: WebSocket, key: string) => void;
const behaviours: Record<string, Behaviour> = {
  // A single text frame of 2 MiB right after the ack.
  '/big': (ws) => ws.send('"' + 'a'.repeat(2 * MiB) + '"'),
  // 3 × 512 KiB fragments of one message: each is small, the message is not.
  '/fragmented': (ws) => {
    const part = 'b'.repeat(512 * 1024);
    ws.send(part, { fin: false });
    ws.send(part, { fin: false });
    ws.send(part, { fin: true });
  },
  // Not JSON, JSON that is not an object, and a market update of the wrong shape.
  '/junk': (ws, key) => {
    ws.send('{"type":');
    ws.send('[1,2,3]');
    ws.send(JSON.stringify({ type: 'order', seqId: 'x', data: { assetId: key } }));
  },
  // One well-formed update (the consumer in the test throws on it).
  '/update': (ws, key) =>
    ws.send(
      JSON.stringify({
        type: 'order',
        seqId: 1,
        data: { orderId: '0x' + '11'.repeat(32), assetId: key, epoch: '0', price: '50', side: 'buy', size: '1' },
      }),
    ),
  '/quiet': () => {},
};

let wss: WebSocketServer;
let base: string;
/** While set, the server neither acks nor answers pings: a frozen feed. */
let frozen = false;
const pingsSeen = { n: 0 };
let tarpit: net.Server;
let tarpitUrl: string;
const tarpitSockets = new Set<net.Socket>();

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (ws, req) => {
    const behave = behaviours[req.url ?? '/quiet'] ?? behaviours['/quiet']!;
    ws.on('ping', (d: Buffer) => {
      pingsSeen.n++;
      if (!frozen) ws.pong(d);
    });
    ws.on('message', (d: Buffer) => {
      if (frozen) return;
      const msg = JSON.parse(d.toString()) as { type: string; assetId: string };
      if (msg.type !== 'subscribe') return;
      ws.send(JSON.stringify({ type: 'subscribed', assetId: msg.assetId }));
      behave(ws, msg.assetId);
    });
    ws.on('error', () => {});
  });
  base = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  // Accepts TCP connections and never answers the HTTP upgrade.
  tarpit = net.createServer((s) => {
    tarpitSockets.add(s);
    s.resume(); // read (and ignore) the upgrade request, so the client's hang-up is seen
    s.on('close', () => tarpitSockets.delete(s));
    s.on('error', () => {});
  });
  await new Promise<void>((r) => tarpit.listen(0, '127.0.0.1', r));
  tarpitUrl = `ws://127.0.0.1:${(tarpit.address() as AddressInfo).port}/`;
});

afterEach(() => {
  frozen = false;
  expect(uncaught).toEqual([]);
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((r) => wss.close(() => r()));
  for (const s of tarpitSockets) s.destroy();
  await new Promise<void>((r) => tarpit.close(() => r()));
});

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 1500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`gave up waiting for ${what}`);
};

/** A socket on `path` with a record of its errors and resyncs; heartbeat on hand-driven timers. */
function socketOn(path: string, extra: Partial<SubscriptionSocketOptions> = {}) {
  const errors: ExchangeError[] = [];
  const resyncs: string[] = [];
  const heard = { n: 0 };
  const timers = new ManualTimers();
  const socket = new SubscriptionSocket({
    url: base + path,
    keyField: 'assetId',
    timers,
    onMessage: () => {},
    onResyncRequired: (_key, reason) => resyncs.push(reason),
    onError: (e) => errors.push(e),
    onActivity: () => heard.n++,
    ...extra,
  });
  return { socket, errors, resyncs, timers, heard };
}

describe('feed frames are bounded', () => {
  it('drops a socket that sends a frame over 1 MiB, with FEED_FRAME_TOO_LARGE, and reconnects', async () => {
    expect(MAX_FEED_FRAME_BYTES).toBe(MiB);
    const { socket, errors, resyncs, timers } = socketOn('/big');
    void socket.subscribe('7').catch(() => {});
    await until(() => errors.length > 0 && socket.state === 'waiting', 'the oversized frame to be refused');
    expect(errors[0]).toMatchObject({
      code: 'FEED_FRAME_TOO_LARGE',
      sentence: 'The feed sent a frame larger than 1 MiB; the connection was dropped.',
    });
    expect(resyncs).toEqual(['The feed sent a frame larger than 1 MiB; the connection was dropped.']);
    expect(socket.dropReason).toBe(errors[0]!.sentence);
    // It comes back by itself (and is refused again: the server is still hostile).
    timers.advance(1_000);
    await until(() => socket.stats.opens === 2, 'the reconnect');
    socket.close();
  });

  it('counts fragments towards the limit', async () => {
    const { socket, errors } = socketOn('/fragmented');
    void socket.subscribe('7').catch(() => {});
    await until(() => errors.length > 0, 'the fragmented message to be refused');
    expect(errors[0]!.code).toBe('FEED_FRAME_TOO_LARGE');
    socket.close();
  });

  it('gives up on a handshake that never completes with FEED_HANDSHAKE_TIMEOUT', async () => {
    const errors: ExchangeError[] = [];
    const socket = new SubscriptionSocket({
      url: tarpitUrl,
      keyField: 'assetId',
      handshakeTimeoutMs: 100,
      timers: new ManualTimers(),
      onMessage: () => {},
      onResyncRequired: () => {},
      onError: (e) => errors.push(e),
    });
    void socket.subscribe('7').catch(() => {});
    await until(() => errors.length > 0 && socket.state === 'waiting', 'the handshake timeout');
    expect(errors[0]).toMatchObject({
      code: 'FEED_HANDSHAKE_TIMEOUT',
      sentence: 'The feed did not complete its opening handshake within 0.1 s.',
    });
    expect(socket.isLive()).toBe(false);
    socket.close();
    await until(() => tarpitSockets.size === 0, 'the tarpit connection to close');
  });
});

describe('feed decoding is guarded', () => {
  it('reports frames that are not JSON objects, and sends a wrong-shaped update to the book as invalid', async () => {
    const errors: ExchangeError[] = [];
    const invalid: string[] = [];
    const feed = new MarketFeed({ url: `${base}/junk`, timers: new ManualTimers(), onError: (e) => errors.push(e) });
    const sub = feed.subscribe(7n, { onUpdate: () => {}, onInvalid: (r) => invalid.push(r) });
    await sub.ready;
    await until(() => errors.length >= 2 && invalid.length >= 1, 'the junk to be reported');
    expect(errors.map((e) => e.code)).toEqual(['FEED_BAD_FRAME', 'FEED_BAD_FRAME']);
    expect(invalid[0]).toMatch(/^invalid order event at seqId/);
    expect(feed.socket.state).toBe('open');
    feed.close();
  });

  it('turns a consumer that throws into FEED_BAD_MESSAGE and a resync, not an uncaught exception', async () => {
    const errors: ExchangeError[] = [];
    const resyncs: string[] = [];
    const feed = new MarketFeed({ url: `${base}/update`, timers: new ManualTimers(), onError: (e) => errors.push(e) });
    feed.subscribe(7n, {
      onUpdate: () => {
        throw new Error('consumer bug');
      },
      onResyncRequired: (r) => resyncs.push(r),
    });
    await until(() => errors.length > 0 && resyncs.length > 0, 'the failure to be contained');
    expect(errors[0]).toMatchObject({
      code: 'FEED_BAD_MESSAGE',
      sentence: 'A feed message could not be handled (consumer bug); resyncing.',
    });
    expect(resyncs[0]).toBe('a feed message could not be handled');
    feed.close();
  });
});

describe('heartbeat: a silent feed cannot pass for a live one', () => {
  it('pings every second and stays live while the server answers', async () => {
    const { socket, errors, timers, heard } = socketOn('/quiet');
    await socket.subscribe('7');
    expect(socket.isLive()).toBe(true);
    for (let i = 0; i < 5; i++) {
      const before = heard.n;
      timers.advance(1_000);
      // The pong travels over a real socket: wait for it before the test's clock moves on.
      await until(() => heard.n > before, 'the pong');
    }
    timers.advance(FEED_PONG_TIMEOUT_MS);
    expect(socket.stats.pings).toBeGreaterThanOrEqual(5);
    expect(socket.stats.silences).toBe(0);
    expect(socket.isLive()).toBe(true);
    expect(errors).toEqual([]);
    socket.close();
  });

  it('leaves live within 3 s of the last frame when the server freezes, then recovers and resyncs when it thaws', async () => {
    const { socket, errors, resyncs, timers } = socketOn('/quiet');
    // The ack answers the ping sent on open.
    await socket.subscribe('7');
    timers.advance(999);
    expect(socket.isLive()).toBe(true);
    frozen = true;
    // Whatever the phase of the ping cycle, 3 s of silence is enough.
    timers.advance(3_000 - 999);
    expect(socket.isLive()).toBe(false);
    expect(socket.state).toBe('waiting');
    expect(socket.stats.silences).toBe(1);
    expect(errors.map((e) => e.code)).toEqual(['FEED_SILENT']);
    expect(resyncs).toEqual([`the feed went silent (no answer to a ping within ${FEED_PONG_TIMEOUT_MS / 1000} s)`]);
    // Still frozen: the reconnect opens (the proxy accepts) but nothing is acknowledged, so not live.
    timers.advance(1_000);
    await until(() => socket.state === 'open', 'the reconnect');
    expect(socket.isLive()).toBe(false);
    timers.advance(3_000);
    expect(socket.stats.silences).toBe(2);
    // Thawed: the next reconnect subscribes again and is live.
    frozen = false;
    timers.advance(1_000);
    await until(() => socket.isLive(), 'the feed to be live again');
    expect(socket.isAcked('7')).toBe(true);
    socket.close();
  });

  it('is off with pingIntervalMs 0 (and then never pings)', async () => {
    const { socket, timers } = socketOn('/quiet', { pingIntervalMs: 0 });
    await socket.subscribe('7');
    frozen = true;
    timers.advance(60_000);
    expect(socket.stats.pings).toBe(0);
    expect(socket.isLive()).toBe(true);
    socket.close();
  });
});

describe('the devnet answers the heartbeat', () => {
  it('pongs every ping on both feeds, even with its own pings and prices off', async () => {
    const devnet = await startDevnet(); // pingIntervalMs 0, no oracle publishing: only pongs flow
    try {
      for (const [url, keyField, key] of [
        [devnet.svc.marketWsUrl, 'assetId', devnet.assetId.toString()],
        [devnet.svc.oracleWsUrl, 'symbolId', '1'],
      ] as const) {
        const timers = new ManualTimers();
        const heard = { n: 0 };
        const socket = new SubscriptionSocket({
          url,
          keyField,
          timers,
          onMessage: () => {},
          onResyncRequired: () => {},
          onActivity: () => heard.n++,
        });
        await socket.subscribe(key);
        for (let i = 0; i < 4; i++) {
          const before = heard.n;
          timers.advance(1_000);
          await until(() => heard.n > before, `a pong from ${keyField}`);
        }
        timers.advance(FEED_PONG_TIMEOUT_MS);
        expect(socket.stats.silences, keyField).toBe(0);
        expect(socket.isLive(), keyField).toBe(true);
        socket.close();
      }
    } finally {
      await devnet.svc.stop();
    }
  });
});
