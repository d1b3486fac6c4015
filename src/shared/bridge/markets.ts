import { z } from 'zod';
import { address, bytes32, decimalString, marketRef, sideName, unixMs } from './primitives';

export const bookLevel = z.object({
  price: decimalString,
  size: decimalString,
  orderCount: z.number().int().nonnegative(),
  /** Size of this level that belongs to the selected account (0 when none). */
  ownSize: decimalString,
});

export const feedHealthState = z.enum(['live', 'resyncing', 'stale', 'down']);

export const bookHealth = z.object({
  state: feedHealthState,
  reason: z.string(),
  resyncs: z.number().int().nonnegative(),
  lastUpdateAt: unixMs.nullable(),
});

export const bookView = z.object({
  ...marketRef.shape,
  seqId: z.string(),
  bids: z.array(bookLevel),
  asks: z.array(bookLevel),
  last: z.object({ price: decimalString, at: unixMs, side: sideName.nullable() }).nullable(),
  health: bookHealth,
});

export const marketSummary = z.object({
  assetId: decimalString,
  symbolId: decimalString,
  symbol: z.string(),
  /** Epoch length in seconds, and its label ("1m", "5m"). */
  periodSeconds: z.number().int().positive(),
  timeframe: z.string(),
  epoch: decimalString,
  epochStart: unixMs,
  expiration: unixMs,
  strike: decimalString,
  /** Oracle scale (USD × 10^6). */
  oraclePrice: decimalString.nullable(),
  oracleAt: unixMs.nullable(),
  bestBid: decimalString.nullable(),
  bestAsk: decimalString.nullable(),
  lastPrice: decimalString.nullable(),
  /**
   * Where bid and ask come from: `book` = the live book we stream for it (the same numbers as the
   * ladder), `poll` = the once-a-second HTTP top of book, a fallback for markets without a live book.
   */
  quoteSource: z.enum(['book', 'poll']),
  /**
   * Other traders' best bid and ask (the account's own orders left out), which the implied
   * probability is read from; `ownOnly` when the account's own orders are all there is.
   */
  othersQuotes: z.object({ bid: decimalString.nullable(), ask: decimalString.nullable(), ownOnly: z.boolean() }),
  resolved: z.boolean(),
  ledger: address,
  /**
   * Fair value of Up (docs/fair-value.md): N(d2) from the oracle, the strike, the time left by the
   * exchange's clock and σ estimated from the oracle's ticks, rounded to the 0.1¢ shown. For display:
   * main prices its own checks from the unrounded value.
   */
  fairPrice: decimalString.nullable(),
  /** Why there is no fair value (a sentence for people), when `fairPrice` is null. */
  fairNote: z.string().max(300).nullable(),
  /** The annualised volatility it used (0.62 = 62 %), to the percent. */
  fairSigma: z.number().nonnegative().nullable(),
});

export const oracleTick = z.object({ symbolId: decimalString, price: decimalString, at: unixMs });

export const subscribeBookArgs = z
  .object({ ...marketRef.shape, depth: z.number().int().min(1).max(5000).default(50) })
  .strict();

export const subscription = z.object({ subscriptionId: z.string().min(1) });

export const resolvedEpoch = z.object({
  ...marketRef.shape,
  strike: decimalString,
  resolutionPrice: decimalString,
  upWon: z.boolean(),
  resolvedAt: unixMs,
  txId: bytes32.nullable(),
});

/** The `resolution` event: an epoch resolved, and the market's epoch trading now. */
export const epochResolution = resolvedEpoch.extend({ currentEpoch: decimalString });

export type BookLevel = z.infer<typeof bookLevel>;
export type BookView = z.infer<typeof bookView>;
export type BookHealth = z.infer<typeof bookHealth>;
export type FeedHealthState = z.infer<typeof feedHealthState>;
export type MarketSummary = z.infer<typeof marketSummary>;
export type OracleTick = z.infer<typeof oracleTick>;
export type ResolvedEpoch = z.infer<typeof resolvedEpoch>;
export type EpochResolution = z.infer<typeof epochResolution>;
