import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BookLevel } from '../../shared/bridge';
import {
  autoTicksPerRow,
  barPercent,
  cumulativeDepth,
  groupLevels,
  ladderCentre,
  ladderCursor,
  ladderPrices,
  ladderRows,
  moveLadderCursor,
  nextCentre,
  reuseRows,
  snapToStep,
} from './ladder';

const level = (price: number, size: number, own = 0): BookLevel => ({
  price: String(price),
  size: String(size * 1_000_000),
  orderCount: 1,
  ownSize: String(own * 1_000_000),
});

const book = {
  bids: [level(600_000, 5, 2), level(599_000, 3), level(593_000, 4)],
  asks: [level(602_000, 1), level(604_000, 6, 6), level(611_000, 2)],
  last: { price: '601000', at: 0, side: 'buy' as const },
};

describe('tick grouping', () => {
  it('rounds bids down and asks up to the group', () => {
    const bids = groupLevels(book.bids, 5000n, 'bid');
    expect([...bids.keys()]).toEqual([600_000n, 595_000n, 590_000n]);
    const asks = groupLevels(book.asks, 5000n, 'ask');
    expect(asks.get(605_000n)).toEqual({ size: 7_000_000n, own: 6_000_000n });
    expect(asks.get(615_000n)?.size).toBe(2_000_000n);
  });

  it('sums depth from the best price outward', () => {
    const bidDepth = cumulativeDepth(groupLevels(book.bids, 1000n, 'bid'), 'bid');
    expect(bidDepth.get(600_000n)).toBe(5_000_000n);
    expect(bidDepth.get(593_000n)).toBe(12_000_000n);
    const askDepth = cumulativeDepth(groupLevels(book.asks, 1000n, 'ask'), 'ask');
    expect(askDepth.get(611_000n)).toBe(9_000_000n);
  });
});

describe('ladder window', () => {
  it('centres on the mid and stays inside 0.1–99.9¢', () => {
    expect(ladderCentre(book, 1000n)).toBe(601_000n);
    expect(ladderCentre(null, 10_000n)).toBe(500_000n);
    expect(ladderPrices(601_000n, 1000n, 5)).toEqual([603_000n, 602_000n, 601_000n, 600_000n, 599_000n]);
    expect(ladderPrices(2000n, 1000n, 5)).toEqual([5000n, 4000n, 3000n, 2000n, 1000n]);
    expect(ladderPrices(999_000n, 10_000n, 3)).toEqual([990_000n, 980_000n, 970_000n]);
  });

  it('fills fixed rows with sizes, own size, depth and the last trade', () => {
    const rows = ladderRows(book, ladderPrices(601_000n, 1000n, 5), 1);
    const byPrice = new Map(rows.map((r) => [r.price, r]));
    expect(byPrice.get(600_000n)).toMatchObject({ bid: 5_000_000n, ownBid: 2_000_000n, cumBid: 5_000_000n });
    expect(byPrice.get(599_000n)?.cumBid).toBe(8_000_000n);
    expect(byPrice.get(603_000n)).toMatchObject({ ask: 0n, cumAsk: 1_000_000n });
    expect(byPrice.get(601_000n)?.isLast).toBe(true);
    expect(rows.filter((r) => r.isLast)).toHaveLength(1);
  });

  it('sizes depth bars in whole percents', () => {
    expect(barPercent(5n, 20n)).toBe(25);
    expect(barPercent(5n, 0n)).toBe(0);
  });

  it('stays still under the pointer and recentres only when the market leaves the middle', () => {
    expect(nextCentre(null, 600_000n, 1000n, 31, false)).toBe(600_000n);
    expect(nextCentre(600_000n, 640_000n, 1000n, 31, true)).toBe(600_000n);
    expect(nextCentre(600_000n, 606_000n, 1000n, 31, false)).toBe(600_000n);
    expect(nextCentre(600_000n, 608_000n, 1000n, 31, false)).toBe(608_000n);
    expect(nextCentre(600_000n, 592_000n, 1000n, 31, false)).toBe(592_000n);
  });
});

describe('keyboard cursor', () => {
  const prices = ladderPrices(500_000n, 1000n, 31);

  it('rests where it was, else on the best price of its side, else the middle row', () => {
    expect(ladderCursor(null, [])).toBeNull();
    expect(ladderCursor({ price: 510_000n, side: 'sell' }, prices)).toEqual({ price: 510_000n, side: 'sell' });
    expect(ladderCursor(null, prices, { bid: 498_000n, ask: 503_000n })).toEqual({ price: 498_000n, side: 'buy' });
    expect(ladderCursor({ price: 900_000n, side: 'sell' }, prices, { bid: 498_000n, ask: 503_000n })).toEqual({
      price: 503_000n,
      side: 'sell',
    });
    expect(ladderCursor({ price: 900_000n, side: 'buy' }, prices, { bid: 100_000n, ask: null })).toEqual({
      price: 500_000n,
      side: 'buy',
    });
  });

  it('moves by row, page and side and stops at the edges', () => {
    const c = { price: 500_000n, side: 'buy' as const };
    expect(moveLadderCursor(c, prices, 'ArrowUp')).toEqual({ price: 501_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'ArrowDown')).toEqual({ price: 499_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'ArrowRight')).toEqual({ price: 500_000n, side: 'sell' });
    expect(moveLadderCursor({ ...c, side: 'sell' }, prices, 'ArrowLeft')).toEqual({ price: 500_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'PageUp')).toEqual({ price: 510_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'PageDown')).toEqual({ price: 490_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'Home')).toEqual({ price: 515_000n, side: 'buy' });
    expect(moveLadderCursor(c, prices, 'End')).toEqual({ price: 485_000n, side: 'buy' });
    expect(moveLadderCursor({ price: 515_000n, side: 'buy' }, prices, 'ArrowUp')).toEqual({
      price: 515_000n,
      side: 'buy',
    });
    expect(moveLadderCursor({ price: 485_000n, side: 'sell' }, prices, 'PageDown')).toEqual({
      price: 485_000n,
      side: 'sell',
    });
    expect(moveLadderCursor(c, prices, 'Enter')).toBeNull();
    expect(moveLadderCursor(c, prices, 'b')).toBeNull();
  });
});

