// BookSync through a chaos proxy (cuts, delays, reorders and drops market frames): it ends equal to
// the REST snapshot, and every moment it reported `live` its book equals the true book at its seqId.
// Then through a freezing proxy (socket open, no frames, no pongs): the book leaves `live` within 3 s
// of the heartbeat's clock, with the reason, and resyncs by itself when the proxy thaws.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { MarketFeed, parseMarketUpdate, type ExchangeClient, type MarketUpdate } from '../../src/client';
import { BookStore, BookSync, sameView, snapshotView, type BookLevels } from '../../src/client';
import { DigestSigner } from '../../src/shared/protocol';
import { KEYS, startDevnet, type Devnet } from './helpers';
import { seededRandom as prng } from '../../src/exchange/prng';
import { startWsProxy } from '../../e2e/harness/ws-proxy';
import { ManualTimers } from '../exchange-service/chaos-kit';

interface Chaos {
  url: string;
  stats: { dropped: number; delayed: number; reordered: number; cuts: number; forwarded: number };
  calm(): void;
  close(): Promise<void>;
}

/** A WebSocket proxy on loopback that mistreats server → client market frames (acks pass intact). */
async function startChaosProxy(upstream: string, seed: number): Promise<Chaos> {
  const rnd = prng(seed);
  const stats = { dropped: 0, delayed: 0, reordered: 0, cuts: 0, forwarded: 0 };
  let calm = false;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const sockets = new Set<WebSocket>();
  wss.on('connection', (client) => {
    const up = new WebSocket(upstream);
    sockets.add(client).add(up);
    const early: string[] = [];
    let held: string | null = null;
    client.on('message', (d: Buffer) =>
      up.readyState === WebSocket.OPEN ? up.send(d.toString()) : early.push(d.toString()),
    );
    up.on('open', () => early.splice(0).forEach((m) => up.send(m)));
    const deliver = (m: string) => {
      if (client.readyState === WebSocket.OPEN) {
        client.send(m);
        stats.forwarded++;
      }
    };
    up.on('message', (d: Buffer) => {
      const m = d.toString();
      const isUpdate = /"seqId"/.test(m);
      if (calm || !isUpdate) {
        if (held !== null) {
          deliver(held);
          held = null;
        }
        deliver(m);
        return;
      }
      const r = rnd();
      if (r < 0.03) {
        stats.cuts++;
        client.terminate();
        up.terminate();
      } else if (r < 0.1) {
        stats.dropped++;
      } else if (r < 0.2) {
        stats.delayed++;
        setTimeout(() => deliver(m), Math.floor(rnd() * 40));
      } else if (r < 0.3 && held === null) {
        stats.reordered++;
        held = m; // released after the next frame
      } else {
        deliver(m);
        if (held !== null) {
          deliver(held);
          held = null;
        }
      }
    });
    const closeBoth = () => {
      client.terminate();
      up.terminate();
    };
    client.on('close', closeBoth);
    up.on('close', closeBoth);
    client.on('error', () => {});
    up.on('error', () => {});
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    stats,
    calm: () => {
      calm = true;
    },
    close: async () => {
      for (const s of sockets) s.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

let net: Devnet;
let chaos: Chaos;
let alice: ExchangeClient;
let bob: ExchangeClient;

beforeAll(async () => {
  net = await startDevnet();
  for (const k of [KEYS.master, KEYS.taker]) await net.svc.credit(new DigestSigner(k).address, 100_000_000_000n);
  alice = net.client(KEYS.master);
  bob = net.client(KEYS.taker);
  chaos = await startChaosProxy(net.svc.marketWsUrl, 20261122);
});

afterAll(async () => {
  alice?.http.close();
  bob?.http.close();
  await chaos?.close();
  await net?.svc.stop();
});

let dbg: () => unknown = () => '';
const until = async (cond: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 800; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}: ${String(dbg())}`);
};

describe('BookSync under chaos', () => {
  it('is never live while wrong and ends equal to the REST book', { timeout: 120_000 }, async () => {
    const assetId = net.assetId;
    // Reference: every update straight from the service, in order.
    const truthLog: MarketUpdate[] = [];
    const direct = new WebSocket(net.svc.marketWsUrl);
    direct.on('message', (d: Buffer) => {
      const msg = JSON.parse(d.toString()) as unknown;
      const p = parseMarketUpdate(msg);
      if ('update' in p && p.update.assetId === assetId) truthLog.push(p.update);
    });
    await new Promise<void>((r) => direct.once('open', () => r()));
    direct.send(JSON.stringify({ type: 'subscribe', assetId: assetId.toString() }));
    await until(() => truthLog.length >= 0 && direct.readyState === WebSocket.OPEN, 'direct socket');
    const s0 = await alice.getOrderBook(assetId, 0n, { depth: 5000 });
    expect(s0.bids.length + s0.asks.length).toBe(0);

    const feed = new MarketFeed({
      url: chaos.url,
      ackTimeoutMs: 500,
      reconnectDelayMs: 20,
      maxReconnectDelayMs: 200,
      onError: () => {},
    });
    const liveSamples: { seqId: bigint; view: BookLevels }[] = [];
    let changes = 0;
    const sync = new BookSync({
      assetId,
      epoch: 0n,
      reader: alice,
      feed,
      resyncDelayMs: 20,
      onChange: (s) => {
        changes++;
        if (s.health().state === 'live') liveSamples.push({ seqId: s.store.seqId, view: s.store.view() });
      },
    });
    dbg = () =>
      JSON.stringify(
        { h: sync.health(), sock: feed.socket.state, st: feed.socket.stats, keys: [...feed.socket.keys] },
        (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
      );
    // Subscribe the direct socket first so the reference sees everything the book sees.
    await sync.start();

    const rnd = prng(7);
    const mine: { client: ExchangeClient; hash: `0x${string}` }[] = [];
    for (let i = 0; i < 120; i++) {
      const r = rnd();
      if (r < 0.25 && mine.length > 0) {
        const [o] = mine.splice(Math.floor(rnd() * mine.length), 1);
        await o!.client.cancelOrder({ assetId, epoch: 0n, orderHash: o!.hash });
      } else {
        const client = rnd() < 0.5 ? alice : bob;
        const sell = rnd() < 0.5;
        // Around the middle so some orders cross and trade.
        const cents = 45 + Math.floor(rnd() * 11) + (sell ? 0 : 1);
        const out = await client.placeOrder({
          assetId,
          epoch: 0n,
          side: sell ? 'sell' : 'buy',
          price: String(cents),
          size: String(1 + Math.floor(rnd() * 4)),
        });
        mine.push({ client, hash: out.orderHash });
      }
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 15));
    }

    // Let the proxy behave so the book can settle, then wait for live at the REST seqId.
    chaos.calm();
    const rest = await alice.getOrderBook(assetId, 0n, { depth: 5000 });
    await alice.placeOrder({ assetId, epoch: 0n, side: 'buy', price: '1', size: '1' }); // one more update after calm
    const final = await alice.getOrderBook(assetId, 0n, { depth: 5000 });
    expect(final.seqId).toBeGreaterThan(rest.seqId);
    await until(() => sync.health().state === 'live' && sync.store.seqId === final.seqId, 'the book to catch up');
    expect(sameView(sync.store.view(), snapshotView(final))).toBe(true);
    expect(sync.store.view().bids.length + sync.store.view().asks.length).toBeGreaterThan(0);

    // Every live moment matches the true book at that seqId (rebuilt from the direct stream).
    await until(() => truthLog.at(-1)?.seqId === final.seqId, 'the reference stream');
    const ref = new BookStore(assetId, 0n);
    ref.seqId = s0.seqId;
    const truthAt = new Map<bigint, BookLevels>([[s0.seqId, ref.view()]]);
    for (const u of truthLog.filter((x) => x.epoch === 0n && x.seqId > s0.seqId)) {
      expect(u.seqId).toBe(ref.seqId + 1n);
      expect(ref.apply(u)).toBe(true);
      ref.seqId = u.seqId;
      truthAt.set(u.seqId, ref.view());
    }
    expect(liveSamples.length).toBeGreaterThan(10);
    for (const s of liveSamples) {
      const truth = truthAt.get(s.seqId);
      expect(truth, `seqId ${s.seqId}`).toBeDefined();
      expect(sameView(s.view, truth!), `live book at seqId ${s.seqId}`).toBe(true);
    }
    // The chaos really happened and was survived by resyncing.
    expect(chaos.stats.dropped + chaos.stats.reordered).toBeGreaterThan(0);
    expect(chaos.stats.cuts).toBeGreaterThan(0);
    expect(sync.health().resyncs).toBeGreaterThan(1);
    expect(changes).toBeGreaterThan(liveSamples.length - 1);

    // Staleness: no update or ping for longer than the threshold.
    const clockAhead = { t: Date.now() + 60_000 };
    const lazy = new BookSync({
      assetId,
      epoch: 0n,
      reader: alice,
      feed,
      staleAfterMs: 45_000,
      now: () => clockAhead.t,
    });
    await lazy.start();
    expect(lazy.health().state).toBe('live');
    clockAhead.t += 46_000;
    expect(lazy.health()).toMatchObject({ state: 'stale' });
    lazy.stop();

    sync.stop();
    feed.close();
    direct.terminate();
  });
});

describe('BookSync through a freezing proxy', () => {
  it(
    'leaves live within 3 s of a freeze with the reason, is never live while frozen, and resyncs on thaw',
    { timeout: 60_000 },
    async () => {
      const assetId = net.assetId;
      const proxy = await startWsProxy(net.svc.marketWsUrl);
      // The heartbeat runs on the test's clock; the REST snapshot and the sockets are real.
      const timers = new ManualTimers();
      const errors: string[] = [];
      const feed = new MarketFeed({
        url: proxy.url,
        timers,
        reconnectDelayMs: 1_000,
        onError: (e) => errors.push(e.code),
      });
      const sync = new BookSync({ assetId, epoch: 0n, reader: alice, feed, resyncDelayMs: 20 });
      dbg = () =>
        JSON.stringify(
          { h: sync.health(), sock: feed.socket.state, st: feed.socket.stats, px: proxy.stats },
          (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
        );
      await sync.start();
      await until(() => sync.health().state === 'live', 'the book to go live');
      await alice.placeOrder({ assetId, epoch: 0n, side: 'buy', price: '3', size: '2' });
      const before = await alice.getOrderBook(assetId, 0n, { depth: 5000 });
      await until(() => sync.store.seqId === before.seqId, 'the update before the freeze');
      expect(sync.health().state).toBe('live');

      proxy.freeze();
      timers.advance(3_000);
      const frozen = sync.health();
      expect(frozen.state).not.toBe('live');
      expect(frozen.reason).toBe('market feed reconnecting: the feed went silent (no answer to a ping within 1.5 s)');
      expect(errors).toContain('FEED_SILENT');

      // Trading goes on while the proxy swallows it; a reconnect opens through the frozen proxy but
      // is never acknowledged, so the book cannot go live on a snapshot alone.
      await bob.placeOrder({ assetId, epoch: 0n, side: 'sell', price: '97', size: '1' });
      timers.advance(1_000);
      await until(() => feed.socket.state === 'open', 'the reconnect through the frozen proxy');
      await new Promise((r) => setTimeout(r, 100));
      expect(sync.health().state).not.toBe('live');
      expect(feed.socket.isLive()).toBe(false);
      await until(() => proxy.stats.pingsUnanswered > 0, 'the proxy to swallow a ping');

      proxy.thaw();
      const after = await alice.getOrderBook(assetId, 0n, { depth: 5000 });
      expect(after.seqId).toBeGreaterThan(before.seqId);
      for (let i = 0; i < 200 && !(sync.health().state === 'live' && sync.store.seqId >= after.seqId); i++) {
        timers.advance(500);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(sync.health().state, String(dbg())).toBe('live');
      expect(sync.store.seqId).toBe(after.seqId);
      expect(sameView(sync.store.view(), snapshotView(after))).toBe(true);
      expect(feed.socket.stats.silences).toBeGreaterThan(0);
      expect(proxy.stats.swallowed).toBeGreaterThan(0);
      sync.stop();
      feed.close();
      await proxy.close();
    },
  );
});
