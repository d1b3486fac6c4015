/**
 * startDevnet(): the whole local network in one process — chain + contracts, the exchange
 * service wired to it (deposit watching, withdrawal payouts, oracle, markets), and liquidity
 * bots trading through the app's client library. Reports each stage through onProgress.
 *
 * Persistence rule: the chain is an in-memory node and starts empty on every run, so an
 * exchange journal left by an earlier run describes deposits and balances that no longer exist
 * on chain. A non-fresh start therefore resets that journal and says so (stage 'notice');
 * within one run the journal does persist, e.g. across restartExchange().
 */
import { startChainSync } from './chain-sync';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  startChain,
  DEVNET_DEFAULTS,
  type Address,
  type DevnetAccount,
  type DevnetChain,
  type DevnetContracts,
} from './chain';
import { startBots, type DevnetBots } from '../exchange/bots';
import {
  accountEntry,
  DEVNET_FILE_VERSION,
  DEVNET_KEY_WARNING,
  removeDevnetFile,
  writeDevnetFile,
  type DevnetFile,
} from './devnet-file';
import { useWasmCrypto } from '../shared/protocol/wasm-crypto';
import { startExchangeService, type ExchangeServiceHandle } from '../exchange/service';
import { defaultCatalog, type MarketCatalog } from '../exchange/markets';
import { VOLATILITY_DEFAULTS } from '../client';

export type DevnetStage = 'chain' | 'exchange' | 'funding' | 'bots' | 'ready' | 'notice';

export interface DevnetProgress {
  stage: DevnetStage;
  /** One line for people. */
  message: string;
  /** ms since startDevnet() was called. */
  elapsedMs: number;
}

export interface StartDevnetOptions {
  /** Where the exchange journal and devnet.json live. */
  dataDir: string;
  /** Delete the previous run's state first. */
  fresh?: boolean;
  /** Loopback ports; 0 picks free ones (tests). Defaults: http 8787, rpc 8545. */
  ports?: { http?: number; rpc?: number };
  /** Liquidity bots, each on its own funded account (default 3; 0 for none). */
  bots?: number;
  /** Demo accounts offered to people (default 4). */
  demoAccounts?: number;
  /** Markets; default: the catalog's BTC 1m/5m and ETH 5m. Gets the journal's genesis time (unix s). */
  markets?: (genesisSec: bigint) => MarketCatalog;
  /** Chain block time in ms (default 1000). */
  blockTimeMs?: number;
  /** Blocks a deposit waits before the exchange credits it (default 1). */
  confirmations?: number;
  /** Mean ms between bot steps (default 1000). */
  botStepMs?: number;
  /** Seed for the oracle paths and the bots' choices. */
  seed?: number;
  /**
   * How far the exchange service's clock runs ahead of this machine's (ms; negative: behind). Tests of
   * clients that must keep the exchange's time rather than their own (epochs end by the exchange's).
   */
  exchangeClockSkewMs?: number;
  onProgress?: (progress: DevnetProgress) => void;
  /** Log lines from bots and services (default: dropped). */
  log?: (line: string) => void;
}

