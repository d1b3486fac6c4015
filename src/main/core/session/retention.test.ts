import { describe, expect, it } from 'vitest';
import { BoundedMap, EPOCHS_KEPT, forgetEpochsBefore, oldestKept } from './retention';

describe('BoundedMap', () => {
  it('holds at most its limit, the oldest entry going first', () => {
    const m = new BoundedMap<number, string>(3);
    for (let i = 0; i < 10; i++) m.set(i, String(i));
    expect(m.size).toBe(3);
    expect([0, 6, 7, 8, 9].map((i) => m.get(i))).toEqual([undefined, undefined, '7', '8', '9']);
  });

  it('drops evictable entries before the others, and the oldest of all when none is', () => {
    const kept = new Set([0, 1]);
    const m = new BoundedMap<number, string>(3, (k) => !kept.has(k));
    for (let i = 0; i < 10; i++) m.set(i, String(i));
    expect([0, 1, 8, 9].map((i) => m.get(i))).toEqual(['0', '1', undefined, '9']);
    expect(m.size).toBe(3);
    kept.add(9);
    kept.add(10);
    m.set(10, '10');
    // Every entry is kept now: the bound holds anyway, the oldest goes.
    expect(m.size).toBe(3);
    expect(m.get(0)).toBeUndefined();
  });

  it('a renewed key counts as the newest', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('a', 3);
    m.set('c', 4);
    expect([m.get('a'), m.get('b'), m.get('c')]).toEqual([3, undefined, 4]);
  });
});

describe('epoch retention', () => {
  it('keeps the current epoch and EPOCHS_KEPT before it', () => {
    expect(oldestKept(100n)).toBe(100n - EPOCHS_KEPT);
    expect(oldestKept(3n)).toBe(0n);
  });

  it('forgets one asset’s keys of older epochs only', () => {
    const m = new Map<string, number>();
    for (let e = 0; e < 20; e++) {
      m.set(`7:${e}`, e);
      m.set(`70:${e}`, e);
    }
    forgetEpochsBefore(m, 7n, 15n);
    expect([...m.keys()].filter((k) => k.startsWith('7:'))).toEqual(['7:15', '7:16', '7:17', '7:18', '7:19']);
    expect([...m.keys()].filter((k) => k.startsWith('70:'))).toHaveLength(20);
  });
});

describe('BoundedMap and the entry just set', () => {
  it('never evicts the entry it was just given, even when that is the only evictable one', () => {
    const open = new Set([1, 2, 3]);
    const m = new BoundedMap<number, string>(3, (k) => !open.has(k));
    for (const k of [1, 2, 3, 4]) m.set(k, String(k));
    expect([1, 2, 3, 4].map((k) => m.get(k))).toEqual([undefined, '2', '3', '4']);
  });
});
