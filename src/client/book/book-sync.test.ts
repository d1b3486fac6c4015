// BookSync's first snapshot, requested together with the subscription: updates arriving before,
// during and after it, and the ack before or after it. A fake feed and reader let each test order
// the ack, the snapshot's answer and the updates exactly.
import { describe, expect, it } from 'vitest';
import type { MarketFeed, MarketHandler, MarketUpdate } from '../feeds/market-feed';
import type { OrderBook } from '../http/schemas';
import { BookSync } from './book-sync';

const ASSET = 7n;
const EPOCH = 3n;
const KEY = ASSET.toString();

function orderId(n: number): `0x${string}` {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

/** A resting bid of size 1 at 10¢ + n ticks. */
function order(seqId: bigint, n: number): MarketUpdate {
  const price = 100_000n + BigInt(n) * 1_000n;
  return {
    type: 'order',
    seqId,
    assetId: ASSET,
    epoch: EPOCH,
    data: { orderId: orderId(n), assetId: ASSET, epoch: EPOCH, price, side: false, size: 1n },
  };
}

/** The book after orders 1..n (order k has seqId k). */
function snapshot(n: number): OrderBook {
  const bids = [];
  for (let k = n; k >= 1; k--) {
    const price = 100_000n + BigInt(k) * 1_000n;
    bids.push({ price, size: 1n, orderCount: 1, orders: [{ id: orderId(k), size: 1n, price }] });
  }
  return { assetId: ASSET, epoch: EPOCH, ts: 0, seqId: BigInt(n), bids, asks: [] };
}

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A feed whose ack the test sends, and a reader whose snapshots the test answers, one by one. */
function rig() {
  let handler: MarketHandler | null = null;
  const ack = deferred<void>();
  let acked = false;
  const feed = {
    socket: { state: 'open', isAcked: (key: string) => key === KEY && acked },
    lastActivityAt: 0,
    subscribe(_asset: bigint, h: MarketHandler) {
      handler = h;
      return { ready: ack.promise, unsubscribe: () => Promise.resolve() };
    },
  } as unknown as MarketFeed;
  const requests: { resolve(b: OrderBook): void }[] = [];
  const reader = {
    getOrderBook: () => {
      const d = deferred<OrderBook>();
      requests.push(d);
      return d.promise;
    },
  };
  const sync = new BookSync({ assetId: ASSET, epoch: EPOCH, reader, feed, resyncDelayMs: 10_000 });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    sync,
    requests,
    send: (u: MarketUpdate) => handler!.onUpdate(u),
    ack: async () => {
      acked = true;
      ack.resolve();
      await flush();
    },
    answer: async (i: number, book: OrderBook) => {
      requests[i]!.resolve(book);
      await flush();
    },
    flush,
  };
}

describe('BookSync first snapshot, requested with the subscription', () => {
  it('asks for the snapshot before the ack arrives', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    expect(r.requests).toHaveLength(1);
    await r.ack();
    r.send(order(5n, 5));
    await r.answer(0, snapshot(4));
    await started;
    expect(r.sync.health().state).toBe('live');
    r.sync.stop();
  });

  it('joins updates from before, during and after the snapshot, applying only those after its seqId', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    r.send(order(3n, 3)); // received before the snapshot's answer, covered by it
    await r.ack();
    r.send(order(4n, 4)); // covered too
    r.send(order(5n, 5)); // after it: buffered, then replayed
    await r.answer(0, snapshot(4));
    await started;
    expect(r.sync.health().state).toBe('live');
    r.send(order(6n, 6)); // after the snapshot is in: applied as it comes
    expect(r.sync.store.seqId).toBe(6n);
    expect(r.sync.store.orderCount).toBe(6);
    expect(r.sync.counters.updatesApplied).toBe(2);
    expect(r.requests).toHaveLength(1);
    r.sync.stop();
  });

  it('holds a snapshot answered before the ack until the ack and a joining update are in', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    await r.answer(0, snapshot(4));
    expect(r.sync.health().state).toBe('resyncing');
    r.send(order(5n, 5)); // joins the snapshot, but the subscription is not acknowledged yet
    expect(r.sync.health().state).toBe('resyncing');
    await r.ack();
    await started;
    expect(r.sync.health().state).toBe('live');
    expect(r.sync.store.seqId).toBe(5n);
    expect(r.requests).toHaveLength(1);
    r.sync.stop();
  });

  it('takes a late update the snapshot already covers as proof that the subscription was in time', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    await r.answer(0, snapshot(4));
    r.send(order(4n, 4)); // published before the snapshot, delivered after its answer: nothing is missing
    await r.ack();
    await started;
    expect(r.sync.health().state).toBe('live');
    expect(r.sync.store.seqId).toBe(4n);
    expect(r.requests).toHaveLength(1);
    r.sync.stop();
  });

  it('reloads after the ack when the early snapshot missed updates (the subscription started after it)', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    await r.answer(0, snapshot(4));
    r.send(order(6n, 6)); // 5 was published before the subscription took effect
    await r.ack();
    expect(r.sync.health().state).not.toBe('live');
    expect(r.requests).toHaveLength(2);
    await r.answer(1, snapshot(6));
    await started;
    expect(r.sync.health().state).toBe('live');
    expect(r.sync.store.seqId).toBe(6n);
    r.sync.stop();
  });

  it('reloads after the ack when the book is quiet (nothing shows the early snapshot is current)', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    await r.answer(0, snapshot(4));
    await r.ack();
    expect(r.sync.health().state).toBe('resyncing');
    expect(r.requests).toHaveLength(2);
    await r.answer(1, snapshot(4));
    await started;
    expect(r.sync.health().state).toBe('live');
    r.sync.stop();
  });

  it('still forces a resync on a gap once live', async () => {
    const r = rig();
    const started = r.sync.start();
    await r.flush();
    await r.ack();
    r.send(order(5n, 5));
    await r.answer(0, snapshot(4));
    await started;
    expect(r.sync.health().state).toBe('live');
    r.send(order(7n, 7));
    expect(r.sync.health().state).toBe('resyncing');
    expect(r.sync.counters.gaps).toBe(1);
    r.sync.stop();
  });
});
