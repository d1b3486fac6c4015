import { describe, expect, it } from 'vitest';
import { digitalProbability, fairPrice, normalCdf } from './fair-value';

describe('fair value N(d2)', () => {
  it('matches known normal CDF values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });
  it('is a bit under one half at the money (the −σ²T/2 drift) and monotone in spot', () => {
    const atm = digitalProbability({ spot: 100_000_000n, strike: 100_000_000n, secondsToExpiry: 300, sigma: 0.6 });
    expect(atm).toBeLessThan(0.5);
    expect(atm).toBeGreaterThan(0.49);
    const up = digitalProbability({ spot: 101_000_000n, strike: 100_000_000n, secondsToExpiry: 300, sigma: 0.6 });
    const down = digitalProbability({ spot: 99_000_000n, strike: 100_000_000n, secondsToExpiry: 300, sigma: 0.6 });
    expect(up).toBeGreaterThan(atm);
    expect(down).toBeLessThan(atm);
  });
  it('collapses to the known outcome at expiry', () => {
    expect(fairPrice({ spot: 2n, strike: 1n, secondsToExpiry: 0, sigma: 0.6 })).toBe(1_000_000n);
    expect(fairPrice({ spot: 1n, strike: 2n, secondsToExpiry: -5, sigma: 0.6 })).toBe(0n);
    expect(fairPrice({ spot: 1n, strike: 1n, secondsToExpiry: 0, sigma: 0.6 })).toBe(1_000_000n); // ties go Up
  });
});
