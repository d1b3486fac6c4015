import { describe, expect, it } from 'vitest';
import { unpackAssetId } from '../../shared/protocol';
import {
  defaultCatalog,
  defineMarket,
  DEVNET_SYMBOLS,
  epochAt,
  epochEnd,
  epochStart,
  epochStrike,
  indexCatalog,
  upWins,
} from './catalog';

describe('market catalog', () => {
  it('packs default markets with the oracle symbol, up/down type, aligned start and period', () => {
    const c = defaultCatalog(1_790_000_123n);
    expect(c.markets.map((m) => [m.symbol, m.periodLength])).toEqual([
      ['BTC', 60n],
      ['BTC', 300n],
      ['ETH', 300n],
    ]);
    for (const m of c.markets) {
      expect(unpackAssetId(m.assetId)).toEqual({
        id: m.symbolId,
        marketType: 1n,
        startTime: 1_790_000_100n,
        periodLength: m.periodLength,
        strike: 0n,
        range: 0n,
        reserved: 0n,
      });
    }
    expect(indexCatalog(c).markets.size).toBe(3);
    expect(() => indexCatalog({ symbols: c.symbols, markets: [c.markets[0]!, c.markets[0]!] })).toThrow(/twice/);
  });

  it('computes epochs as half-open periods and applies the strike rule', () => {
    const m = defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: 1000n, periodLength: 60n });
    expect(epochAt(m, 999n)).toBeNull();
    expect(epochAt(m, 1000n)).toBe(0n);
    expect(epochAt(m, 1059n)).toBe(0n);
    expect(epochAt(m, 1060n)).toBe(1n);
    expect([epochStart(m, 2n), epochEnd(m, 2n)]).toEqual([1120n, 1180n]);
    const seen: [bigint, number][] = [];
    expect(epochStrike(m, 2n, (s, t) => (seen.push([s, t]), 123n))).toBe(123n);
    expect(seen).toEqual([[1n, 1_120_000]]);
    const fixed = defineMarket({ symbol: DEVNET_SYMBOLS.ETH, startTime: 1000n, periodLength: 60n, strike: 5n });
    expect(epochStrike(fixed, 2n, () => 999n)).toBe(5n);
    expect([upWins(10n, 10n), upWins(9n, 10n)]).toEqual([true, false]);
  });
});
