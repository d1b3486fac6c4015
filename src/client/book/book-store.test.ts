import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketUpdate } from '../feeds/market-feed';
import { BookStore, sameView } from './book-store';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const order = (seq: number, n: number, sell: boolean, price: bigint, size: bigint): MarketUpdate =>
  ({
    type: 'order',
    seqId: BigInt(seq),
    assetId: 1n,
    epoch: 0n,
    data: { orderId: id(n), assetId: 1n, epoch: 0n, price, side: sell, size },
  }) as MarketUpdate;

describe('BookStore', () => {
  it('aggregates orders per tick, best first', () => {
    const b = new BookStore(1n, 0n);
    b.addOrder(id(1), false, 400_000n, 1_000_000n);
    b.addOrder(id(2), false, 400_000n, 2_000_000n);
    b.addOrder(id(3), false, 410_000n, 1_000_000n);
    b.addOrder(id(4), true, 600_000n, 5_000_000n);
    expect(b.levels('bids')).toEqual([
      { price: 410_000n, size: 1_000_000n, orderCount: 1 },
      { price: 400_000n, size: 3_000_000n, orderCount: 2 },
    ]);
    expect(b.bestAsk()).toEqual({ price: 600_000n, size: 5_000_000n, orderCount: 1 });
  });

  it('replaces an order with the same id, fills and cancels', () => {
    const b = new BookStore(1n, 0n);
    b.addOrder(id(1), false, 400_000n, 1_000_000n);
    b.addOrder(id(1), false, 420_000n, 3_000_000n);
    expect(b.levels('bids')).toEqual([{ price: 420_000n, size: 3_000_000n, orderCount: 1 }]);
    expect(b.fill(id(1), 1_000_000n)).toBe(true);
    expect(b.bestBid()?.size).toBe(2_000_000n);
    expect(b.fill(id(1), 5_000_000n)).toBe(false); // overfill: the caller resyncs
    expect(b.fill(id(1), 2_000_000n)).toBe(true);
    expect(b.orderCount).toBe(0);
    expect(b.levels('bids')).toEqual([]);
    expect(b.cancel(id(9))).toBe(false);
  });

  it('rejects off-grid prices and clears on resolution', () => {
    const b = new BookStore(1n, 0n);
    expect(b.addOrder(id(1), false, 400_500n, 1n)).toBe(false);
    expect(b.addOrder(id(1), false, 0n, 1n)).toBe(false);
    expect(b.addOrder(id(1), false, 1_000_000n, 1n)).toBe(false);
    b.addOrder(id(2), true, 999_000n, 10_000n);
    expect(
      b.apply({
        type: 'resolution',
        seqId: 2n,
        assetId: 1n,
        epoch: 0n,
        data: { orderId: id(3), assetId: 1n, epoch: 0n, price: 5n },
      } as MarketUpdate),
    ).toBe(true);
    expect(b.resolved).toBe(true);
    expect(b.view()).toEqual({ bids: [], asks: [] });
  });

  it('matches a naive model for any sequence of adds and cancels', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat(20),
            fc.boolean(),
            fc.integer({ min: 1, max: 999 }),
            fc.integer({ min: 1, max: 50 }),
            fc.boolean(),
          ),
        ),
        (ops) => {
          const b = new BookStore(1n, 0n);
          const model = new Map<number, { sell: boolean; price: bigint; size: bigint }>();
          ops.forEach(([n, sell, tick, lots, cancel], i) => {
            if (cancel) {
              expect(b.cancel(id(n))).toBe(model.delete(n));
            } else {
              const o = { sell, price: BigInt(tick) * 1000n, size: BigInt(lots) * 10_000n };
              expect(b.apply(order(i, n, sell, o.price, o.size))).toBe(true);
              model.set(n, o);
            }
          });
          const levels = (sell: boolean) => {
            const m = new Map<bigint, { size: bigint; n: number }>();
            for (const o of model.values())
              if (o.sell === sell)
                m.set(o.price, { size: (m.get(o.price)?.size ?? 0n) + o.size, n: (m.get(o.price)?.n ?? 0) + 1 });
            return [...m.entries()]
              .sort((a, c) => (sell ? (a[0] < c[0] ? -1 : 1) : a[0] > c[0] ? -1 : 1))
              .map(([price, v]) => ({ price, size: v.size, orderCount: v.n }));
          };
          expect(sameView(b.view(), { bids: levels(false), asks: levels(true) })).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
