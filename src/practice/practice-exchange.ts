/**
 * startPracticeExchange(): the exchange practice mode trades on, in this thread (the worker's, in the
 * app; a test's or a bench's under plain node). The local exchange service without a chain (credits
 * in-process, withdrawals paid at once), under the practice domain, its journal in `dataDir`; the
 * oracle price paths; 1-minute, 5-minute and hourly up/down markets on BTC, ETH and SOL; and liquidity
 * bots that quote and trade through the client library like any trader, their play money credited
 * in-process. No chain, no hardhat, no solc: nothing here needs a dev checkout.
 */
import { startExchangeService, type ExchangeServiceHandle, type ExchangeServiceOptions } from '../exchange/service';
import {
  botProfile,
  createClientVenue,
  devnetClient,
  startLiquidityBot,
  type BotVenue,
  type LiquidityBot,
} from '../exchange/bots';
import type { MarketCatalog } from '../exchange/markets';
import { VOLATILITY_DEFAULTS } from '../client';
import { type Address, type ExchangeDomain } from '../shared/protocol';
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_LEDGER,
  PRACTICE_VERIFYING_CONTRACT,
} from '../shared/practice';
import { practiceBotAccounts, practiceContracts } from './practice-accounts';
import { practiceCatalog } from './practice-catalog';

export interface PracticeExchangeOptions {
  /** The journal's folder (main passes one in the app's data folder). */
  dataDir: string;
  /** Remove the journal first: start over. */
  fresh: boolean;
  /** Liquidity bots (default 3). */
  bots?: number;
  /** Mean ms between a bot's steps (default 1000; a soak may run them faster). */
  botStepMs?: number;
  /** Seed of the oracle paths and the bots' choices (default PRACTICE_SEED). */
  seed?: number;
  /** Each start-up stage as it is reached, with ms since the call. */
  onProgress?: (stage: PracticeStage, elapsedMs: number) => void;
  /** Lines from the bots and the exchange's background work (default: dropped). */
  log?: (line: string) => void;
}

export type PracticeStage = 'exchange' | 'funding' | 'bots' | 'ready';

export interface PracticeExchange {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  chainId: bigint;
  domain: Readonly<ExchangeDomain>;
  ledger: Address;
  /** The markets (asset ids and their symbols' tickers), in the order the bots step them. */
  catalog: MarketCatalog;
  /** The bots' accounts (they trade already: never offered to people). */
  botAddresses: Address[];
  startupMs: number;
  /** Steps the bots have completed, summed (progress for the soak bench). */
  botSteps(): number;
  /** Play money: `amount` micro-dollars to `account`, journaled, then durable. */
  credit(account: string, amount: bigint): Promise<void>;
  /** The exchange service's handle (tests and benches: totals, invariants). */
  readonly service: ExchangeServiceHandle;
  /** Bots cancel their quotes; then the exchange stops. The journal stays. */
  stop(): Promise<void>;
}

/** The oracle paths' seed: fixed, because the service re-derives every path from it and the journal's genesis. */
export const PRACTICE_SEED = 20_261_126;
/** A bot is topped up to this (micro-dollars, $100,000) when it holds less than half of it. */
export const PRACTICE_BOT_FUNDS = 100_000_000_000n;
/**
 * Ticks (0.1¢ each) fair may move before a practice bot moves its ladder: one cent, the step the
 * terminal shows prices in. With the devnet's one tick, nine markets' ladders follow every oracle
 * wiggle: ~140 journal records a second (~200 KB/s on disk, every digest held in memory until its
 * epoch resolves). A level that is hit or gone is still restored on the next step.
 */
export const PRACTICE_REQUOTE_TICKS = 10;
/** How often the bots' balances are checked for a top-up. */
const TOP_UP_EVERY_MS = 60_000;
/** The generator table of an in-thread verifier: window 8 is ~0.4 MB built in a few ms (12: ~6 MB, ~0.3 s). */
const PRACTICE_VERIFIER = { generatorWindowSize: 8 } as const;

