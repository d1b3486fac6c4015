// BookStore update throughput. "5,000 levels" cannot exist (a side has 999 price ticks), so the book
// holds 5,000 resting orders spread at random over both ladders. Each timed round replays 200,000
// updates (cancel/re-add, partial fill/restore, move/return: all three event kinds) that leave the
// book as it started, so rounds are identical. Target: ≥ 500,000 updates/s applied.
import { parseMarketUpdate, type MarketUpdate } from '../src/client';
import { BookStore } from '../src/client';
import { blackhole, measure, note, ratio, type Benchmark } from './harness';

const ORDERS = 5_000;
const UPDATES = 200_000;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Resting {
  id: string;
  sell: boolean;
  price: bigint;
  size: bigint;
}

function orderEvent(seq: number, o: Resting, price = o.price, size = o.size): MarketUpdate {
  return {
    type: 'order',
    seqId: BigInt(seq),
    assetId: 1n,
    epoch: 0n,
    data: {
      orderId: o.id as `0x${string}`,
      assetId: 1n,
      epoch: 0n,
      price,
      side: o.sell,
      size,
      arrivalTime: 1n,
      tif: 'GTC',
      type: 'limit',
    },
  };
}

function build(): { resting: Resting[]; updates: MarketUpdate[]; wire: string[] } {
  const r = rng(42);
  const resting: Resting[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const sell = i % 2 === 1;
    // Bids in 0.1–50¢, asks in 50.1–99.9¢, uniformly over the ticks.
    const tick = sell ? 501 + Math.floor(r() * 499) : 1 + Math.floor(r() * 500);
    resting.push({
      id: `0x${(i + 1).toString(16).padStart(64, '0')}`,
      sell,
      price: BigInt(tick) * 1000n,
      size: BigInt(1 + Math.floor(r() * 100)) * 10_000n,
    });
  }
  const updates: MarketUpdate[] = [];
  let seq = 1;
  while (updates.length < UPDATES) {
    const o = resting[Math.floor(r() * ORDERS)]!;
    const k = r();
    if (k < 0.4) {
      updates.push({
        type: 'cancel',
        seqId: BigInt(seq++),
        assetId: 1n,
        epoch: 0n,
        data: { orderId: `0x${'c'.repeat(64)}`, cancelId: o.id as `0x${string}`, assetId: 1n, epoch: 0n },
      });
      updates.push(orderEvent(seq++, o));
    } else if (k < 0.7 && o.size > 10_000n) {
      const fill = 10_000n;
      updates.push({
        type: 'trade',
        seqId: BigInt(seq++),
        assetId: 1n,
        epoch: 0n,
        data: { ...orderEvent(0, o).data, fillPrice: o.price, fill },
      } as MarketUpdate);
      updates.push(orderEvent(seq++, o));
    } else {
      const moved = o.sell
        ? o.price === 999_000n
          ? 998_000n
          : o.price + 1000n
        : o.price === 1000n
          ? 2000n
          : o.price - 1000n;
      updates.push(orderEvent(seq++, o, moved));
      updates.push(orderEvent(seq++, o));
    }
  }
  const wire = updates
    .slice(0, 20_000)
    .map((u) =>
      JSON.stringify({ type: u.type, seqId: Number(u.seqId), data: u.data }, (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v === true ? 'sell' : v === false ? 'buy' : v,
      ),
    );
  return { resting, updates, wire };
}

const bench: Benchmark = {
  name: 'book',
  async run(report) {
    const { resting, updates, wire } = build();
    const book = new BookStore(1n, 0n);
    for (const o of resting) book.addOrder(o.id, o.sell, o.price, o.size);
    const before = JSON.stringify(book.view(), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

    const applyAll = () => {
      let ok = 0;
      for (let i = 0; i < updates.length; i++) if (book.apply(updates[i]!)) ok++;
      return ok;
    };
    if (applyAll() !== updates.length) throw new Error('an update did not apply');
    const after = JSON.stringify(book.view(), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    if (after !== before) throw new Error('the update stream does not restore the book');

    const m = await measure(
      report,
      `apply (5,000 orders, ${UPDATES.toLocaleString('en-US')} updates/round)`,
      UPDATES,
      applyAll,
    );
    ratio(report, 'apply throughput / 500,000 updates/s', m.opsPerSec / 500_000, { atLeast: 1 });

    // End to end from the socket text: JSON.parse + strict zod parse + apply.
    const parsed = wire.map((w) => {
      const p = parseMarketUpdate(JSON.parse(w));
      if (!('update' in p)) throw new Error(p.error);
      return p.update;
    });
    blackhole(parsed);
    const fresh = new BookStore(1n, 0n);
    for (const o of resting) fresh.addOrder(o.id, o.sell, o.price, o.size);
    await measure(
      report,
      `JSON.parse + schema + apply (${wire.length.toLocaleString('en-US')} frames/round)`,
      wire.length,
      () => {
        for (const w of wire) {
          const p = parseMarketUpdate(JSON.parse(w));
          if ('update' in p) fresh.apply(p.update);
        }
      },
    );
    const viewRounds = 1000;
    await measure(report, 'full L2 view of the 5,000-order book', viewRounds, () => {
      let n = 0;
      for (let i = 0; i < viewRounds; i++) n += book.view().bids.length;
      return n;
    });
    note(
      report,
      '"5,000 levels" = 5,000 resting orders over the 999-tick ladders (a side cannot have more than 999 levels).',
    );
    note(report, 'The target applies to BookStore.apply; frame parsing (zod) is reported separately.');
  },
};

export default bench;
