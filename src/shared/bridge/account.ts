import { z } from 'zod';
import {
  address,
  bytes32,
  decimalString,
  marketRef,
  sideName,
  signedDecimalString,
  timeInForceName,
  unixMs,
} from './primitives';

/** Which keys the terminal is trading with: a master account and, optionally, its agent. */
export const accountSelection = z
  .object({ master: address.nullable(), agent: address.nullable(), tradeAs: z.enum(['master', 'agent']) })
  .strict();

export const balanceView = z.object({
  /** Free collateral on the exchange. */
  available: decimalString,
  /** Collateral reserved by resting orders. */
  locked: decimalString,
  updatedAt: unixMs,
});

export const positionView = z.object({
  ...marketRef.shape,
  symbol: z.string(),
  /** Signed contracts: positive long Up, negative short Up. */
  size: signedDecimalString,
  averagePrice: decimalString.nullable(),
  markPrice: decimalString.nullable(),
  /** Collateral held by the position. */
  margin: decimalString,
  unrealisedPnl: signedDecimalString.nullable(),
  realisedPnl: signedDecimalString,
  /** What the position pays if its side wins. */
  payoutIfRight: decimalString,
  resolved: z.boolean(),
  claimable: decimalString,
  /** Whether `claimable` is the exchange's answer for this resolved epoch (false while it settles). */
  claimKnown: z.boolean(),
  /**
   * What equity counts for it: collateral plus unrealised P&L while it trades; once resolved, its
   * claim, or until the claim is known, the value it had when its epoch ended (never zero meanwhile).
   */
  value: signedDecimalString,
});

export const openOrderView = z.object({
  ...marketRef.shape,
  orderId: bytes32,
  side: sideName,
  price: decimalString,
  size: decimalString,
  remaining: decimalString,
  timeInForce: timeInForceName,
  placedAt: unixMs,
  signedBy: z.enum(['master', 'agent']),
});

export const fillView = z.object({
  ...marketRef.shape,
  orderId: bytes32,
  side: sideName,
  price: decimalString,
  size: decimalString,
  liquidity: z.enum(['maker', 'taker']),
  at: unixMs,
  /**
   * True when `price` is only the order's limit: a taker fill on a deployment that does not report
   * own fill prices (no `GET /fills/:account`). It traded at that price or better. Absent otherwise.
   */
  priceIsLimit: z.boolean().optional(),
});

export const accountView = z.object({
  selection: accountSelection,
  balance: balanceView.nullable(),
  /** Settlement-token balance of the master's wallet on chain (for deposits). */
  walletTokenBalance: decimalString.nullable(),
  positions: z.array(positionView),
  openOrders: z.array(openOrderView),
  fills: z.array(fillView),
  error: z.string().nullable(),
});

export type AccountSelection = z.infer<typeof accountSelection>;
export type BalanceView = z.infer<typeof balanceView>;
export type PositionView = z.infer<typeof positionView>;
export type OpenOrderView = z.infer<typeof openOrderView>;
export type FillView = z.infer<typeof fillView>;
export type AccountView = z.infer<typeof accountView>;
