import { z } from 'zod';
import {
  bytes32,
  decimalString,
  humanString,
  marketRef,
  sideName,
  signAs,
  signedDecimalString,
  timeInForceName,
  typedField,
} from './primitives';

/** An order ticket exactly as the user filled it in: price in cents and size as typed. */
export const orderTicket = z
  .object({
    ...marketRef.shape,
    side: sideName,
    price: typedField,
    size: typedField,
    timeInForce: timeInForceName,
    signAs,
    /**
     * A hotkey's marketable order (its best price moved by the slippage): main may tighten its limit to
     * the worst price the band and the daily loss budget allow, and says so in the result.
     */
    marketable: z.boolean().optional(),
  })
  .strict();

/** Set when main tightened an order's limit to stay inside a guard: the limit it was sent with, and which guard. */
const tightenedFacts = {
  tightenedFrom: decimalString.optional(),
  tightenedBy: z.enum(['band', 'budget']).optional(),
};

/** What became of an order, as facts: the window words the notice ("Bought 10 at 62.5¢", src/renderer/lib/notice-text.ts). */
export const orderResult = z.object({
  orderId: bytes32,
  status: z.enum(['ACCEPTED', 'CANCELLED', 'REJECTED', 'FILLED', 'PARTIALLY_FILLED']),
  /** The exchange's reason (a code or its own text) for a rejection or cancellation; "" when none. */
  reason: z.string(),
  side: sideName,
  /** The order's limit price. */
  price: decimalString,
  filled: decimalString,
  remaining: decimalString,
  cancelled: decimalString,
  /** What the filled part traded at (size-weighted average of its fills); null when nothing filled. */
  fillPrice: decimalString.nullable(),
  /** True when the exchange did not report a fill's price: `fillPrice` is then the limit, "at or better". */
  fillPriceIsLimit: z.boolean(),
  ...tightenedFacts,
});

export const cancelArgs = z.object({ ...marketRef.shape, orderId: bytes32, signAs }).strict();
export const cancelAllArgs = z.object({ ...marketRef.shape, signAs }).strict();

export const cancelResult = z.object({
  status: z.enum(['CANCELLED', 'CANCEL_FAILED', 'CANCEL_NOT_COMMITTED']),
  orderIds: z.array(bytes32),
});

/** Edit in place: the order is cancelled and replaced in one signed request, same side. */
export const replaceArgs = z
  .object({ ...marketRef.shape, orderId: bytes32, price: humanString, size: humanString, signAs })
  .strict();

export const replaceResult = z.object({
  status: z.enum(['SUCCESS', 'CANCEL_FAILED', 'REPLACEMENT_FAILED', 'CANCEL_COMMITTED_REPLACEMENT_FAILED']),
  /** Null when the exchange answered for no replacement, or had already processed this exact one (`duplicate`). */
  replacement: orderResult.nullable(),
  duplicate: z.boolean(),
});

/**
 * Closes the position in a market (reduce-only): an IOC for at most the position's size, limited to
 * the live best opposite price moved by the maximum slippage in settings (`maxSlippageCents`).
 */
export const flattenArgs = z.object({ ...marketRef.shape, signAs }).strict();

/** What a close did: exactly what filled, at what average and worst price, and what is still open (worded by the window). */
export const closeResult = z.object({
  status: z.enum([
    /** No position: nothing was sent. */
    'NOTHING_TO_CLOSE',
    /** No opposite orders (other than our own) to close against: nothing was sent. */
    'NO_LIQUIDITY',
    'CLOSED',
    /** Part filled before the limit; the rest is still open. */
    'PARTIALLY_CLOSED',
    /** Sent, nothing filled within the limit. */
    'NOT_FILLED',
    'REJECTED',
  ]),
  orderId: bytes32.nullable(),
  side: sideName.nullable(),
  /** Contracts the closing order asked for (the position's size when sent). */
  requested: decimalString,
  filled: decimalString,
  /** The position left open afterwards, signed (positive long Up). */
  remaining: signedDecimalString,
  averagePrice: decimalString.nullable(),
  worstPrice: decimalString.nullable(),
  /** True when the exchange did not report fill prices: average and worst are the limit, at or better. */
  pricesAreLimits: z.boolean(),
  bestPrice: decimalString.nullable(),
  limitPrice: decimalString.nullable(),
  maxSlippage: decimalString,
  /** The exchange's reason when the closing order was rejected; "" otherwise. */
  reason: z.string(),
  /** NOTHING_TO_CLOSE because the position went flat or turned over between the plan and the send. */
  positionChanged: z.boolean(),
  ...tightenedFacts,
});

/** What the ticket shows before sending: computed by main with the protocol's exact rules. */
export const orderQuote = z.object({
  price: decimalString,
  size: decimalString,
  cost: decimalString,
  payoutIfRight: decimalString,
  maxLoss: decimalString,
  /**
   * Contracts of this order that close the position it trades against (a sell of a long, a buy of
   * a short): they need no collateral and bring in `proceeds` if they fill. Absent when none.
   */
  closing: decimalString.optional(),
  proceeds: decimalString.optional(),
  /** When the free balance does not cover the order's collateral: how much is missing (main refuses to sign it). */
  shortfall: decimalString.optional(),
});

export type OrderTicket = z.infer<typeof orderTicket>;
export type OrderResult = z.infer<typeof orderResult>;
export type CancelResult = z.infer<typeof cancelResult>;
export type ReplaceResult = z.infer<typeof replaceResult>;
export type OrderQuote = z.infer<typeof orderQuote>;
export type CloseResult = z.infer<typeof closeResult>;
