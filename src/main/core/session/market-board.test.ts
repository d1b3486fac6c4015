import { describe, expect, it } from 'vitest';
import { packAssetId } from '../../../shared/protocol';
import type { Asset, EpochWatcher, MarketFeed, MarketUpdate, OracleFeed } from '../../../client';
import { DEVNET_DEPLOYMENT } from '../../settings';
import { createEventHub } from '../event-hub';
import { MarketBoard, type MarketBoardOptions } from './market-board';
import { oldestKept } from './retention';

const ASSET = packAssetId({
  id: 1n,
  marketType: 1n,
  startTime: 1_700_000_000n,
  periodLength: 60n,
  strike: 0n,
  range: 0n,
});
const CURRENT = 40n;

/** A board over a market feed the test drives and a reader where every past epoch resolved. */
function board(): { board: MarketBoard; trade: (epoch: bigint) => void } {
  let onUpdate: (u: MarketUpdate) => void = () => {};
  const marketFeed = {
    subscribe: (_a: bigint, h: { onUpdate(u: MarketUpdate): void }) => {
      onUpdate = (u) => h.onUpdate(u);
      return { unsubscribe: () => Promise.resolve() };
    },
  } as unknown as MarketFeed;
  const oracleFeed = { subscribe: () => ({ unsubscribe: () => Promise.resolve() }) } as unknown as OracleFeed;
  const epochs = { current: () => CURRENT, asset: () => undefined } as unknown as EpochWatcher;
  const reader = {
    getAssetAtEpoch: (_a: bigint, epoch: bigint) =>
      Promise.resolve({
        epoch,
        strikePrice: 1n,
        resolutionPrice: 2n,
        isResolved: true,
        expiration: 1n,
      } as unknown as Asset),
    getResolutionPrice: () => Promise.resolve({ ts: 1 }),
  } as unknown as MarketBoardOptions['reader'];
  const b = new MarketBoard({
    deployment: DEVNET_DEPLOYMENT,
    markets: [{ assetId: ASSET, symbol: 'BTC' }],
    reader,
    epochs,
    marketFeed,
    oracleFeed,
    events: createEventHub(),
    ownLevels: () => ({ bids: new Map(), asks: new Map() }),
    onMarketsChanged: () => {},
  });
  b.subscribeFeeds({ onUpdate: () => {}, onResyncRequired: () => {}, onOracle: () => {}, onOracleStale: () => {} });
  const trade = (epoch: bigint): void =>
    onUpdate({
      type: 'trade',
      assetId: ASSET,
      epoch,
      seqId: 1n,
      data: { orderId: '0x01', side: false, fill: 1n, fillPrice: 500_000n },
    } as unknown as MarketUpdate);
  return { board: b, trade };
}

describe('MarketBoard epoch bounds', () => {
  it('drops the last trades and resolutions of epochs before the kept ones on roll-over', async () => {
    const { board: b, trade } = board();
    for (let e = 0n; e <= CURRENT; e++) trade(e);
    for (let e = 0n; e < CURRENT; e++) await b.readResolution(ASSET, e);
    expect(b.lastTrade(ASSET, 0n)).not.toBeNull();
    expect(await b.resolvedEpochs(ASSET, 0)).toHaveLength(Number(CURRENT));

    b.forgetEpochsBefore(ASSET, oldestKept(CURRENT));

    const oldest = oldestKept(CURRENT);
    expect(b.lastTrade(ASSET, oldest - 1n)).toBeNull();
    expect(b.lastTrade(ASSET, oldest)).not.toBeNull();
    expect(b.lastTrade(ASSET, CURRENT)?.price).toBe('500000');
    const resolved = await b.resolvedEpochs(ASSET, 0);
    expect(resolved).toHaveLength(Number(CURRENT - oldest));
    expect(resolved.at(-1)?.epoch).toBe(oldest.toString());
  });

  it('keeps a bounded trade tape however many epochs traded', () => {
    const { board: b, trade } = board();
    for (let e = 0n; e < 200n; e++) trade(e);
    expect(b.trades(ASSET.toString(), '0')).toEqual([]);
    expect(b.trades(ASSET.toString(), '199')).toHaveLength(1);
  });
});
