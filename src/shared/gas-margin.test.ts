import { describe, expect, it } from 'vitest';
import { gasWithMargin } from './gas-margin';

describe('gasWithMargin', () => {
  it('adds a fifth and 25,000 to the estimate, in integers', () => {
    expect(gasWithMargin(0n)).toBe(25_000n);
    expect(gasWithMargin(100_000n)).toBe(145_000n);
    expect(gasWithMargin(46_003n)).toBe(46_003n + 9_200n + 25_000n);
  });

  it('covers a zero-to-non-zero storage write the estimate did not see (20,000 − 2,900 gas)', () => {
    for (const estimate of [21_000n, 50_000n, 120_000n, 250_000n]) {
      expect(gasWithMargin(estimate) - estimate).toBeGreaterThanOrEqual(20_000n - 2_900n);
    }
  });

  it('refuses a negative estimate', () => {
    expect(() => gasWithMargin(-1n)).toThrow(RangeError);
  });
});
