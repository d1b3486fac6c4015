// startExchangeService: journal replay, ledger, scheduler, HTTP routes, WebSocket feeds and the
// optional chain wiring, on one HTTP server (WebSockets at /ws/ and /oracle-ws/ on the same port).
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  isAddress,
  makeExchangeDomain,
  ZERO_HASH,
  type Address,
  type ExchangeDomain,
  type Hex,
} from '../../shared/protocol';
import type { TotalsView } from '../engine';
import { defaultCatalog, indexCatalog, type MarketCatalog } from '../markets';
import type { RoleGrant } from './auth';
// Types only: the chain wiring itself comes in through `chain.start` (the devnet passes it), so the
// service (and practice mode, which runs it in the app) never imports chain tooling.
import type { ChainOptions, ChainSync, ChainWiring } from './chain-wiring';
import type { ContractsConfig, ServiceContext } from './context';
import { DEPOSIT_CURSOR_FILE } from './deposit-cursor';
import { JournalError } from './errors';
import { createMarketFeed, createOracleFeed } from './feeds';
import { createJsonServer } from './http-server';
import { Journal } from './journal';
import { Ledger } from './ledger';
import { OraclePriceLog, type OracleSteer } from './oracle';
import { RateLimiter, type RateLimit } from './rate-limit';
import { readRoutes } from './read-routes';
import type { SignatureVerifierOptions } from './signature-verifier';
import { EpochScheduler } from './scheduler';
import { SignaturePool } from './signature-pool';
import { writeRoutes } from './write-routes';

export interface OracleOptions {
  /** Seed of every symbol's price path (default 1). */
  seed?: number;
  /** Grid step of the price paths in ms (default 500). */
  stepMs?: number;
  /** Cadence of oracle feed messages in ms (default 500; 0 = only on subscribe). */
  publishIntervalMs?: number;
}

export interface ExchangeServiceOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Journal location; without it nothing persists across restarts. */
  dataDir?: string;
  /** Wipe the journal (and deposit cursor) in dataDir first. */
  fresh?: boolean;
  /** Default 31337n, or chain.contracts' chain when given. */
  chainId?: bigint;
  /** The exchange contract (EIP-712 verifyingContract). Defaults to chain.contracts.exchange. */
  verifyingContract?: string;
  /** EIP-712 domain name (default "Service Exchange"). */
  domainName?: string;
  /** Account ledger address (withdrawal `ledger`, asset `ledger`). Defaults to chain.contracts.ledger. */
  ledger?: string;
  /** Extra addresses for GET /config/chains/:chainId when no chain is wired. */
  contracts?: Partial<Omit<ContractsConfig, 'exchange' | 'ledger'>>;
  /** On-chain deposits and payouts; absent = in-process credits only. */
  chain?: ChainWiring;
  /** Market catalog, or a function of the genesis time (unix s). Default: defaultCatalog. */
  markets?: MarketCatalog | ((genesisSec: bigint) => MarketCatalog);
  oracle?: OracleOptions;
  /** Unix ms (default Date.now). */
  clock?: () => number;
  /** Scheduler period in ms (default 250); 0 = only when handle.runScheduler() is called. */
  schedulerIntervalMs?: number;
  /** Protocol ping period on both feeds (default 10,000 ms; 0 = off). */
  pingIntervalMs?: number;
  /** Accounts allowed to resolve, each with the keys that may sign for it. */
  resolvers?: readonly RoleGrant[];
  /** Accounts allowed to pause and invalidate. */
  admins?: readonly RoleGrant[];
  /** An approval expires when now > approvalNonce + this many seconds (default 86,400). */
  agentLifetimeSec?: number;
  /**
   * Agent approvals and revocations per master account (the protocol lets these routes answer 429:
   * docs/protocol/endpoints.md#error-codes): default DEFAULT_AGENT_RATE_LIMIT; null turns the limit off.
   */
  agentRateLimit?: RateLimit | null;
  /** Largest request body in bytes (default 65,536). */
  bodyLimit?: number;
  /** Where background failures go (default: stderr). */
  onError?: (err: unknown, where: string) => void;
  /**
   * Worker threads that verify signatures (README.md "Signature checks"); 0 verifies on the main
   * thread. Default DEFAULT_SIGNATURE_WORKERS.
   */
  signatureWorkers?: number;
  /** Tables of the signature verifier (smaller ones start faster and hold less memory). */
  signatureVerifier?: SignatureVerifierOptions;
  /**
   * Without a chain only: journal each withdrawal's payout as soon as it is queued (tx hash zero), so
   * GET /withdrawals shows it PAID at once. For practice mode, whose play money goes straight back to
   * the practice wallet; a chain pays withdrawals itself, so the two cannot be combined.
   */
  instantPayouts?: boolean;
  /**
   * Forget each epoch's order, cancel and cancel-replace digests once it is resolved (the engine's
   * EngineOptions.forgetResolvedDigests), so memory stays flat while markets roll and bots trade:
   * practice mode, whose journal lives as long as the app. A replay of such an action then answers
   * MARKET_RESOLVED (or ORDER_NOT_FOUND) instead of ENTRY_PROCESSED.
   */
  forgetResolvedDigests?: boolean;
}

