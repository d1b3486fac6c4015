// Public types of the matching engine: commands in, results and market events out, query views.
// Protocol integers are bigint here; market events are already in wire form (docs/protocol/feeds.md#market-events) so
// the feed can forward them untouched.

// A 0x-prefixed hex string (order digests, cancel ids, tx hashes), declared once in shared/protocol.
import type { Hex } from '../../shared/protocol/hex';

export type { Hex };

/** Time in force, by its wire value (docs/protocol/units.md#time-in-force). */
export const TIF = { GTC: 0, FOK: 1, IOC: 2, ALO: 3 } as const;
export type TifName = keyof typeof TIF;
export const TIF_NAMES: readonly TifName[] = ['GTC', 'FOK', 'IOC', 'ALO'];

// ---------------------------------------------------------------- commands

interface CommandBase {
  /** Unix milliseconds, provided by the caller: the engine never reads a clock. */
  time: number;
}

export interface RegisterMarketCommand extends CommandBase {
  type: 'registerMarket';
  assetId: bigint;
  epoch: bigint;
  /** Oracle scale (docs/protocol/units.md#oracle-and-strike-prices); Up wins iff resolution price >= strike. */
  strike: bigint;
  /** Unix seconds; orders at or after it are refused with MARKET_RESOLVED. */
  expiration: bigint;
}

/** An on-chain deposit swept into the ledger; idempotent by `index`. */
export interface CreditCommand extends CommandBase {
  type: 'credit';
  owner: string;
  amount: bigint;
  index: bigint;
}

/** The order fields the engine needs; `orderId` is the FillOrder digest. */
export interface OrderFields {
  orderId: Hex;
  /** The sender (owner of the order). */
  account: string;
  signer: string;
  signatureType: bigint;
  assetId: bigint;
  epoch: bigint;
  /** false = BUY (long Up), true = SELL (short Up). */
  side: boolean;
  price: bigint;
  size: bigint;
  tif: bigint;
  nonce: bigint;
  approvalNonce: bigint;
}

export interface PlaceOrderCommand extends CommandBase, OrderFields {
  type: 'placeOrder';
}

export interface CancelCommand extends CommandBase {
  type: 'cancel';
  /** The cancel request's digest. */
  id: Hex;
  account: string;
  assetId: bigint;
  epoch: bigint;
  /** Target order, or ZERO_HASH for cancel-all in this asset and epoch. */
  orderId: Hex;
}

export interface CancelReplaceCommand extends CommandBase {
  type: 'cancelReplace';
  id: Hex;
  account: string;
  assetId: bigint;
  epoch: bigint;
  cancelOrderId: Hex;
  allOrNothing: boolean;
  replacement: OrderFields;
}

export interface ResolveCommand extends CommandBase {
  type: 'resolve';
  id: Hex;
  assetId: bigint;
  epoch: bigint;
  /** Resolution price on the oracle scale. */
  price: bigint;
}

export interface ClaimCommand extends CommandBase {
  type: 'claim';
  id: Hex;
  account: string;
  assetId: bigint;
  epoch: bigint;
}

export interface WithdrawCommand extends CommandBase {
  type: 'withdraw';
  id: Hex;
  account: string;
  amount: bigint;
}

export interface MarkWithdrawalPaidCommand extends CommandBase {
  type: 'markWithdrawalPaid';
  id: Hex;
  txHash: Hex;
}

export type Command =
  | RegisterMarketCommand
  | CreditCommand
  | PlaceOrderCommand
  | CancelCommand
  | CancelReplaceCommand
  | ResolveCommand
  | ClaimCommand
  | WithdrawCommand
  | MarkWithdrawalPaidCommand;

export type CommandType = Command['type'];

// ---------------------------------------------------------------- results

/** A machine code plus a sentence for people. */
export interface EngineErrorInfo {
  code: string;
  message: string;
}