export async function startPracticeExchange(options: PracticeExchangeOptions): Promise<PracticeExchange> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const log = options.log ?? (() => undefined);
  const botCount = options.bots ?? 3;
  if (!Number.isInteger(botCount) || botCount < 0 || botCount > 8) throw new RangeError('bots must be 0..8.');
  const seed = options.seed ?? PRACTICE_SEED;

  const serviceOptions: ExchangeServiceOptions = {
    dataDir: options.dataDir,
    fresh: options.fresh,
    chainId: PRACTICE_CHAIN_ID,
    verifyingContract: PRACTICE_VERIFYING_CONTRACT,
    domainName: PRACTICE_DOMAIN_NAME,
    ledger: PRACTICE_LEDGER,
    markets: practiceCatalog,
    oracle: { seed },
    // Practice volumes are small: signatures are checked on this thread, no worker of its own
    // (a nested worker would need its own bundle and, in development, tsx).
    signatureWorkers: 0,
    signatureVerifier: PRACTICE_VERIFIER,
    instantPayouts: true,
    forgetResolvedDigests: true,
    onError: (err, where) => log(`[exchange] ${where}: ${err instanceof Error ? err.message : String(err)}`),
  };
  const service = await startExchangeService(serviceOptions);
  options.onProgress?.('exchange', elapsed());

  const endpoints = { httpUrl: service.httpUrl, marketWsUrl: service.marketWsUrl, oracleWsUrl: service.oracleWsUrl };
  const contracts = practiceContracts();
  const client = { httpUrl: service.httpUrl, chainId: PRACTICE_CHAIN_ID, contracts, domainName: PRACTICE_DOMAIN_NAME };
  const accounts = practiceBotAccounts(botCount);
  const catalog = service.catalog;
  const assetIds = catalog.markets.map((m) => m.assetId);

  /** Tops each bot up to PRACTICE_BOT_FUNDS once it is below half: bots lose to traders now and then. */
  const topUp = async (): Promise<void> => {
    for (const account of accounts) {
      const reader = devnetClient(client, account.privateKey, { doctor: false });
      const free = BigInt((await reader.getBalance(account.address)).balance);
      if (free < PRACTICE_BOT_FUNDS / 2n) await service.credit(account.address, PRACTICE_BOT_FUNDS - free);
    }
  };
  let bots: LiquidityBot[] = [];
  let topUpTimer: ReturnType<typeof setInterval> | undefined;
  try {
    await topUp();
    options.onProgress?.('funding', elapsed());
    bots = accounts.map((account, i) =>
      startLiquidityBot({
        name: account.label,
        venue: onTimerOnly(
          createClientVenue({
            account,
            endpoints,
            chainId: PRACTICE_CHAIN_ID,
            contracts,
            domainName: PRACTICE_DOMAIN_NAME,
          }),
        ),
        assetIds,
        config: { ...botProfile(i), requoteTicks: PRACTICE_REQUOTE_TICKS },
        sigmaOf: (assetId) => botVolatility(catalog, assetId),
        seed: seed + i * 7919,
        stepMs: options.botStepMs ?? 1000,
        log,
      }),
    );
    topUpTimer = setInterval(() => {
      topUp().catch((e: unknown) => log(`[practice] top-up failed: ${e instanceof Error ? e.message : String(e)}`));
    }, TOP_UP_EVERY_MS);
    topUpTimer.unref();
    options.onProgress?.('bots', elapsed());
  } catch (e) {
    await Promise.all(bots.map((b) => b.stop()));
    await service.stop();
    throw e;
  }

  const startupMs = elapsed();
  options.onProgress?.('ready', startupMs);
  let stopping: Promise<void> | undefined;
  return {
    ...endpoints,
    chainId: PRACTICE_CHAIN_ID,
    domain: service.domain,
    ledger: PRACTICE_LEDGER,
    catalog,
    botAddresses: accounts.map((a) => a.address),
    startupMs,
    botSteps: () => bots.reduce((sum, b) => sum + b.steps, 0),
    credit: (account, amount) => service.credit(account, amount),
    service,
    stop() {
      stopping ??= (async () => {
        clearInterval(topUpTimer);
        await Promise.all(bots.map((b) => b.stop()));
        await service.stop();
      })();
      return stopping;
    },
  };
}

/**
 * The venue without its feed wake-ups: a practice bot re-quotes on its timer only. The devnet's bots
 * also step a market on every oracle tick and own fill, which on nine markets is some 280 journal
 * records a second (each one kept in the journal, and its digest in memory, for the journal's life);
 * a learner's book needs far less, and a level taken by an IOC is refilled on the next step (~1 s).
 */
function onTimerOnly(venue: BotVenue): BotVenue {
  const timerOnly: BotVenue = { ...venue };
  delete timerOnly.watch;
  return timerOnly;
}

/** The bots price with the market's own oracle volatility, raised to the terminal estimator's floor (as the devnet's do). */
function botVolatility(catalog: MarketCatalog, assetId: bigint): number | undefined {
  const market = catalog.markets.find((m) => m.assetId === assetId);
  const symbol = market && catalog.symbols.find((s) => s.symbolId === market.symbolId);
  return symbol ? Math.max(symbol.volatility, VOLATILITY_DEFAULTS.floor) : undefined;
}