/** Generous for people and bots (20 at once, then one every 200 ms); a loop gets 429 and backs off. */
export const DEFAULT_AGENT_RATE_LIMIT: RateLimit = { perSecond: 5, burst: 20 };

/** One worker: on 2 cores it runs beside the main thread; more only pays with more cores. */
export const DEFAULT_SIGNATURE_WORKERS = 1;

export interface ExchangeServiceHandle {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  domain: Readonly<ExchangeDomain>;
  chainId: bigint;
  /** The catalog in force (default asset ids derive from the journal's genesis time). */
  catalog: MarketCatalog;
  /** Devnet/test only, never over HTTP: credits `amount` units through a journaled typ-7 entry. */
  credit(account: string, amount: bigint): Promise<void>;
  /**
   * Devnet/test only, never over HTTP: moves the live oracle feed of a symbol by an offset (oracle
   * scale) or silences it; resolutions keep reading the unsteered path.
   */
  steerOracle(symbolId: bigint, steer: OracleSteer): void;
  /** Runs the epoch scheduler now and waits until its records are durable. */
  runScheduler(): Promise<void>;
  /** Chain mode: scan deposits, sweep and pay now. */
  pollChain(): Promise<void>;
  /** sha256 of engine + service state; equal after a replay of the same journal. */
  stateHash(): string;
  /** Violated invariants as sentences (empty when consistent). */
  checkInvariants(): string[];
  /**
   * The engine's money totals, so tests can check conservation while trading runs:
   * free + pending + positionCollateral + queuedWithdrawals = credited − paidOut.
   */
  totals(): TotalsView;
  /** Last journal seqId applied (durable or about to be). */
  lastSeqId(): number;
  /** Group-commit counters: flushes (one write + one fdatasync each), records, total sync ms. */
  journalStats(): { flushes: number; records: number; syncMs: number };
  /** Signature checks by path: cached-key verification vs full recovery; `workers` running. */
  signatureStats(): { fast: number; recovered: number; workers: number };
  stop(): Promise<void>;
}

/** Devnet credits use indexes 2^127 + n so they never collide with DepositQueued indexes (1, 2, …). */
export const DEVNET_CREDIT_INDEX_BASE = 1n << 127n;

function address(value: string | undefined, what: string): Address {
  if (value === undefined || !isAddress(value)) throw new TypeError(`${what} must be an address (0x + 40 hex digits).`);
  return value;
}

