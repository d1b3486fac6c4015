import { describe, expect, it } from 'vitest';
import { PriceProcess, type PriceProcessConfig } from './price-process';

const base: PriceProcessConfig = {
  symbolId: 1n,
  initialPrice: 65_000_000_000n,
  volatility: 0.6,
  stepMs: 1000,
  originMs: 1_780_000_000_000,
  seed: 42,
};

describe('PriceProcess', () => {
  it('is a pure function of seed, symbol and step', () => {
    const a = new PriceProcess(base);
    const b = new PriceProcess(base);
    const times = [0, 1, 5, 100, 3600].map((s) => base.originMs + s * 1000);
    expect(times.map((t) => a.priceAt(t))).toEqual(times.map((t) => b.priceAt(t)));
    // Jumping straight to a late step gives the same price as walking there.
    const c = new PriceProcess(base);
    expect(c.priceAt(base.originMs + 3600 * 1000)).toBe(a.priceAt(base.originMs + 3600 * 1000));
  });

  it('gives different symbols and seeds different paths', () => {
    const t = base.originMs + 600_000;
    const p1 = new PriceProcess(base).priceAt(t);
    const p2 = new PriceProcess({ ...base, symbolId: 2n }).priceAt(t);
    const p3 = new PriceProcess({ ...base, seed: 43 }).priceAt(t);
    expect(new Set([p1, p2, p3]).size).toBe(3);
  });

  it('starts at the initial price and moves with plausible per-step returns', () => {
    const p = new PriceProcess(base);
    expect(p.priceAt(base.originMs)).toBe(base.initialPrice);
    let prev = base.initialPrice;
    let moved = 0;
    for (let s = 1; s <= 2000; s++) {
      const next = p.priceAt(base.originMs + s * 1000);
      expect(next > 0n).toBe(true);
      // 60 % annual vol over one second is ~0.01 % per step: a 1 % jump would be a 100-sigma event.
      const rel = Math.abs(Number(next - prev)) / Number(prev);
      expect(rel).toBeLessThan(0.01);
      if (next !== prev) moved++;
      prev = next;
    }
    expect(moved).toBeGreaterThan(1900);
  });

  it('never returns to an earlier step and clamps times before the origin', () => {
    const p = new PriceProcess(base);
    const later = p.priceAt(base.originMs + 10_000);
    expect(p.priceAt(base.originMs + 5_000)).toBe(later);
    expect(new PriceProcess(base).priceAt(base.originMs - 1_000_000)).toBe(base.initialPrice);
  });

  it('with zero volatility stays at the initial price', () => {
    const p = new PriceProcess({ ...base, volatility: 0 });
    expect(p.priceAt(base.originMs + 1_000_000)).toBe(base.initialPrice);
  });

  it('rejects nonsense configuration', () => {
    expect(() => new PriceProcess({ ...base, initialPrice: 0n })).toThrow(RangeError);
    expect(() => new PriceProcess({ ...base, stepMs: 0 })).toThrow(RangeError);
    expect(() => new PriceProcess({ ...base, volatility: -1 })).toThrow(RangeError);
  });
});
