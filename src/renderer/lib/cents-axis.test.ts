import { describe, expect, it } from 'vitest';
import { centsRange } from './cents-axis';

/** What the chart shows for a reported range with these margins. */
const visible = (r: { minValue: number; maxValue: number }, top: number, bottom: number) => {
  const span = (r.maxValue - r.minValue) / (1 - top - bottom);
  return { low: r.minValue - bottom * span, high: r.maxValue + top * span };
};

describe('the contract chart axis', () => {
  it('never shows a price above 100¢ or below 0¢, margins included', () => {
    for (const [lo, hi] of [
      [97, 99.9],
      [0.1, 3],
      [0.1, 99.9],
      [50, 50],
      [99.9, 99.9],
      [0.1, 0.1],
    ] as const) {
      const r = centsRange(lo, hi, 0.1, 0.1);
      const v = visible(r, 0.1, 0.1);
      expect(v.low).toBeGreaterThanOrEqual(-1e-9);
      expect(v.high).toBeLessThanOrEqual(100 + 1e-9);
      // Every point is still on the chart.
      expect(v.low).toBeLessThanOrEqual(lo + 1e-9);
      expect(v.high).toBeGreaterThanOrEqual(hi - 1e-9);
    }
  });

  it('keeps a flat line in the middle of a couple of cents of axis', () => {
    const v = visible(centsRange(50, 50, 0.1, 0.1), 0.1, 0.1);
    expect(v.high - v.low).toBeCloseTo(2);
    expect((v.high + v.low) / 2).toBeCloseTo(50);
  });
});
