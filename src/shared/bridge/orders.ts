import { z } from 'zod';
import { bytes32, decimalString, humanString, marketRef, sideName, signAs, timeInForceName } from './primitives';

/** An order ticket exactly as the user filled it in: price in cents and size as typed. */
export const orderTicket = z
  .object({
    ...marketRef.shape,
    side: sideName,
    price: humanString,
    size: humanString,
    timeInForce: timeInForceName,
    signAs,
  })
  .strict();

export const orderResult = z.object({
  orderId: bytes32,
  status: z.enum(['ACCEPTED', 'CANCELLED', 'REJECTED', 'FILLED', 'PARTIALLY_FILLED']),
  reason: z.string(),
  filled: decimalString,
  remaining: decimalString,
  cancelled: decimalString,
  /** One sentence for the notice area, e.g. "Bought 10 at 62.5¢" or why it was rejected. */
  summary: z.string(),
});

export const cancelArgs = z.object({ ...marketRef.shape, orderId: bytes32, signAs }).strict();
export const cancelAllArgs = z.object({ ...marketRef.shape, signAs }).strict();

export const cancelResult = z.object({
  status: z.enum(['CANCELLED', 'CANCEL_FAILED', 'CANCEL_NOT_COMMITTED']),
  orderIds: z.array(bytes32),
  summary: z.string(),
});

/** Edit in place: the order is cancelled and replaced in one signed request, same side. */
export const replaceArgs = z
  .object({ ...marketRef.shape, orderId: bytes32, price: humanString, size: humanString, signAs })
  .strict();

export const replaceResult = z.object({
  status: z.enum(['SUCCESS', 'CANCEL_FAILED', 'REPLACEMENT_FAILED', 'CANCEL_COMMITTED_REPLACEMENT_FAILED']),
  replacement: orderResult.nullable(),
  summary: z.string(),
});

/** Closes the whole position in a market with an IOC order against the book. */
export const flattenArgs = z.object({ ...marketRef.shape, signAs }).strict();

/** What the ticket shows before sending: computed by main with the protocol's exact rules. */
export const orderQuote = z.object({
  price: decimalString,
  size: decimalString,
  cost: decimalString,
  payoutIfRight: decimalString,
  maxLoss: decimalString,
});

export type OrderTicket = z.infer<typeof orderTicket>;
export type OrderResult = z.infer<typeof orderResult>;
export type CancelResult = z.infer<typeof cancelResult>;
export type ReplaceResult = z.infer<typeof replaceResult>;
export type OrderQuote = z.infer<typeof orderQuote>;
