import { describe, expect, it } from 'vitest';
import { averagePrice, markPrice, unrealisedPnl } from './position-math';

const C = 1_000_000n;

describe('position math', () => {
  it('averages the entry price from the cost basis, long and short', () => {
    expect(averagePrice(10n * C, 6_250_000n, false)).toBe(625_000n);
    expect(averagePrice(10n * C, 3_750_000n, true)).toBe(625_000n);
    expect(averagePrice(0n, 0n, false)).toBeNull();
  });

  it('values the position at the mark less its cost, exactly (no rounded average in between)', () => {
    expect(unrealisedPnl(10n * C, 6_250_000n, 650_000n, false)).toBe(250_000n);
    expect(unrealisedPnl(10n * C, 3_750_000n, 650_000n, true)).toBe(-250_000n);
    // 3 contracts bought for $1.234567 in all: the average rounds, the value does not.
    expect(unrealisedPnl(3n * C, 1_234_567n, 412_000n, false)).toBe(1_236_000n - 1_234_567n);
    // A loss that is less than a cent stays a loss.
    expect(unrealisedPnl(1n * C, 500_000n, 499_000n, false)).toBe(-1_000n);
  });

  it('marks at the mid; with a side missing there is no mark, not the last trade', () => {
    expect(markPrice(600_000n, 700_000n)).toBe(650_000n);
    expect(markPrice(null, 700_000n)).toBeNull();
    expect(markPrice(600_000n, null)).toBeNull();
    expect(markPrice(null, null)).toBeNull();
  });
});
