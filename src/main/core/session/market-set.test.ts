import { describe, expect, it } from 'vitest';
import { MARKETS_FOLLOWED, MarketSet } from './market-set';

const m = (id: number, symbol = `S${id}`) => ({ assetId: BigInt(id), symbol });

describe('MarketSet', () => {
  it('keeps a market taken off the list among those followed, and says which are new', () => {
    const set = new MarketSet([m(1), m(2)]);
    expect(set.setListed([m(2)])).toEqual([]);
    expect(set.listed.map((x) => x.assetId)).toEqual([2n]);
    expect(set.all.map((x) => x.assetId)).toEqual([1n, 2n]);
    expect(set.isListed(1n)).toBe(false);
    expect(set.setListed([m(3), m(2), m(1, 'renamed')])).toEqual([m(3)]);
    expect(set.entry(1n)?.symbol).toBe('renamed');
    expect(set.listed.map((x) => x.assetId)).toEqual([3n, 2n, 1n]);
  });

  it('follows markets met in the records, and lets the oldest unlisted go past the bound', () => {
    const set = new MarketSet([m(1)]);
    expect(set.meet(9n)).toBe(true);
    expect(set.meet(9n)).toBe(false);
    expect(set.entry(9n)?.symbol).toBe('asset 9');
    for (let i = 100; i < 100 + MARKETS_FOLLOWED; i++) set.meet(BigInt(i));
    expect(set.all).toHaveLength(MARKETS_FOLLOWED);
    expect(set.isListed(1n)).toBe(true);
    expect(set.entry(1n)).toBeDefined();
    expect(set.entry(9n)).toBeUndefined();
  });
});
