import { describe, expect, it } from 'vitest';
import { fairPrice } from './fair-value';
import { fairValueFrom, fairValueOf } from './market-fair-value';
import { estimateVolatility, type PriceTick } from './volatility';

const T0 = 1_700_000_000_000;
/** A zig-zag of ±0.05 % every 500 ms: a known realised volatility, far from the floor and the cap. */
function zigzag(count: number, start = 100_000_000_000n): PriceTick[] {
  return Array.from({ length: count }, (_, i) => ({
    price: i % 2 === 0 ? start : (start * 10_005n) / 10_000n,
    at: T0 + i * 500,
  }));
}

describe('fairValueOf', () => {
  const ticks = zigzag(120);
  const newest = ticks.at(-1)!;
  const base = { ticks, strike: 100_000_000_000n, expiryMs: newest.at + 30_000, nowMs: newest.at + 500, symbol: 'BTC' };

  it('is N(d2) of the newest price, the strike, the time left by the given clock and the estimated σ', () => {
    const fv = fairValueOf(base);
    if (!fv.known) throw new Error(fv.reason);
    const vol = estimateVolatility(ticks);
    expect(vol.sigma).not.toBeNull();
    expect(fv.sigma).toBe(vol.sigma);
    expect(fv.spot).toBe(newest.price);
    expect(fv.secondsLeft).toBe(29.5);
    expect(fv.at).toBe(newest.at);
    expect(fv.samples).toBe(120);
    expect(fv.price).toBe(
      fairPrice({ spot: newest.price, strike: base.strike, secondsToExpiry: 29.5, sigma: vol.sigma! }),
    );
    // The newest price is above the strike: Up is more likely than not, but far from certain.
    expect(fv.price).toBeGreaterThan(500_000n);
    expect(fv.price).toBeLessThan(1_000_000n);
  });

  it('moves with the clock: less time left at the same spot makes the likely side likelier', () => {
    const early = fairValueOf({ ...base, staleAfterMs: 60_000 });
    const late = fairValueOf({ ...base, nowMs: base.expiryMs - 1_000, staleAfterMs: 60_000 });
    if (!early.known || !late.known) throw new Error('unknown');
    expect(late.price).toBeGreaterThan(early.price);
  });

  it('says why there is none, in sentences that name the symbol and the numbers', () => {
    expect(fairValueOf({ ...base, ticks: [] })).toEqual({
      known: false,
      reason: 'No fair value yet: no oracle price for BTC has arrived.',
    });
    expect(fairValueOf({ ...base, ticks: ticks.slice(-3) })).toEqual({
      known: false,
      reason: 'No fair value yet: the oracle has sent 3 prices for BTC, 60 are needed.',
    });
    expect(fairValueOf({ ...base, ticks: ticks.slice(-1) })).toMatchObject({
      reason: 'No fair value yet: the oracle has sent 1 price for BTC, 60 are needed.',
    });
    const bunched = ticks.slice(-80).map((t, i) => ({ ...t, at: newest.at - 8_000 + i * 100 }));
    expect(fairValueOf({ ...base, ticks: bunched })).toEqual({
      known: false,
      reason: "No fair value yet: the oracle's prices for BTC span 7 s, 30 s are needed.",
    });
    expect(fairValueOf({ ...base, nowMs: newest.at + 42_400, expiryMs: newest.at + 60_000 })).toEqual({
      known: false,
      reason: 'No fair value: the last oracle price for BTC is 42 s old, over 10 s.',
    });
    expect(fairValueOf({ ...base, strike: 0n }).known).toBe(false);
  });

  it('has none once the epoch has ended: the resolution price decides it, not the spot now', () => {
    for (const nowMs of [base.expiryMs, base.expiryMs + 5_000]) {
      expect(fairValueOf({ ...base, nowMs })).toEqual({
        known: false,
        reason: 'No fair value: this epoch has ended, and its resolution price decides it.',
      });
    }
  });

  it('takes the staleness limit and the estimator options it is given', () => {
    expect(fairValueOf({ ...base, nowMs: newest.at + 20_000, staleAfterMs: 30_000 }).known).toBe(true);
    const fewer = fairValueOf({ ...base, ticks: ticks.slice(-10), volatility: { minTicks: 5, minSpanMs: 2_000 } });
    expect(fewer.known).toBe(true);
  });

  it('is the same from an estimate made beforehand (what a caller asked often keeps per symbol)', () => {
    const volatility = estimateVolatility(ticks);
    for (const nowMs of [newest.at + 500, newest.at + 9_000, newest.at + 11_000, base.expiryMs]) {
      expect(fairValueFrom({ ...base, nowMs, spot: newest, volatility })).toEqual(fairValueOf({ ...base, nowMs }));
    }
    expect(fairValueFrom({ ...base, spot: null, volatility })).toEqual(fairValueOf({ ...base, ticks: [] }));
  });
});
