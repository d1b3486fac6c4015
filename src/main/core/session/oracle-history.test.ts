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
  });
});
