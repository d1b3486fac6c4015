import { describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../../shared/protocol';
import { silentLogger } from '../../log';
import { TakerFills } from './taker-fills';

const MASTER = '0x00000000000000000000000000000000000000aa' as Address;
const id = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const quiet = silentLogger;
/** A deployment that does not serve GET /fills: every fill is recorded at its limit. */
const noFillsRoute = { getFills: () => Promise.resolve(null) };

const order = (n: number, epoch: bigint) => ({
  assetId: 7n,
  epoch,
  orderId: id(n),
  side: 'buy' as const,
  limit: 400_000n,
  filled: 1_000_000n,
});

describe('TakerFills bounds', () => {
  it('keeps the newest `perMarket` fills of each market', async () => {
    const fills = new TakerFills({ reader: noFillsRoute, logger: quiet, perMarket: 3 });
    for (let n = 1; n <= 8; n++) await fills.record(MASTER, order(n, 1n));
    await fills.record(MASTER, order(100, 2n));
    expect(
      fills
        .list()
        .filter((f) => f.epoch === '1')
        .map((f) => f.orderId),
    ).toEqual([id(6), id(7), id(8)]);
    expect(fills.list().filter((f) => f.epoch === '2')).toHaveLength(1);
    expect(fills.list()[0]).toMatchObject({ priceIsLimit: true, price: '400000', size: '1000000', liquidity: 'taker' });
  });

  it('keeps the newest `total` fills of all markets together', async () => {
    const fills = new TakerFills({ reader: noFillsRoute, logger: quiet, perMarket: 100, total: 5 });
    for (let n = 1; n <= 12; n++) await fills.record(MASTER, order(n, BigInt(n)));
    expect(fills.list().map((f) => f.epoch)).toEqual(['8', '9', '10', '11', '12']);
  });
});
