import { describe, expect, it } from 'vitest';
import { packAssetId } from '../../../shared/protocol';
import {
  fairValueOf,
  VOLATILITY_DEFAULTS,
  type Asset,
  type EpochWatcher,
  type MarketFeed,
  type MarketUpdate,
  type OracleFeed,
  type PriceTick,
} from '../../../client';
import type { MarketSummary } from '../../../shared/bridge';
import { DEVNET_DEPLOYMENT } from '../../settings';
import { createEventHub } from '../event-hub';
import { FAIR_KEPT_MS, MarketBoard, type MarketBoardOptions } from './market-board';
import { ORACLE_HISTORY_TICKS } from './oracle-history';
import { FAIR_AHEAD_MS, FAIR_FRESH_MS } from '../risk/figures-source';
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
    for (let e = 0n; e < CURRENT; e++) {
      const stamp = b.valuation;
      await b.readResolution(ASSET, e);
      // A resolution learnt may settle a position the gate values: the stamp moves with it.
      expect(b.valuation).toBeGreaterThan(stamp);
    }
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

describe('MarketBoard fair value', () => {
  const PERIOD = 60n;
  const START = 1_700_000_000n;
  const EPOCH = 10n;
  /** Epoch 10 runs [START + 600 s, START + 660 s). */
  const EXPIRY_MS = Number(START + (EPOCH + 1n) * PERIOD) * 1000;
  const STRIKE = 65_000_000_000n;

  /** A board whose oracle feed, epoch and clock the test drives; every market event is recorded. */
  function fairBoard() {
    let onPrice: (p: { symbolId: bigint; price: bigint; tsMs: number; receivedAt: number }) => void = () => {};
    const oracleFeed = {
      subscribe: (_s: bigint, h: { onPrice: typeof onPrice }) => {
        onPrice = (p) => h.onPrice(p);
        return { unsubscribe: () => Promise.resolve() };
      },
    } as unknown as OracleFeed;
    const marketFeed = {
      subscribe: () => ({ unsubscribe: () => Promise.resolve() }),
    } as unknown as MarketFeed;
    let epoch = EPOCH;
    const asset = (): Asset =>
      ({
        assetId: ASSET,
        epoch,
        strikePrice: STRIKE,
        isResolved: false,
        ledger: '0x' + '11'.repeat(20),
      }) as unknown as Asset;
    const epochs = { current: () => epoch, asset } as unknown as EpochWatcher;
    const reader = {
      getTopOfBook: () => Promise.reject(new Error('no book')),
    } as unknown as MarketBoardOptions['reader'];
    const events = createEventHub();
    const emitted: MarketSummary[][] = [];
    events.on('markets', (list) => emitted.push(list));
    // The feed's 240th tick, 2 minutes on, lands 30 s before expiry.
    let now = EXPIRY_MS - 150_000;
    const b = new MarketBoard({
      deployment: DEVNET_DEPLOYMENT,
      markets: [{ assetId: ASSET, symbol: 'BTC' }],
      reader,
      epochs,
      marketFeed,
      oracleFeed,
      events,
      ownLevels: () => ({ bids: new Map(), asks: new Map() }),
      onMarketsChanged: () => {},
      now: () => now,
    });
    b.subscribeFeeds({ onUpdate: () => {}, onResyncRequired: () => {}, onOracle: () => {}, onOracleStale: () => {} });
    const ticks: PriceTick[] = [];
    /** One oracle price every 500 ms after the last (a zig-zag of ±0.04 %); the clock follows the newest. */
    const feed = (count: number): void => {
      for (let i = 0; i < count; i++) {
        const at = (ticks.at(-1)?.at ?? now) + 500;
        const price = ticks.length % 2 === 0 ? STRIKE + 26_000_000n : STRIKE;
        ticks.push({ price, at });
        onPrice({ symbolId: 1n, price, tsMs: at, receivedAt: at });
        now = Math.max(now, at);
      }
    };
    return {
      board: b,
      feed,
      ticks,
      emitted,
      now: () => now,
      setNow: (ms: number) => (now = ms),
      setEpoch: (e: bigint) => (epoch = e),
    };
  }

  it('is N(d2) of the oracle ticks it kept, by the exchange clock it was given', () => {
    const f = fairBoard();
    f.feed(240); // the clock ends 30 s before expiry
    const fv = f.board.fairValue(ASSET, EPOCH);
    if (!fv.known) throw new Error(fv.reason);
    expect(fv).toEqual(
      fairValueOf({ ticks: f.ticks, strike: STRIKE, expiryMs: EXPIRY_MS, nowMs: EXPIRY_MS - 30_000, symbol: 'BTC' }),
    );
    expect(fv.secondsLeft).toBe(30);
    expect(fv.strike).toBe(STRIKE);
    // The same ticks, a later clock: less time left.
    f.setNow(EXPIRY_MS - 25_000);
    const later = f.board.fairValue(ASSET, EPOCH);
    expect(later.known && later.secondsLeft).toBe(25);
  });

  it('moves its valuation stamp with whatever may change a fair value, and keeps each value FAIR_KEPT_MS − FAIR_AHEAD_MS after a renewal ahead', async () => {
    const f = fairBoard();
    f.feed(120);
    // A renewal ahead of time, as the session's timer does: any value older than FAIR_AHEAD_MS is made anew.
    f.board.fairValue(ASSET, EPOCH, FAIR_AHEAD_MS);
    const stamp = f.board.valuation;
    const renewed = f.board.fairValue(ASSET, EPOCH);
    // Until FAIR_FRESH_MS later, the same answer and the same stamp: what the gate's figures rely on.
    f.setNow(f.now() + FAIR_FRESH_MS - 1);
    expect(f.board.fairValue(ASSET, EPOCH)).toBe(renewed);
    expect(f.board.valuation).toBe(stamp);
    // A value computed anew moves it.
    f.setNow(f.now() + FAIR_KEPT_MS);
    f.board.fairValue(ASSET, EPOCH);
    const afterRecompute = f.board.valuation;
    expect(afterRecompute).toBeGreaterThan(stamp);
    // So do a tick, an epoch rolling, a resolution learnt and resolutions dropped.
    const moves: [string, () => unknown][] = [
      ['tick', () => f.feed(1)],
      ['epoch', () => f.board.noteEpoch()],
      ['forget', () => f.board.forgetEpochsBefore(ASSET, 0n)],
    ];
    for (const [what, move] of moves) {
      const before = f.board.valuation;
      await move();
      expect({ what, moved: f.board.valuation > before }).toEqual({ what, moved: true });
    }
  });

  it('prices from the newest tick once one arrives (the kept estimate is dropped with each tick)', () => {
    const f = fairBoard();
    f.feed(120);
    const before = f.board.fairValue(ASSET, EPOCH);
    f.feed(1);
    const after = f.board.fairValue(ASSET, EPOCH);
    if (!before.known || !after.known) throw new Error('unknown');
    expect(after.samples).toBe(121);
    expect(after.spot).toBe(f.ticks.at(-1)!.price);
    expect(after.spot).not.toBe(before.spot);
  });

  it('says why there is none: too few ticks, a stale oracle by the exchange clock, an epoch not trading', () => {
    const f = fairBoard();
    expect(f.board.fairValue(ASSET, EPOCH)).toEqual({
      known: false,
      reason: 'No fair value yet: no oracle price for BTC has arrived.',
    });
    f.feed(3);
    expect(f.board.fairValue(ASSET, EPOCH)).toEqual({
      known: false,
      reason: 'No fair value yet: the oracle has sent 3 prices for BTC, 60 are needed.',
    });
    f.feed(60);
    expect(f.board.fairValue(ASSET, EPOCH).known).toBe(true);
    f.setNow(f.now() + 12_000);
    expect(f.board.fairValue(ASSET, EPOCH)).toEqual({
      known: false,
      reason: 'No fair value: the last oracle price for BTC is 12 s old, over 10 s.',
    });
    expect(f.board.fairValue(ASSET, EPOCH - 1n)).toEqual({
      known: false,
      reason: 'No fair value: BTC 1m #9 has ended, and its resolution price decides it.',
    });
    expect(f.board.fairValue(ASSET, EPOCH + 1n).known).toBe(false);
    expect(f.board.fairValue(ASSET + 1n, EPOCH).known).toBe(false);
  });

  it('puts the fair value in the market list, rounded to the 0.1¢ shown, or the sentence why there is none', async () => {
    const f = fairBoard();
    f.feed(5);
    await f.board.refreshMarkets();
    expect(f.emitted.at(-1)?.[0]).toMatchObject({
      fairPrice: null,
      fairNote: 'No fair value yet: the oracle has sent 5 prices for BTC, 60 are needed.',
      fairSigma: null,
    });
    f.feed(60);
    await f.board.refreshMarkets();
    const row = f.emitted.at(-1)![0]!;
    const fv = f.board.fairValue(ASSET, EPOCH);
    if (!fv.known) throw new Error(fv.reason);
    expect(row.fairNote).toBeNull();
    expect(BigInt(row.fairPrice!) % 1_000n).toBe(0n);
    expect(BigInt(row.fairPrice!) - fv.price).toBeLessThanOrEqual(500n);
    expect(fv.price - BigInt(row.fairPrice!)).toBeLessThan(500n);
    expect(row.fairSigma).toBe(Math.round(fv.sigma * 100) / 100);
  });

  it('does not re-send the market list for time passing that leaves the shown fair value as it is', async () => {
    const f = fairBoard();
    f.feed(121); // the newest price above the strike: time left moves the value
    await f.board.refreshMarkets();
    const sent = f.emitted.length;
    const fed = f.now();
    f.setNow(fed + 5);
    await f.board.refreshMarkets();
    expect(f.emitted.length).toBe(sent);
    // Far enough on for the rounded value to move, it is sent again.
    f.setNow(fed + 9_000);
    await f.board.refreshMarkets();
    expect(f.emitted.length).toBe(sent + 1);
    expect(f.emitted.at(-1)![0]!.fairPrice).not.toBe(f.emitted.at(-2)![0]!.fairPrice);
  });

  it('keeps no more oracle ticks than its ring holds, enough for the volatility window', () => {
    const f = fairBoard();
    f.feed(ORACLE_HISTORY_TICKS + 50);
    expect(f.board.oracleHistory('1')).toHaveLength(ORACLE_HISTORY_TICKS);
    expect(ORACLE_HISTORY_TICKS * 500).toBeGreaterThanOrEqual(VOLATILITY_DEFAULTS.windowMs);
  });
});
