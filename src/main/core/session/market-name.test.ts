import { describe, expect, it } from 'vitest';
import { packAssetId } from '../../../shared/protocol';
import { dollars, marketLabel } from './market-name';

describe('market names and dollars', () => {
  it('names a market by symbol, timeframe and epoch', () => {
    const assetId = packAssetId({ id: 1n, marketType: 1n, startTime: 1_700_000_000n, periodLength: 60n, strike: 0n, range: 0n });
    expect(marketLabel('BTC', assetId, 3n)).toBe('BTC 1m #3');
  });
  it('writes dollars with cents, exactly', () => {
    expect(dollars(3_800_000n)).toBe('$3.80');
    expect(dollars(0n)).toBe('$0.00');
    expect(dollars(1_234n)).toBe('$0.001234');
    expect(dollars(-16_110_000n)).toBe('-$16.11');
    expect(dollars(1_234_567_000_000n)).toBe('$1,234,567.00');
  });
});
