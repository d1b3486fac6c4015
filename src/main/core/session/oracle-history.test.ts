import { describe, expect, it } from 'vitest';
import { OracleHistory } from './oracle-history';

describe('OracleHistory', () => {
  it('keeps the newest ticks per symbol, oldest first', () => {
    const h = new OracleHistory(3);
    for (let i = 1; i <= 5; i++) h.push({ symbolId: '1', price: String(i), at: i });
    h.push({ symbolId: '2', price: '9', at: 9 });
    expect(h.list('1').map((t) => t.price)).toEqual(['3', '4', '5']);
    expect(h.latest('1')?.price).toBe('5');
    expect(h.list('2')).toHaveLength(1);
    expect(h.list('3')).toEqual([]);
    expect(h.latest('3')).toBeNull();
    h.push({ symbolId: '1', price: '6', at: 6 });
    expect(h.latest('1')?.price).toBe('6');
    expect(h.latest('2')?.price).toBe('9');
    expect(h.prices('1')).toEqual([
      { price: 4n, at: 4 },
      { price: 5n, at: 5 },
      { price: 6n, at: 6 },
    ]);
    expect(h.latestPrice('1')).toEqual({ price: 6n, at: 6 });
    expect(h.latestPrice('3')).toBeNull();
    // The price the feed parsed is kept as given.
    h.push({ symbolId: '2', price: '10', at: 10 }, 10n);
    expect(h.prices('2')).toEqual([
      { price: 9n, at: 9 },
      { price: 10n, at: 10 },
    ]);
  });
});