export interface DevnetHandle {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  rpcUrl: string;
  chainId: bigint;
  domainName: string;
  contracts: DevnetContracts;
  /** The operator's address (sweeps deposits, pays withdrawals); its key stays inside. */
  operator: Address;
  /** Funded demo accounts with their keys: devnet only. */
  accounts: DevnetAccount[];
  /** Accounts the bots trade with. */
  botAccounts: DevnetAccount[];
  markets: MarketCatalog;
  dataDir: string;
  devnetFile: string;
  /** Measured start-up, ms. */
  startupMs: number;
  /** The running exchange service (tests: credit, internals through its public handle). */
  readonly exchange: ExchangeServiceHandle;
  readonly bots: DevnetBots;
  /** Stops the exchange service, runs `whileDown`, and starts it again on the same journal and chain. */
  restartExchange(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export const DEVNET_PORTS = { http: 8787, rpc: 8545 } as const;

export class DevnetError extends Error {
  constructor(
    readonly code: 'START_FAILED' | 'BAD_OPTIONS',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DevnetError';
  }
}

export async function startDevnet(options: StartDevnetOptions): Promise<DevnetHandle> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const progress = (stage: DevnetStage, message: string): void =>
    options.onProgress?.({ stage, message, elapsedMs: elapsed() });
  const log = options.log ?? (() => {});
  const botCount = options.bots ?? 3;
  const demoCount = options.demoAccounts ?? 4;
  if (!Number.isInteger(botCount) || botCount < 0 || !Number.isInteger(demoCount) || demoCount < 0) {
    throw new DevnetError('BAD_OPTIONS', 'bots and demoAccounts must be whole numbers ≥ 0.');
  }
  const dataDir = resolve(options.dataDir);
  const exchangeDir = join(dataDir, 'exchange');
  const seed = options.seed ?? 20_260_601;
  const confirmations = options.confirmations ?? 1;

  // The exchange hashes every order it receives and the bots sign theirs: libsecp256k1 and keccak
  // in WebAssembly, the same engines as the app's main process (identical bytes, less CPU).
  await useWasmCrypto();

  let fresh = options.fresh ?? false;
  if (fresh) {
    await rm(exchangeDir, { recursive: true, force: true });
  } else if (hasState(exchangeDir)) {
    fresh = true;
    progress(
      'notice',
      'The chain starts empty on every run, so the exchange state from the last run no longer matches it: reset.',
    );
  }

  progress('chain', 'starting chain and deploying contracts…');
  const chain = await startChain({
    port: options.ports?.rpc ?? DEVNET_PORTS.rpc,
    accounts: demoCount + botCount,
    blockTime: options.blockTimeMs ?? 1000,
  });
  const cleanups: (() => Promise<void>)[] = [() => chain.stop()];
  const unwind = async (): Promise<void> => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    progress('chain', `chain ${chain.chainId} at ${chain.rpcUrl} (${chain.timings.totalMs} ms)`);
    const domainName = DEVNET_DEFAULTS.domainName;

    let httpPort = options.ports?.http ?? DEVNET_PORTS.http;
    const launch = (freshStart: boolean): Promise<ExchangeServiceHandle> =>
      startExchangeService({
        port: httpPort,
        dataDir: exchangeDir,
        fresh: freshStart,
        chainId: chain.chainId,
        verifyingContract: chain.contracts.exchange,
        domainName,
        chain: {
          rpcUrl: chain.rpcUrl,
          contracts: chain.contracts,
          operatorKey: chain.operator.privateKey,
          confirmations,
          start: startChainSync,
        },
        markets: options.markets ?? defaultCatalog,
        oracle: { seed },
        ...(options.exchangeClockSkewMs ? { clock: skewedClock(options.exchangeClockSkewMs) } : {}),
        onError: (err, where) => log(`[exchange] ${where}: ${err instanceof Error ? err.message : String(err)}`),
      });
    progress('exchange', 'starting exchange service…');
    let exchange = await launch(fresh);
    cleanups.push(() => exchange.stop());
    // A restart must come back on the same port: clients (bots, the app) keep their URLs.
    httpPort = Number(new URL(exchange.httpUrl).port);
    progress('exchange', `exchange at ${exchange.httpUrl}`);
    // Asset ids derive from the journal's genesis time: take the catalog the service has in force.
    const markets = exchange.catalog;

    const demo = chain.accounts.slice(0, demoCount);
    const botAccounts = chain.accounts.slice(demoCount).map((a, i) => ({ ...a, label: `bot${i + 1}` }));
    const endpoints = {
      httpUrl: exchange.httpUrl,
      marketWsUrl: exchange.marketWsUrl,
      oracleWsUrl: exchange.oracleWsUrl,
    };

    const bots = await startBots({
      accounts: botAccounts,
      endpoints,
      chain: { rpcUrl: chain.rpcUrl, chainId: chain.chainId, contracts: chain.contracts, domainName, confirmations },
      markets: markets.markets.map((m) => m.assetId),
      volatilityOf: (assetId) => botVolatility(markets, assetId),
      seed,
      stepMs: options.botStepMs ?? 1000,
      log,
      onFunding: (message) => progress('funding', message),
      onStarted: (message) => progress('bots', message),
    });
    cleanups.push(() => bots.stop());

    const file: DevnetFile = {
      version: DEVNET_FILE_VERSION,
      warning: DEVNET_KEY_WARNING,
      pid: process.pid,
      startedAt: new Date().toISOString(),
      ...endpoints,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId.toString(),
      domain: { name: domainName, version: '2', verifyingContract: chain.contracts.exchange },
      contracts: chain.contracts,
      markets: markets.markets.map((m) => ({
        assetId: m.assetId.toString(),
        symbol: m.symbol,
        symbolId: m.symbolId.toString(),
        periodLength: m.periodLength.toString(),
      })),
      accounts: [...demo.map((a) => accountEntry(a, 'demo')), ...botAccounts.map((a) => accountEntry(a, 'bot'))],
    };
    const devnetFile = await writeDevnetFile(dataDir, file);
    cleanups.push(() => removeDevnetFile(dataDir));
    const startupMs = elapsed();
    progress('ready', `ready in ${startupMs} ms`);

    let stopping: Promise<void> | undefined;
    return {
      ...endpoints,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      domainName,
      contracts: chain.contracts,
      operator: chain.operator.address,
      accounts: demo,
      botAccounts,
      markets,
      dataDir,
      devnetFile,
      startupMs,
      get exchange() {
        return exchange;
      },
      bots,
      async restartExchange(whileDown) {
        await exchange.stop();
        await whileDown?.();
        exchange = await launch(false);
      },
      stop() {
        stopping ??= unwind();
        return stopping;
      },
    };
  } catch (err) {
    await unwind();
    throw new DevnetError(
      'START_FAILED',
      `The devnet did not start: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

function hasState(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).length > 0;
}

export type { Address, DevnetChain };

/**
 * The volatility the bots price a market with: its oracle path's own, so the bots' fair value and
 * the terminal's (estimated from the same path's ticks) agree. Raised to the estimator's floor, as the
 * terminal's is: a flat test path (volatility 0) would otherwise make N(d2) a step and the bots
 * quote at the range's ends.
 */
function botVolatility(catalog: MarketCatalog, assetId: bigint): number | undefined {
  const market = catalog.markets.find((m) => m.assetId === assetId);
  const symbol = market && catalog.symbols.find((s) => s.symbolId === market.symbolId);
  return symbol ? Math.max(symbol.volatility, VOLATILITY_DEFAULTS.floor) : undefined;
}

/** This machine's clock moved by `skewMs`. */
function skewedClock(skewMs: number): () => number {
  return () => Date.now() + skewMs;
}