describe('ladder depth', () => {
  it('matches summing every level at or better than each row, for any book, group and window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 50 })), { maxLength: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 50 })), { maxLength: 40 }),
        fc.constantFrom(1, 5, 10),
        fc.integer({ min: 1, max: 999 }),
        (rawBids, rawAsks, ticks, centreTicks) => {
          const b = {
            bids: rawBids.map(([p, s]) => level(p * 1000, s)),
            asks: rawAsks.map(([p, s]) => level(p * 1000, s)),
            last: null,
          };
          const step = BigInt(ticks) * 1000n;
          const prices = ladderPrices(snapToStep(BigInt(centreTicks) * 1000n, step), step, 31);
          const rows = ladderRows(b, prices, ticks);
          const bidGroups = groupLevels(b.bids, step, 'bid');
          const askGroups = groupLevels(b.asks, step, 'ask');
          for (const row of rows) {
            let bidSum = 0n;
            for (const [p, g] of bidGroups) if (p >= row.price) bidSum += g.size;
            let askSum = 0n;
            for (const [p, g] of askGroups) if (p <= row.price) askSum += g.size;
            expect(row.cumBid).toBe(bidSum);
            expect(row.cumAsk).toBe(askSum);
            expect(row.bid).toBe(bidGroups.get(row.price)?.size ?? 0n);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('row reuse', () => {
  const book = (size: string) => ({
    bids: [{ price: '499000', size, orderCount: 1, ownSize: '0' }],
    asks: [{ price: '501000', size: '5000000', orderCount: 1, ownSize: '0' }],
    last: null,
  });
  const prices = ladderPrices(500_000n, 1000n, 5);

  it('keeps the earlier object for every row whose numbers did not move', () => {
    const before = ladderRows(book('1000000'), prices, 1);
    const after = reuseRows(ladderRows(book('2000000'), prices, 1), before);
    expect(after).toEqual(ladderRows(book('2000000'), prices, 1));
    const changed = after.filter((row, i) => row !== before[i]).map((row) => row.price);
    // The bid row and the rows below it (their cumulative bid depth) moved; the asks did not.
    expect(changed).toEqual([499_000n, 498_000n]);
  });

  it('returns the earlier array when nothing moved', () => {
    const before = ladderRows(book('1000000'), prices, 1);
    expect(reuseRows(ladderRows(book('1000000'), prices, 1), before)).toBe(before);
  });
});

describe('automatic grouping', () => {
  const c = (cents: number): bigint => BigInt(Math.round(cents * 10_000));
  const quotes = (bid: number, ask: number) => ({ bid: c(bid), ask: c(ask) });

  it('keeps 0.1¢ rows for a tight spread and groups a wide one so both inside quotes are in view', () => {
    expect(autoTicksPerRow(null, quotes(49.9, 50.1), 15)).toBe(1);
    // 4¢ and 11¢ wide, 15 rows: at 0.1¢ the quotes are 41 and 111 rows apart, off screen.
    expect(autoTicksPerRow(null, quotes(47, 51), 15)).toBe(10);
    expect(autoTicksPerRow(null, quotes(44, 55), 15)).toBe(20);
    expect(autoTicksPerRow(null, quotes(44, 55), 41)).toBe(10);
    expect(autoTicksPerRow(null, quotes(48, 52), 41)).toBe(5);
    // Wider than any grouping fits: the coarsest.
    expect(autoTicksPerRow(null, quotes(5, 95), 11)).toBe(50);
  });

  it('always shows both inside quotes within the middle half of the rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 998 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 5, max: 20 }),
        (b, width, half) => {
          const rows = half * 2 + 1;
          const bid = BigInt(b) * 1_000n;
          const ask = BigInt(Math.min(999, b + width)) * 1_000n;
          const ticks = autoTicksPerRow(null, { bid, ask }, rows);
          const step = BigInt(ticks) * 1_000n;
          const spanRows = Number(((ask + step - 1n) / step) * step - (bid / step) * step) / Number(step) + 1;
          return ticks === 50 || spanRows <= rows / 2;
        },
      ),
    );
  });

  it('goes coarser at once, finer only with room to spare, and keeps its grouping without a spread', () => {
    expect(autoTicksPerRow(1, quotes(47, 51), 21)).toBe(5);
    // 1.5¢ at 0.5¢ rows takes 4 of 21 rows: a third fits, so it goes finer from 1¢.
    expect(autoTicksPerRow(10, quotes(49, 50.5), 21)).toBe(5);
    // 0.8¢ wide, 21 rows: 0.1¢ takes 9 rows (under half, over a third), so 0.5¢ rows stay.
    expect(autoTicksPerRow(5, quotes(49.6, 50.4), 21)).toBe(5);
    expect(autoTicksPerRow(null, quotes(49.6, 50.4), 21)).toBe(1);
    expect(autoTicksPerRow(10, { bid: null, ask: c(50) }, 21)).toBe(10);
    expect(autoTicksPerRow(null, { bid: c(50), ask: null }, 21)).toBe(1);
  });
});
