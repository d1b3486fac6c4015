import { describe, expect, it } from 'vitest';
import { packAssetId } from '../../../shared/protocol';
import { marketLabel } from './market-name';

describe('market names', () => {
  it('names a market by symbol, timeframe and epoch', () => {
    const assetId = packAssetId({
      id: 1n,
      marketType: 1n,
      startTime: 1_700_000_000n,
      periodLength: 60n,
      strike: 0n,
      range: 0n,
    });
    expect(marketLabel('BTC', assetId, 3n)).toBe('BTC 1m #3');
  });
});
