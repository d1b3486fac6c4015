import { describe, expect, it } from 'vitest';
import { clipToInventory, planClose } from './close-plan';

const C = 1_000_000n;
const c = (cents: number): bigint => BigInt(Math.round(cents * 10_000));
const none = new Map<bigint, bigint>();

describe('planClose', () => {
  it('has nothing to close without a position', () => {
    expect(planClose(0n, { bids: [{ price: c(50), size: C }], asks: [] }, none, c(5))).toEqual({ kind: 'nothing' });
  });

  it('limits a long close to the best bid minus the slippage and walks the book only that far', () => {
    const book = {
      bids: [
        { price: c(60), size: 2n * C },
        { price: c(56), size: 3n * C },
        { price: c(54), size: 50n * C },
        { price: c(1), size: 1000n * C },
      ],
      asks: [],
    };
    expect(planClose(123n * C, book, none, c(5))).toEqual({
      kind: 'plan',
      sell: true,
      size: 123n * C,
      best: c(60),
      limit: c(55),
      expectedFill: 5n * C,
      expectedWorst: c(56),
    });
  });

  it('closes a short by buying up to the best ask plus the slippage, clamped to 99.9¢', () => {
    const book = {
      bids: [],
      asks: [
        { price: c(97), size: C },
        { price: c(99.9), size: C },
      ],
    };
    expect(planClose(-3n * C, book, none, c(5))).toMatchObject({
      kind: 'plan',
      sell: false,
      size: 3n * C,
      limit: c(99.9),
      expectedFill: 2n * C,
      expectedWorst: c(99.9),
    });
  });

  it('clamps a long close to 0.1¢ and stops once the size is covered', () => {
    const book = { bids: [{ price: c(2), size: 10n * C }], asks: [] };
    expect(planClose(4n * C, book, none, c(5))).toMatchObject({
      limit: c(0.1),
      expectedFill: 4n * C,
      expectedWorst: c(2),
    });
  });

  it('does not count own resting orders as liquidity; no other bids is no liquidity', () => {
    const book = { bids: [{ price: c(40), size: 2n * C }], asks: [] };
    expect(planClose(C, book, new Map([[c(40), 2n * C]]), c(5))).toEqual({ kind: 'no_liquidity', sell: true, size: C });
    expect(planClose(-C, book, none, c(5))).toEqual({ kind: 'no_liquidity', sell: false, size: C });
  });
});

describe('clipToInventory (reduce-only re-check before signing)', () => {
  const plan = { sell: true, size: 5n * C, best: c(50), limit: c(45), expectedFill: 5n * C, expectedWorst: c(50) };
  it('keeps the size while the position is still at least as large', () =>
    expect(clipToInventory(plan, 7n * C)).toBe(5n * C));
  it('shrinks to a position that got smaller', () => expect(clipToInventory(plan, 2n * C)).toBe(2n * C));
  it('sends nothing once the position is flat or flipped', () => {
    expect(clipToInventory(plan, 0n)).toBe(0n);
    expect(clipToInventory(plan, -C)).toBe(0n);
    expect(clipToInventory({ ...plan, sell: false }, C)).toBe(0n);
  });
});
