import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer } from './coalescer';

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

describe('createCoalescer', () => {
  it('sends the first update at once and folds a burst into one trailing update with the latest value', () => {
    const out: number[] = [];
    const c = createCoalescer<number>(
      (v) => out.push(v),
      30,
      () => Date.now(),
    );
    c.push(1);
    expect(out).toEqual([1]);
    for (let i = 2; i <= 10; i++) c.push(i);
    expect(out).toEqual([1]);
    vi.advanceTimersByTime(34);
    expect(out).toEqual([1, 10]);
  });

  it('never exceeds 30 a second under a flood, and ends on the last value', () => {
    const out: { v: number; at: number }[] = [];
    const c = createCoalescer<number>(
      (v) => out.push({ v, at: Date.now() }),
      30,
      () => Date.now(),
    );
    for (let i = 0; i < 1000; i++) {
      c.push(i); // one update a millisecond for a second
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(100);
    // At most 30 in the first second (t = 0 … 999 ms), and close to it: nothing starves.
    const firstSecond = out.filter((e) => e.at < 1000).length;
    expect(firstSecond).toBeLessThanOrEqual(30);
    expect(firstSecond).toBeGreaterThanOrEqual(29);
    for (let i = 1; i < out.length; i++) expect(out[i]!.at - out[i - 1]!.at).toBeGreaterThanOrEqual(1000 / 30);
    expect(out.at(-1)?.v).toBe(999);
  });

  it('drops the pending update when disposed', () => {
    const out: number[] = [];
    const c = createCoalescer<number>(
      (v) => out.push(v),
      30,
      () => Date.now(),
    );
    c.push(1);
    c.push(2);
    c.dispose();
    vi.advanceTimersByTime(1000);
    expect(out).toEqual([1]);
  });
});