export async function startExchangeService(options: ExchangeServiceOptions = {}): Promise<ExchangeServiceHandle> {
  const clock = options.clock ?? Date.now;
  const onError =
    options.onError ??
    ((err: unknown, where: string) => {
      process.stderr.write(`[exchange] ${where}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    });
  if (options.instantPayouts === true && options.chain !== undefined)
    throw new TypeError('instantPayouts is for a service without a chain: a chain pays withdrawals itself.');
  const chainId = options.chainId ?? 31337n;
  const verifyingContract = address(
    options.verifyingContract ?? options.chain?.contracts.exchange,
    'verifyingContract',
  );
  const ledgerAddress = address(options.ledger ?? options.chain?.contracts.ledger, 'ledger');
  const domain = makeExchangeDomain({
    chainId,
    verifyingContract,
    ...(options.domainName === undefined ? {} : { name: options.domainName }),
  });
  const contracts: ContractsConfig = { exchange: verifyingContract, ledger: ledgerAddress };
  const extra = { ...options.contracts, ...(options.chain === undefined ? {} : options.chain.contracts) };
  for (const k of ['depositLedger', 'settlementToken', 'permit2'] as const) {
    const v = extra[k];
    if (v !== undefined) contracts[k] = address(v, `contracts.${k}`);
  }

  // Started first: the worker loads and builds its tables while the journal replays on this thread.
  const poolStarting = SignaturePool.start({
    workers: options.signatureWorkers ?? DEFAULT_SIGNATURE_WORKERS,
    ...(options.signatureVerifier === undefined ? {} : { verifier: options.signatureVerifier }),
    onError: (e) => onError(e, 'signature worker'),
  });
  poolStarting.catch(() => undefined); // its rejection is handled where it is awaited below
  const oracleStepMs = options.oracle?.stepMs ?? 500;
  let journal: Journal;
  let ledger: Ledger;
  let genesis: NonNullable<Ledger['state']['genesis']>;
  try {
    if (options.fresh === true && options.dataDir !== undefined) {
      await rm(join(options.dataDir, DEPOSIT_CURSOR_FILE), { force: true });
    }
    const opened = await Journal.open(options.dataDir, options.fresh === true);
    journal = opened.journal;
    ledger = new Ledger(journal, { forgetResolvedDigests: options.forgetResolvedDigests === true });
    try {
      ledger.replay(opened.records);
    } catch (e) {
      await journal.close();
      throw e instanceof JournalError
        ? e
        : new JournalError(
            'JOURNAL_CORRUPT',
            `Replaying the journal failed: ${e instanceof Error ? e.message : String(e)}`,
          );
    }
    if (ledger.state.genesis === null) {
      const t = clock();
      ledger.submit(
        'genesis',
        {
          format: 1,
          timeMs: t,
          oracleOriginMs: t - (t % oracleStepMs),
          chainId: chainId.toString(),
          verifyingContract: verifyingContract.toLowerCase(),
        },
        t,
      );
      await ledger.durable(ledger.lastSeqId);
    }
    genesis = ledger.state.genesis!;
    if (genesis.chainId !== chainId.toString() || genesis.verifyingContract !== verifyingContract.toLowerCase()) {
      await journal.close();
      throw new JournalError(
        'JOURNAL_MISMATCH',
        `The journal in ${options.dataDir} belongs to chain ${genesis.chainId} / ${genesis.verifyingContract}; start with fresh: true or another dataDir.`,
      );
    }
  } catch (e) {
    await poolStarting.then(
      (p) => p.close(),
      () => undefined,
    );
    throw e;
  }

  const genesisSec = BigInt(Math.floor(genesis.timeMs / 1000));
  const catalog =
    typeof options.markets === 'function'
      ? options.markets(genesisSec)
      : (options.markets ?? defaultCatalog(genesisSec));
  const { markets, symbols } = indexCatalog(catalog);
  const oracleConfig = { seed: options.oracle?.seed ?? 1, stepMs: oracleStepMs, originMs: genesis.oracleOriginMs };
  const liveOracle = new OraclePriceLog(symbols, oracleConfig);
  const pingIntervalMs = options.pingIntervalMs ?? 10_000;

  const marketFeed = createMarketFeed({ isKnownAsset: (a) => markets.has(BigInt(a)), pingIntervalMs });
  const oracleFeed = createOracleFeed({
    oracle: liveOracle,
    nowMs: clock,
    pingIntervalMs,
    publishIntervalMs: options.oracle?.publishIntervalMs ?? 500,
  });
  let chainSync: ChainSync | undefined;

  let verifier: SignaturePool;
  try {
    verifier = await poolStarting;
  } catch (e) {
    await journal.close();
    throw e;
  }
  const ctx: ServiceContext = {
    domain,
    verifier,
    ledger,
    journal,
    nowMs: clock,
    agentLifetimeSec: BigInt(options.agentLifetimeSec ?? 86_400),
    markets,
    symbols,
    liveOracle,
    contracts,
    resolvers: options.resolvers ?? [],
    admins: options.admins ?? [],
    publish: (events) => marketFeed.publish(events),
    onWithdrawalQueued: () => (options.instantPayouts === true ? payNow() : chainSync?.kickPayouts()),
    payoutStatus: (id) => chainSync?.payoutStatus(id),
    agentLimiter:
      options.agentRateLimit === null
        ? null
        : new RateLimiter(options.agentRateLimit ?? DEFAULT_AGENT_RATE_LIMIT, clock),
  };

  /** instantPayouts: every queued withdrawal paid in the journal now (durable with the next group commit). */
  const payNow = (): void => {
    for (const w of ledger.engine.pendingPayouts())
      ledger.submit('payout', { id: w.id, txHash: ZERO_HASH as Hex }, clock());
  };
  if (options.instantPayouts === true) payNow(); // one queued before a crash, when the payout was not yet durable

  const scheduler = new EpochScheduler({
    ledger,
    markets: [...markets.values()],
    oracle: new OraclePriceLog(symbols, oracleConfig),
    domain,
    nowMs: clock,
    publish: (events) => ctx.publish(events),
  });
  const runScheduler = async (): Promise<void> => {
    const seq = scheduler.run();
    if (seq > 0) await ledger.durable(seq);
  };
  await runScheduler(); // catch up before serving anything

  const server = createJsonServer({
    routes: [...readRoutes(ctx), ...writeRoutes(ctx)],
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    onError,
  });
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/ws/' || path === '/ws') marketFeed.feed.handleUpgrade(req, socket, head);
    else if (path === '/oracle-ws/' || path === '/oracle-ws') oracleFeed.feed.handleUpgrade(req, socket, head);
    else {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await verifier.close();
    throw e;
  }

  if (options.chain !== undefined) {
    try {
      chainSync = await options.chain.start({
        chain: options.chain,
        ledger,
        dataDir: options.dataDir,
        nowMs: clock,
        onError,
      });
    } catch (e) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await verifier.close();
      await journal.close();
      throw e;
    }
  }

  const schedulerMs = options.schedulerIntervalMs ?? 250;
  const schedulerTimer =
    schedulerMs > 0
      ? setInterval(() => {
          runScheduler().catch((e: unknown) => onError(e, 'scheduler'));
        }, schedulerMs)
      : undefined;

  const addr = server.address() as AddressInfo;
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let stopping: Promise<void> | undefined;

  return {
    httpUrl: `http://${hostForUrl}:${addr.port}`,
    marketWsUrl: `ws://${hostForUrl}:${addr.port}/ws/`,
    oracleWsUrl: `ws://${hostForUrl}:${addr.port}/oracle-ws/`,
    domain,
    chainId,
    catalog,
    steerOracle: (symbolId, steer) => liveOracle.steer(symbolId, steer),
    async credit(account, amount) {
      const owner = address(account, 'account').toLowerCase();
      const index = (DEVNET_CREDIT_INDEX_BASE + ledger.state.devnetCredits + 1n).toString();
      const t = clock();
      const applied = ledger.submit(
        'deposit',
        {
          typ: '7',
          id: index,
          arrivalTime: String(Math.floor(t / 1000)),
          owner,
          amount: amount.toString(),
          index,
          ledger: ledgerAddress.toLowerCase(),
          source: 'devnet',
        },
        t,
      );
      await ledger.durable(applied.seqId);
      if (applied.result.status !== 'CREDITED')
        throw new RangeError(applied.result.error?.message ?? `Credit was ${applied.result.status}.`);
    },
    runScheduler,
    pollChain: () => chainSync?.poll() ?? Promise.resolve(),
    stateHash: () => ledger.stateHash(),
    checkInvariants: () => ledger.checkInvariants(),
    totals: () => ledger.engine.totals(),
    lastSeqId: () => ledger.lastSeqId,
    journalStats: () => ({ ...journal.stats }),
    signatureStats: () => ({ ...verifier.stats, workers: verifier.workers }),
    stop() {
      stopping ??= (async () => {
        if (schedulerTimer !== undefined) clearInterval(schedulerTimer);
        await chainSync?.stop();
        await marketFeed.feed.close();
        await oracleFeed.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await verifier.close();
        await journal.close();
      })();
      return stopping;
    },
  };
}

export type { ChainOptions, Hex, RoleGrant };
