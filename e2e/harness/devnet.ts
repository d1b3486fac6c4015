/**
 * A devnet for end-to-end tests: chain + exchange on ephemeral ports, no bots (tests make their own
 * liquidity), funded demo accounts, and the facts the core server needs to trade on it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type DevnetHandle, type StartDevnetOptions } from '../../src/devnet/devnet';
import { defineMarket, DEVNET_SYMBOLS, type MarketCatalog } from '../../src/exchange/markets';
import type { HarnessDevnet } from './core-server';

export interface HarnessDevnetHandle {
  readonly handle: DevnetHandle;
  readonly forCore: HarnessDevnet;
  stop(): Promise<void>;
}

export interface HarnessDevnetOptions {
  bots?: number;
  /** Markets of the devnet (default: the catalog's BTC 1m/5m and ETH 5m). See shortMarkets(). */
  markets?: StartDevnetOptions['markets'];
  /** Demo accounts offered to the core (default 4). */
  demoAccounts?: number;
  /**
   * A devnet of this spec's own, named for it: specs whose money assertions need a book no other
   * spec has left orders in set it (Playwright starts a worker, so a devnet, per distinct value).
   */
  ownBook?: string;
  /** The exchange's clock runs this far ahead of the machine's (ms): the app must keep the exchange's time. */
  exchangeClockSkewMs?: number;
}

/** One BTC market whose epochs last `periodSec` seconds (claim flows: an epoch resolves within the test). */
export function shortMarkets(periodSec: number): (genesisSec: bigint) => MarketCatalog {
  const period = BigInt(periodSec);
  return (genesisSec) => ({
    symbols: [DEVNET_SYMBOLS.BTC],
    markets: [
      defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: genesisSec - (genesisSec % period), periodLength: period }),
    ],
  });
}

/**
 * Claims that always pay, beside a book that stays: BTC in short epochs on a flat path (every
 * epoch resolves at its strike, where Up wins), and ETH in hourly epochs for orders that must rest.
 */
export function claimableMarkets(periodSec: number): (genesisSec: bigint) => MarketCatalog {
  const period = BigInt(periodSec);
  return (genesisSec) => {
    const BTC = { ...DEVNET_SYMBOLS.BTC, volatility: 0 };
    return {
      symbols: [BTC, DEVNET_SYMBOLS.ETH],
      markets: [
        defineMarket({ symbol: BTC, startTime: genesisSec - (genesisSec % period), periodLength: period }),
        defineMarket({ symbol: DEVNET_SYMBOLS.ETH, startTime: genesisSec, periodLength: 3600n }),
      ],
    };
  };
}

export async function startHarnessDevnet(options: HarnessDevnetOptions = {}): Promise<HarnessDevnetHandle> {
  const dir = await mkdtemp(join(tmpdir(), `e2e-devnet-${options.ownBook ?? 'shared'}-`));
  const handle = await startDevnet({
    dataDir: dir,
    fresh: true,
    ports: { http: 0, rpc: 0 },
    bots: options.bots ?? 0,
    blockTimeMs: 500,
    ...(options.markets ? { markets: options.markets } : {}),
    ...(options.demoAccounts !== undefined ? { demoAccounts: options.demoAccounts } : {}),
    ...(options.exchangeClockSkewMs !== undefined ? { exchangeClockSkewMs: options.exchangeClockSkewMs } : {}),
  });
  const forCore: HarnessDevnet = {
    httpUrl: handle.httpUrl,
    marketWsUrl: handle.marketWsUrl,
    oracleWsUrl: handle.oracleWsUrl,
    rpcUrl: handle.rpcUrl,
    chainId: handle.chainId,
    markets: handle.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol })),
    accounts: handle.accounts.map((a) => ({ label: a.label, address: a.address, privateKey: a.privateKey })),
  };
  return {
    handle,
    forCore,
    stop: async () => {
      await handle.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