export type OrderStatus = 'ACCEPTED' | 'CANCELLED' | 'REJECTED' | 'FILLED' | 'PARTIALLY_FILLED';
export type OrderReason = '' | 'IOC' | 'FOK' | 'MARGIN' | 'INVALID_ORDER' | 'MARKET_RESOLVED' | 'ALO';

/**
 * NewOrderResponse (docs/protocol/endpoints.md#response-statuses). Always filled + remaining + cancelled = size (0 for
 * an unreadable size).
 */
export interface NewOrderResult {
  orderId: Hex;
  status: OrderStatus;
  reason: OrderReason;
  filled: bigint;
  remaining: bigint;
  cancelled: bigint;
  error?: EngineErrorInfo;
}

export interface EngineCancelResult {
  id: Hex;
  status: 'CANCELLED' | 'CANCEL_FAILED' | 'CANCEL_NOT_COMMITTED';
  orderIds: Hex[];
  error?: EngineErrorInfo;
}

export interface CancelReplaceResult {
  id: Hex;
  status: 'SUCCESS' | 'CANCEL_FAILED' | 'REPLACEMENT_FAILED' | 'CANCEL_COMMITTED_REPLACEMENT_FAILED';
  cancel: EngineCancelResult;
  replacement: NewOrderResult | null;
  error?: EngineErrorInfo;
}

export interface RegisterMarketResult {
  status: 'REGISTERED' | 'FAIL';
  error?: EngineErrorInfo;
}

export interface CreditResult {
  status: 'CREDITED' | 'DUPLICATE' | 'REJECTED';
  error?: EngineErrorInfo;
}

export interface ResolveResult {
  status: 'SUCCESS' | 'FAIL';
  assetId: bigint;
  epoch: bigint;
  price?: bigint;
  error?: EngineErrorInfo;
}

export interface EngineClaimResult {
  id: Hex;
  status: 'CLAIMED' | 'CLAIM_FAILED';
  amount: bigint;
  error?: EngineErrorInfo;
}

export interface WithdrawResult {
  id: Hex;
  status: 'WITHDRAWN' | 'WITHDRAWAL_FAILED';
  error?: EngineErrorInfo;
}

export interface MarkWithdrawalPaidResult {
  status: 'PAID' | 'FAIL';
  error?: EngineErrorInfo;
}

/** The result type of each command, keyed by command type. */
export interface CommandResultMap {
  registerMarket: RegisterMarketResult;
  credit: CreditResult;
  placeOrder: NewOrderResult;
  cancel: EngineCancelResult;
  cancelReplace: CancelReplaceResult;
  resolve: ResolveResult;
  claim: EngineClaimResult;
  withdraw: WithdrawResult;
  markWithdrawalPaid: MarkWithdrawalPaidResult;
}

export interface ApplyOutput<T extends CommandType> {
  result: CommandResultMap[T];
  events: MarketEvent[];
}

// ---------------------------------------------------------------- market events (wire form:
// docs/protocol/feeds.md#market-events)

export interface OrderEventData {
  orderId: Hex;
  assetId: string;
  epoch: string;
  price: string;
  side: 'buy' | 'sell';
  /** Remaining size of the resting order (after the fill, for a trade). */
  size: string;
  /** Unix seconds of the event. */
  arrivalTime: string;
  tif: TifName;
  type: 'limit';
}

export interface TradeEventData extends OrderEventData {
  fillPrice: string;
  fill: string;
}

export interface CancelEventData {
  /** The cancel request (or, for a self-trade cancel, the incoming order that caused it). */
  orderId: Hex;
  /** The order removed from the book. */
  cancelId: Hex;
  assetId: string;
  epoch: string;
  arrivalTime: string;
}

export interface ResolutionEventData {
  orderId: Hex;
  assetId: string;
  epoch: string;
  price: string;
  arrivalTime: string;
}

