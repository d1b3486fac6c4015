import { describe, expect, it } from 'vitest';
import { estimateVolatility, VOLATILITY_DEFAULTS, type PriceTick } from './volatility';

const MS_PER_YEAR = 365 * 24 * 3600 * 1000;

/** A seeded geometric Brownian path sampled every `stepMs`, stamped in whole seconds as the devnet's oracle does. */
function gbmPath(opts: { sigma: number; seed: number; count: number; stepMs?: number; start?: bigint }): PriceTick[] {
  const stepMs = opts.stepMs ?? 500;
  let state = opts.seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const stepSigma = opts.sigma * Math.sqrt(stepMs / MS_PER_YEAR);
  let log = Math.log(Number(opts.start ?? 65_000_000_000n));
  const ticks: PriceTick[] = [];
  for (let i = 0; i < opts.count; i++) {
    const at = 1_700_000_000_000 + i * stepMs;
    ticks.push({ price: BigInt(Math.round(Math.exp(log))), at: Math.floor(at / 1000) * 1000 });
    const z = Math.sqrt(-2 * Math.log(Math.max(uniform(), Number.EPSILON))) * Math.cos(2 * Math.PI * uniform());
    log += -0.5 * stepSigma * stepSigma + stepSigma * z;
  }
  return ticks;
}

const flat = (count: number, stepMs = 500): PriceTick[] =>
  Array.from({ length: count }, (_, i) => ({ price: 100_000_000n, at: 1_700_000_000_000 + i * stepMs }));

describe('estimateVolatility', () => {
  it('recovers the volatility of seeded paths within 10 % from a full window', () => {
    for (const [sigma, seed] of [
      [0.3, 1],
      [0.6, 2],
      [0.7, 3],
      [1.5, 4],
    ] as const) {
      const e = estimateVolatility(gbmPath({ sigma, seed, count: 600 }));
      if (e.sigma === null) throw new Error(`no estimate: ${e.reason}`);
      expect(e.samples).toBe(600);
      expect(Math.abs(e.sigma - sigma) / sigma).toBeLessThan(0.1);
      expect(e.clamped).toBeNull();
    }
  });

  it('uses only the window before the newest tick', () => {
    // Ten quiet minutes then five wild ones: the default window sees only the wild part.
    const quiet = gbmPath({ sigma: 0.2, seed: 5, count: 1200 });
    const lastQuiet = quiet.at(-1)!;
    const wild = gbmPath({ sigma: 1.2, seed: 6, count: 600, start: lastQuiet.price }).map((t) => ({
      price: t.price,
      at: t.at - 1_700_000_000_000 + lastQuiet.at + 1000,
    }));
    const e = estimateVolatility([...quiet, ...wild]);
    if (e.sigma === null) throw new Error(e.reason);
    // The wild part, and the quiet ticks stamped in the window's first second.
    expect(e.samples).toBeGreaterThanOrEqual(600);
    expect(e.samples).toBeLessThanOrEqual(603);
    expect(Math.abs(e.sigma - 1.2) / 1.2).toBeLessThan(0.1);
    const all = estimateVolatility([...quiet, ...wild], { windowMs: 60 * 60_000 });
    expect(all.sigma).not.toBeNull();
    expect(all.sigma!).toBeLessThan(e.sigma);
  });

  it('says too_few_ticks below the minimum, too_short when the ticks span too little time', () => {
    expect(estimateVolatility([])).toMatchObject({ sigma: null, reason: 'too_few_ticks', samples: 0 });
    const few = gbmPath({ sigma: 0.6, seed: 7, count: VOLATILITY_DEFAULTS.minTicks - 1, stepMs: 1000 });
    expect(estimateVolatility(few)).toMatchObject({
      sigma: null,
      reason: 'too_few_ticks',
      samples: VOLATILITY_DEFAULTS.minTicks - 1,
    });
    expect(
      estimateVolatility(gbmPath({ sigma: 0.6, seed: 7, count: VOLATILITY_DEFAULTS.minTicks, stepMs: 1000 })).sigma,
    ).not.toBeNull();
    // 80 ticks 100 ms apart cover 8 s (stamped in whole seconds: 7 s).
    const bunched = gbmPath({ sigma: 0.6, seed: 8, count: 80, stepMs: 100 });
    expect(estimateVolatility(bunched)).toMatchObject({ sigma: null, reason: 'too_short', samples: 80 });
  });

  it('says stale when the newest tick is older than staleAfterMs by the clock it is given', () => {
    const ticks = gbmPath({ sigma: 0.6, seed: 9, count: 100 });
    const newest = ticks.at(-1)!.at;
    expect(estimateVolatility(ticks, { nowMs: newest + 10_000 }).sigma).not.toBeNull();
    expect(estimateVolatility(ticks, { nowMs: newest + 10_001 })).toMatchObject({
      sigma: null,
      reason: 'stale',
      ageMs: 10_001,
    });
    expect(estimateVolatility(ticks, { nowMs: newest + 60_000, staleAfterMs: 120_000 }).sigma).not.toBeNull();
  });

  it('floors a flat feed and caps a wild one, saying which', () => {
    expect(estimateVolatility(flat(100))).toMatchObject({ sigma: VOLATILITY_DEFAULTS.floor, raw: 0, clamped: 'floor' });
    const wild = estimateVolatility(gbmPath({ sigma: 20, seed: 10, count: 200 }));
    expect(wild).toMatchObject({ sigma: VOLATILITY_DEFAULTS.cap, clamped: 'cap' });
    expect(wild.sigma !== null && wild.raw > VOLATILITY_DEFAULTS.cap).toBe(true);
    expect(estimateVolatility(flat(100), { floor: 0.25 }).sigma).toBe(0.25);
  });

  it('prices a single bad print at the cap, not beyond it', () => {
    const ticks = flat(100);
    ticks[50] = { ...ticks[50]!, price: 110_000_000n };
    expect(estimateVolatility(ticks)).toMatchObject({ sigma: VOLATILITY_DEFAULTS.cap, clamped: 'cap' });
  });

  it('takes repeated prices and repeated stamps as they come (zero returns, no division by zero)', () => {
    const path = gbmPath({ sigma: 0.6, seed: 11, count: 600 });
    // Every tick sent twice, as a publisher faster than the price process does.
    const doubled = path.flatMap((t) => [t, t]);
    const a = estimateVolatility(path);
    const b = estimateVolatility(doubled);
    expect(a.sigma).not.toBeNull();
    expect(b.sigma).toBe(a.sigma);
  });

  it('skips non-positive prices rather than taking their logarithm', () => {
    const ticks = gbmPath({ sigma: 0.6, seed: 12, count: 100 });
    const withZero = [...ticks.slice(0, 50), { price: 0n, at: ticks[50]!.at }, ...ticks.slice(50)];
    const e = estimateVolatility(withZero);
    expect(e.sigma).not.toBeNull();
    expect(Number.isFinite(e.sigma)).toBe(true);
    expect(e.samples).toBe(100);
  });
});
