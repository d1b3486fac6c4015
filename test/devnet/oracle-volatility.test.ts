// The terminal's volatility estimator against the devnet's own oracle: seeded PriceProcess paths,
// read the way the oracle feed publishes them (a timer not aligned with the path's steps, `ts` in
// whole seconds), give back the volatility the path was made with, within 10 %.
import { describe, expect, it } from 'vitest';
import { estimateVolatility, fairPrice, fairValueOf, type PriceTick } from '../../src/client';
import { DEVNET_SYMBOLS } from '../../src/exchange/markets';
import { PriceProcess } from '../../src/exchange/oracle/price-process';

const ORIGIN = 1_700_000_000_000;

/** `count` feed messages every `publishMs`, starting `phaseMs` after the path's origin. */
function published(process: PriceProcess, opts: { count: number; publishMs: number; phaseMs: number }): PriceTick[] {
  return Array.from({ length: opts.count }, (_, i) => {
    const now = ORIGIN + opts.phaseMs + i * opts.publishMs;
    return { price: process.priceAt(now), at: Math.floor(now / 1000) * 1000 };
  });
}

function path(symbol: keyof typeof DEVNET_SYMBOLS, seed: number, volatility?: number): PriceProcess {
  const s = DEVNET_SYMBOLS[symbol];
  return new PriceProcess({
    symbolId: s.symbolId,
    initialPrice: s.initialPrice,
    volatility: volatility ?? s.volatility,
    stepMs: 500,
    originMs: ORIGIN,
    seed,
  });
}

describe('volatility from the devnet oracle', () => {
  it('recovers each devnet symbol’s volatility from five minutes of its feed', () => {
    for (const symbol of ['BTC', 'ETH'] as const) {
      for (const seed of [1, 2, 3]) {
        const ticks = published(path(symbol, seed), { count: 600, publishMs: 500, phaseMs: 137 * seed });
        const e = estimateVolatility(ticks);
        if (e.sigma === null) throw new Error(`${symbol}/${seed}: ${e.reason}`);
        const truth = DEVNET_SYMBOLS[symbol].volatility;
        expect(Math.abs(e.sigma - truth) / truth, `${symbol} seed ${seed}: ${e.sigma}`).toBeLessThan(0.1);
      }
    }
  });

  it('recovers it from a slower feed that skips steps, and from a faster one that repeats them', () => {
    for (const publishMs of [1_000, 2_500, 200]) {
      const ticks = published(path('BTC', 7, 0.9), { count: Math.round(300_000 / publishMs), publishMs, phaseMs: 61 });
      const e = estimateVolatility(ticks, { windowMs: 300_000 });
      if (e.sigma === null) throw new Error(`${publishMs} ms: ${e.reason}`);
      expect(Math.abs(e.sigma - 0.9) / 0.9, `every ${publishMs} ms: ${e.sigma}`).toBeLessThan(0.1);
    }
  });

  it('floors a flat devnet path (volatility 0) instead of calling it riskless', () => {
    const e = estimateVolatility(published(path('BTC', 1, 0), { count: 100, publishMs: 500, phaseMs: 0 }));
    expect(e).toMatchObject({ raw: 0, clamped: 'floor' });
  });

  it('prices within 3¢ of N(d2) with the true volatility once the window is full', () => {
    // 100 seeded BTC paths; five minutes of feed, then a 1-minute epoch struck at the price then,
    // priced every 1.5 s until 5 s before expiry: the estimated σ against the path's own 0.6.
    let worst = 0n;
    for (let seed = 1; seed <= 100; seed++) {
      const ticks = published(path('BTC', seed), { count: 720, publishMs: 500, phaseMs: 137 });
      const strike = ticks[599]!.price;
      const expiryMs = ORIGIN + 137 + 599 * 500 + 60_000;
      for (let k = 600; k < 710; k += 3) {
        const nowMs = ORIGIN + 137 + k * 500;
        const fv = fairValueOf({ ticks: ticks.slice(0, k + 1), strike, expiryMs, nowMs });
        if (!fv.known) throw new Error(fv.reason);
        const truth = fairPrice({ spot: fv.spot, strike, secondsToExpiry: fv.secondsLeft, sigma: 0.6 });
        const diff = fv.price > truth ? fv.price - truth : truth - fv.price;
        if (diff > worst) worst = diff;
      }
    }
    expect(worst).toBeLessThanOrEqual(30_000n);
  });
});
