import { z } from 'zod';
import { bytes32, decimalString, marketRef, sideName, signAs, timeInForceName, unixMs } from './primitives';

/**
 * One order the session sent and what became of it: open (resting, perhaps partly filled),
 * filled, cancelled (by the user, or the unfilled rest of an IOC/FOK) or rejected (with the
 * exchange's reason in words). Main keeps a bounded list, newest first.
 */
export const orderHistoryEntry = z.object({
  ...marketRef.shape,
  orderId: bytes32,
  side: sideName,
  price: decimalString,
  size: decimalString,
  filled: decimalString,
  outcome: z.enum(['open', 'filled', 'cancelled', 'rejected']),
  /** Why it was rejected or cancelled, in words; empty otherwise. */
  reason: z.string().max(300),
  timeInForce: timeInForceName,
  signedBy: signAs,
  placedAt: unixMs,
  updatedAt: unixMs,
});

/** One trade of a market from its feed: the price and size it traded at and the side that took. */
export const tradePrint = z.object({
  ...marketRef.shape,
  price: decimalString,
  size: decimalString,
  /** The aggressor's side: a buy lifted an offer, a sell hit a bid. */
  side: sideName,
  at: unixMs,
  seqId: z.string(),
});

export type OrderHistoryEntry = z.infer<typeof orderHistoryEntry>;
export type TradePrint = z.infer<typeof tradePrint>;
