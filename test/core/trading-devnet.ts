/**
 * The devnet and app core the trading tests share: no bots, a BTC market in short epochs that
 * resolve within the test and an hourly ETH market, and a test core whose market directory lists
 * exactly this devnet's markets, with quick polls.
 */
import type { DevnetHandle } from '../../src/devnet/devnet';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, type TestCore } from '../support/test-core';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';

export interface TradingDevnetOptions {
  demoAccounts: number;
  /** Length of a BTC epoch; the first one started at the last multiple of it. */
  btcEpochSeconds: bigint;
  /** A flat BTC path: every epoch resolves at its strike, and at or above the strike Up wins. */
  flatBtc?: boolean;
}

export function startTradingDevnet(prefix: string, opts: TradingDevnetOptions): Promise<TempDevnet> {
  return startTempDevnet(prefix, {
    bots: 0,
    demoAccounts: opts.demoAccounts,
    blockTimeMs: 500,
    markets: (nowSec) => {
      const BTC = opts.flatBtc ? { ...DEVNET_SYMBOLS.BTC, volatility: 0 } : DEVNET_SYMBOLS.BTC;
      const { ETH } = DEVNET_SYMBOLS;
      const short = opts.btcEpochSeconds;
      return {
        symbols: [BTC, ETH],
        markets: [
          defineMarket({ symbol: BTC, startTime: nowSec - (nowSec % short), periodLength: short }),
          defineMarket({ symbol: ETH, startTime: nowSec, periodLength: 3600n }),
        ],
      };
    },
  });
}

/** A test core trading on `devnet`'s markets, and the BTC market's asset id (its first market). */
export async function createTradingCore(devnet: DevnetHandle): Promise<{ core: TestCore; btcAsset: string }> {
  const entries = devnet.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol }));
  const core = await createTestCore({
    trading: {
      markets: devnetMarkets(entries),
      pollMs: 250,
      healthMs: 1000,
      balancePollMs: 500,
      creditTimeoutMs: 30_000,
    },
  });
  return { core, btcAsset: entries[0]!.assetId.toString() };
}
