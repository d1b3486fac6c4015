/**
 * Practice mode's fixed facts and the messages between main and the practice exchange's worker.
 *
 * Practice signs under a domain of its own (its own name, chain id and verifying contract), so a
 * practice signature verifies nowhere else; main pins these constants itself (it started the
 * exchange, so nothing needs the user's confirmation). The chain id spells "PRAC" in ASCII and is
 * no public EVM chain's; the verifying contract is the last 20 bytes of
 * keccak256("exchange-terminal/practice/verifying-contract/v1"): no key is known for it and no code
 * lives there on any chain.
 *
 * The worker (src/practice/worker.ts, built to out/main/practice-worker.js) runs the exchange
 * service without a chain, the oracle price paths and the liquidity bots off main's event loop; main
 * talks to it only through the messages below, parsed at both ends.
 */
import { z } from 'zod';

export const PRACTICE_DOMAIN_NAME = 'Exchange Terminal Practice';
export const PRACTICE_CHAIN_ID = 1_347_567_939n;
export const PRACTICE_VERIFYING_CONTRACT = '0x33CC5Ae889d6c8f5874E4E4E99A5324840D6c1fC';
/**
 * The practice exchange's account ledger (a withdrawal's `ledger` field, GET /config/chains): the last
 * 20 bytes of keccak256("exchange-terminal/practice/ledger/v1"), like the verifying contract.
 */
export const PRACTICE_LEDGER = '0x9213460f2144A4a75AbF4afF2F9A9E5b40518D2C';
/** The deployment id practice is selected by (settings.selectedDeploymentId). */
export const PRACTICE_DEPLOYMENT_ID = 'practice';
/** Play money one "Add $1,000" credits, in the settlement token's micro-dollars. */
export const PRACTICE_GRANT = 1_000_000_000n;

const decimal = z.string().regex(/^(0|[1-9][0-9]{0,77})$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
/** An oracle symbol's ticker as people read it ("BTC"): capitals and digits, short. */
const ticker = z.string().regex(/^[A-Z][A-Z0-9]{0,9}$/);

/** One market the practice exchange runs: its asset id and its symbol's ticker, named by the worker (it built the catalog). */
const practiceMarketSchema = z.object({ assetId: decimal, symbol: ticker }).strict();

/** What main hands the worker at start (workerData). */
export const practiceStartSchema = z
  .object({
    /** The journal's folder, in the app's data folder: positions and history survive a restart. */
    dataDir: z.string().min(1).max(4096),
    /** Start over: the journal is removed first ("Reset practice", after main's dialog). */
    fresh: z.boolean(),
    /** Liquidity bots (default 3). */
    bots: z.number().int().min(0).max(8).optional(),
    /** Mean ms between a bot's steps (default 1000; a soak bench runs them faster). */
    botStepMs: z.number().int().min(100).max(60_000).optional(),
  })
  .strict();
export type PracticeStart = z.infer<typeof practiceStartSchema>;

/** Main → worker. Each request carries an id its reply repeats. */
export const practiceRequestSchema = z.discriminatedUnion('type', [
  /** Credit play money to an account ("Add $1,000"): micro-dollars. */
  z.object({ type: z.literal('credit'), id: z.number().int(), account: address, amount: decimal }).strict(),
  /** Stop the bots (they cancel their quotes), the exchange and the oracle; the journal stays. */
  z.object({ type: z.literal('stop'), id: z.number().int() }).strict(),
  /**
   * The worker's memory and work so far (diagnostics, the soak bench); the reply carries `stats`.
   * `gc`: collect garbage first, where the host exposes it (a bench; never the app).
   */
  z.object({ type: z.literal('stats'), id: z.number().int(), gc: z.boolean().optional() }).strict(),
]);

/** What a `stats` reply carries: this thread's V8 heap, the process's RSS, and the exchange's work. */
export const practiceStatsSchema = z
  .object({
    heapUsed: z.number(),
    heapTotal: z.number(),
    external: z.number(),
    /** Resident set of the whole process (main and every thread). */
    rss: z.number(),
    /** Journal records written since this start, and bot steps completed. */
    journalRecords: z.number(),
    botSteps: z.number(),
    /** Whether the heap was collected before measuring. */
    collected: z.boolean(),
  })
  .strict();
export type PracticeStats = z.infer<typeof practiceStatsSchema>;
export type PracticeRequest = z.infer<typeof practiceRequestSchema>;

/** Worker → main. */
export const practiceEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), stage: z.string().max(40), elapsedMs: z.number() }).strict(),
  z
    .object({
      type: z.literal('ready'),
      /** Loopback URLs of the practice exchange (ephemeral port). */
      httpUrl: z.string().url(),
      marketWsUrl: z.string().url(),
      oracleWsUrl: z.string().url(),
      chainId: decimal,
      domain: z.object({ name: z.string(), version: z.string(), verifyingContract: address }).strict(),
      /** The markets, in catalog order (1-minute, 5-minute and hourly up/down on a few symbols). */
      markets: z.array(practiceMarketSchema).max(64),
      startupMs: z.number(),
      /** The account ledger (PRACTICE_LEDGER); optional, so an event without it (an older worker, a test double) still parses. */
      ledger: address.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('reply'),
      id: z.number().int(),
      ok: z.boolean(),
      message: z.string().max(500).optional(),
      /** Only in the reply to `stats`. */
      stats: practiceStatsSchema.optional(),
    })
    .strict(),
  /** The worker cannot go on (journal unreadable, port refused): a sentence for the user. */
  z.object({ type: z.literal('fatal'), message: z.string().max(500) }).strict(),
]);
export type PracticeEvent = z.infer<typeof practiceEventSchema>;
