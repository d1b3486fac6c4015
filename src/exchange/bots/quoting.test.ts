import { describe, expect, it } from 'vitest';
import { buildLadder, dropCrossing, fairMoved, MAX_PRICE, MIN_PRICE, type LadderConfig } from './ladder';
import { reconcileQuotes, type RestingOrder } from './reconcile';
import { seededRandom } from '../prng';

const cfg: LadderConfig = { levels: 3, halfSpreadTicks: 2, stepTicks: 2, baseLots: 100n, lotsPerLevel: 50n };

describe('ladder', () => {
  it('quotes bids below and asks above fair on the tick, sizes on the lot', () => {
    const q = buildLadder(500_400n, cfg);
    expect(q.filter((x) => !x.side).map((x) => x.price)).toEqual([498_000n, 496_000n, 494_000n]);
    expect(q.filter((x) => x.side).map((x) => x.price)).toEqual([503_000n, 505_000n, 507_000n]);
    expect(q.map((x) => x.size)).toEqual([1_000_000n, 1_500_000n, 2_000_000n, 1_000_000n, 1_500_000n, 2_000_000n]);
    for (const x of q) expect(x.price % 1000n).toBe(0n);
  });
  it('clamps to 1000..999000 without quoting an edge twice or crossing', () => {
    for (const fair of [0n, 500n, 1_000n, 999_000n, 1_000_000n]) {
      const q = buildLadder(fair, cfg);
      const bids = q.filter((x) => !x.side).map((x) => x.price);
      const asks = q.filter((x) => x.side).map((x) => x.price);
      for (const p of [...bids, ...asks]) expect(p >= MIN_PRICE && p <= MAX_PRICE).toBe(true);
      expect(new Set(bids).size).toBe(bids.length);
      expect(new Set(asks).size).toBe(asks.length);
      if (bids.length && asks.length) expect(bids[0]! < asks[0]!).toBe(true);
    }
  });
  it('drops post-only prices that would cross the book', () => {
    const q = dropCrossing(buildLadder(500_000n, cfg), { bestBid: 503_000n, bestAsk: 496_000n });
    expect(q.filter((x) => !x.side).map((x) => x.price)).toEqual([494_000n]);
    expect(q.filter((x) => x.side).map((x) => x.price)).toEqual([504_000n, 506_000n]);
  });
  it('re-quotes only when fair moves by more than a tick', () => {
    expect(fairMoved(undefined, 1n)).toBe(true);
    expect(fairMoved(500_000n, 501_000n)).toBe(false);
    expect(fairMoved(500_000n, 501_001n)).toBe(true);
    expect(fairMoved(500_000n, 498_999n)).toBe(true);
  });
  it('re-quotes only when fair leaves a wider band when given one (practice: 10 ticks, 1¢)', () => {
    expect(fairMoved(undefined, 1n, 10)).toBe(true);
    expect(fairMoved(500_000n, 510_000n, 10)).toBe(false);
    expect(fairMoved(500_000n, 490_000n, 10)).toBe(false);
    expect(fairMoved(500_000n, 510_001n, 10)).toBe(true);
    expect(fairMoved(500_000n, 489_999n, 10)).toBe(true);
  });
});

describe('reconcile', () => {
  const order = (orderId: string, side: boolean, price: bigint, size = 1_000_000n): RestingOrder => ({
    orderId,
    side,
    price,
    size,
  });
  it('keeps matching orders, replaces moved ones, cancels extras and places missing', () => {
    const wanted = buildLadder(500_000n, { ...cfg, levels: 2, lotsPerLevel: 0n });
    // wanted: bids 498k, 496k; asks 502k, 504k (size 1e6)
    const resting = [
      order('a', false, 498_000n),
      order('b', false, 490_000n),
      order('c', true, 510_000n),
      order('d', true, 520_000n),
      order('e', true, 530_000n),
    ];
    const actions = reconcileQuotes(wanted, resting, true);
    const kinds = actions.map(
      (a) => `${a.kind}:${'target' in a ? a.target.orderId : ''}:${'quote' in a ? a.quote.price : ''}`,
    );
    expect(kinds).toEqual(['cancel:e:', 'replace:c:502000', 'replace:d:504000', 'replace:b:496000']);
  });
  it('moves bids first when fair falls', () => {
    const wanted = buildLadder(400_000n, { ...cfg, levels: 1 });
    const actions = reconcileQuotes(wanted, [order('a', false, 498_000n), order('b', true, 502_000n)], false);
    expect(actions.map((a) => (a.kind === 'cancel' ? 'x' : a.quote.side ? 'ask' : 'bid'))).toEqual(['bid', 'ask']);
  });
});

describe('seeded PRNG', () => {
  it('is reproducible per seed and differs across seeds', () => {
    const a = seededRandom(7),
      b = seededRandom(7),
      c = seededRandom(8);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
  });
});