export type MarketEvent =
  | { type: 'order'; seqId: number; data: OrderEventData }
  | { type: 'trade'; seqId: number; data: TradeEventData }
  | { type: 'cancel'; seqId: number; data: CancelEventData }
  | { type: 'resolution'; seqId: number; data: ResolutionEventData };

// ---------------------------------------------------------------- query views

export interface EngineBalance {
  account: string;
  /** Free balance. */
  balance: bigint;
  /** Collateral reserved by resting orders. */
  pending: bigint;
}

export interface EnginePosition {
  account: string;
  assetId: bigint;
  epoch: bigint;
  /** Signed net contracts (6 decimals): > 0 long Up, < 0 short Up. */
  net: bigint;
  /** |net|, as the wire `size` and `balance` carry it. */
  size: bigint;
  balance: bigint;
  /** Collateral held by the open position: its cost basis. */
  margin: bigint;
  /** Realised P&L, signed. */
  realisedPnl: bigint;
  /** |realisedPnl|; `pSide` true when negative. */
  pnl: bigint;
  /** Average entry price of the open position (floor), 0 when flat. */
  avgEntryPrice: bigint;
  /** true = short (net < 0). */
  side: boolean;
  bSide: boolean;
  /** Sign of margin: always false (margin is never negative). */
  mSide: boolean;
  pSide: boolean;
  /** Position units reserved by resting reducing orders. */
  reserved: bigint;
  claimed: boolean;
}

export interface BookOrderView {
  id: Hex;
  size: bigint;
  price: bigint;
  /** Arrival time, unix ms. */
  time: number;
  account: string;
}

export interface L2LevelView {
  price: bigint;
  size: bigint;
  orderCount: number;
  orders: BookOrderView[];
}

export interface L2View {
  assetId: bigint;
  epoch: bigint;
  seqId: number;
  bids: L2LevelView[];
  asks: L2LevelView[];
}

export interface AccountOrdersView {
  assetId: bigint;
  epoch: bigint;
  seqId: number;
  buys: BookOrderView[];
  sells: BookOrderView[];
}

export interface TopView {
  assetId: bigint;
  epoch: bigint;
  seqId: number;
  bid: L2LevelView | null;
  ask: L2LevelView | null;
  /** Last trade price, 0 when none. */
  last: bigint;
  /** Last trade time, unix ms, 0 when none. */
  lastTs: number;
}

export interface LedgerOrderView {
  id: Hex;
  type: 'limit';
  side: boolean;
  epoch: bigint;
  assetId: bigint;
  size: bigint;
  price: bigint;
  limitPrice: bigint;
  account: string;
  signer: string;
  signatureType: bigint;
  filled: bigint;
  remaining: bigint;
  reservedPosition: bigint;
  /** Remaining size backed by collateral (remaining − reservedPosition). */
  reservedSize: bigint;
  reservedMargin: bigint;
  maxSize: bigint;
  timeInForce: bigint;
  nonce: bigint;
  approvalNonce: bigint;
  /** Global arrival sequence. */
  seq: number;
  time: number;
}

export interface EngineFill {
  time: number;
  orderId: Hex;
  assetId: bigint;
  epoch: bigint;
  side: boolean;
  price: bigint;
  size: bigint;
  liquidity: 'maker' | 'taker';
}

export interface EngineWithdrawal {
  id: Hex;
  account: string;
  amount: bigint;
  time: number;
  paid: boolean;
  txHash: Hex | null;
}

export interface MarketView {
  assetId: bigint;
  epoch: bigint;
  strike: bigint;
  expiration: bigint;
  resolved: boolean;
  resolutionPrice: bigint;
  /** null until resolved. */
  upWins: boolean | null;
}

export interface TotalsView {
  credited: bigint;
  paidOut: bigint;
  free: bigint;
  pending: bigint;
  /** Collateral of open positions in markets, unclaimed. */
  positionCollateral: bigint;
  queuedWithdrawals: bigint;
}
