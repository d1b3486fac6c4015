// The terminal's fair value and the liquidity bot's own agree within 3¢ on a running devnet.
//
// The bot prices each market with its oracle symbol's configured volatility (devnet.ts
// botVolatility); the terminal estimates σ from the oracle ticks it received (docs/fair-value.md).
// Two comparisons, after the terminal has held a minute and a half of ticks:
// - matched: for each price the bot made, the client library's fairValueOf over the ticks the
//   terminal received (markets.oracleHistory) up to the bot's spot, at the bot's clock: only σ differs;
// - live: the market list's fair value (MarketBoard.fairValue, by the terminal's exchange clock)
//   against the bot's latest, when both priced from the same newest oracle price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairValueOf } from '../../src/client';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { MarketSummary, OracleTick } from '../../src/shared/bridge';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import { coreCalls } from '../core/core-calls';

/** 3¢ in micro-dollars: the agreement asked for. */
const AGREE = 30_000n;
/** Ticks the terminal holds before comparing: 90 s of the devnet's two a second. */
const WARM_TICKS = 180;
const SAMPLE_MS = 20_000;

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
const { ok } = coreCalls(
  () => t,
  () => [],
);

beforeAll(async () => {
  temp = await startTempDevnet('fair-agree-', {
    bots: 1,
    demoAccounts: 1,
    blockTimeMs: 500,
    // BTC (60 %) in 1-minute epochs, ETH (70 %) in 5-minute ones: two volatilities, two horizons.
    markets: (nowSec) => ({
      symbols: [DEVNET_SYMBOLS.BTC, DEVNET_SYMBOLS.ETH],
      markets: [
        defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: nowSec - (nowSec % 60n), periodLength: 60n }),
        defineMarket({ symbol: DEVNET_SYMBOLS.ETH, startTime: nowSec - (nowSec % 300n), periodLength: 300n }),
      ],
    }),
  });
  devnet = temp.devnet;
  const entries = devnet.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol }));
  t = await createTestCore({
    trading: { markets: devnetMarkets(entries), pollMs: 250, healthMs: 1000, balancePollMs: 1000 },
  });
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
}, 120_000);

afterAll(async () => {
  t?.close();
  await temp?.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('fair value on a devnet', () => {
  it('the terminal and the liquidity bot agree within 3¢', { timeout: 240_000 }, async () => {
    const bot = devnet.bots.list[0]!;
    const history = (symbolId: string): Promise<OracleTick[]> => ok<OracleTick[]>('markets.oracleHistory', symbolId);
    // Warm-up: the terminal receives the oracle like any client; before the estimator's minimum it
    // says why it has no fair value.
    let notes = new Set<string>();
    for (;;) {
      const list = await ok<MarketSummary[]>('markets.list').catch(() => [] as MarketSummary[]);
      for (const m of list) if (m.fairNote) notes.add(m.fairNote);
      const counts = await Promise.all(['1', '2'].map(async (s) => (await history(s)).length));
      if (list.length === 2 && counts.every((n) => n >= WARM_TICKS)) break;
      await sleep(1_000);
    }
    expect(
      [...notes].some((n) =>
        /^No fair value yet: the oracle has sent \d+ prices? for (BTC|ETH), 60 are needed\.$/.test(n),
      ),
    ).toBe(true);
    notes = new Set();

    const seen = new Map<string, number>();
    let matched = 0;
    let live = 0;
    const until = Date.now() + SAMPLE_MS;
    while (Date.now() < until) {
      const list = await ok<MarketSummary[]>('markets.list');
      for (const m of list) {
        const own = bot.lastFair(BigInt(m.assetId));
        if (!own || own.epoch.toString() !== m.epoch || own.secondsLeft < 5) continue;
        expect(own.strike.toString()).toBe(m.strike);
        const ticks = await history(m.symbolId);

        // Live: the list's value against the bot's, both from the same newest oracle price (the
        // list's fair value is refreshed with each price it shows).
        if (m.fairPrice !== null && m.oraclePrice === own.spot.toString() && Date.now() - own.at < 1_000) {
          const diff = abs(BigInt(m.fairPrice) - own.fair);
          expect(diff, `${m.symbol} live: terminal ${m.fairPrice}, bot ${own.fair}`).toBeLessThanOrEqual(AGREE);
          live++;
        }

        // Matched: the same spot and clock as the bot's, the terminal's ticks up to that spot.
        if (seen.get(m.assetId) === own.at) continue;
        seen.set(m.assetId, own.at);
        let end = ticks.length - 1;
        while (end >= 0 && !(BigInt(ticks[end]!.price) === own.spot && ticks[end]!.at <= own.at)) end--;
        if (end < 0) continue; // the bot priced from a REST mark between two feed messages
        const fv = fairValueOf({
          ticks: ticks.slice(0, end + 1).map((x) => ({ price: BigInt(x.price), at: x.at })),
          strike: BigInt(m.strike),
          expiryMs: m.expiration,
          nowMs: own.at,
          symbol: m.symbol,
        });
        if (!fv.known) throw new Error(fv.reason);
        const diff = abs(fv.price - own.fair);
        expect(
          diff,
          `${m.symbol} σ ${fv.sigma.toFixed(3)} vs ${own.sigma}: ${fv.price} vs ${own.fair}`,
        ).toBeLessThanOrEqual(AGREE);
        matched++;
      }
      await sleep(250);
    }
    expect(matched).toBeGreaterThan(20);
    expect(live).toBeGreaterThan(5);
  });
});

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
