// Internal mutable state of the engine. Not exported from the package: read it through queries.
//
// Numbers, not bigint, inside (for speed). Every value provably fits in 2^53:
// - money (free, pending, margin/cost, pool, pnl, withdrawals) is bounded by the total ever credited, which
//   `credit` caps at Number.MAX_SAFE_INTEGER;
// - an order size is at most MAX_PRACTICAL_SIZE = 1e11 and a multiple of the 10,000 lot, so
//   size × tick <= 1e11 × 999 < 2^53 and size × tick / 1000 is an exact integer;
// - a position's |net| is backed one-for-one by market collateral, so it is bounded by total credited;
// - sums of resting sizes per level are NOT bounded that way, so they are never kept as numbers: the L2 query
//   adds them up as bigint.
import type { Hex, TifName } from './types';
import { DigestSet } from './digest-set';

export interface FillRecord {
  time: number;
  orderId: Hex;
  book: Book;
  sell: boolean;
  tick: number;
  size: number;
  maker: boolean;
}

export interface Account {
  id: string;
  free: number;
  pending: number;
  fills: FillRecord[];
}

export interface PositionState {
  account: Account;
  book: Book;
  /** Signed net size: > 0 long Up. */
  net: number;
  /** Cost basis of the open position (its margin). */
  cost: number;
  /** Realised P&L (signed). */
  pnl: number;
  /** Long units reserved by resting SELL orders (<= max(net, 0)). */
  resLong: number;
  /** Short units reserved by resting BUY orders (<= max(-net, 0)). */
  resShort: number;
  claimed: boolean;
  /** This account's resting orders in this book. */
  orders: Set<Order>;
  /** The subset still reserving position (rp > 0): keeps rebalancing independent of the order count. */
  reducing: Set<Order>;
}

export interface Order {
  id: Hex;
  pos: PositionState;
  sell: boolean;
  /** price / 1000, 1..999 */
  tick: number;
  size: number;
  remaining: number;
  /** Position units still reserved by this order. */
  rp: number;
  /** Collateral still reserved by this order (= (remaining − rp) × rate(tick)). */
  rm: number;
  tif: TifName;
  time: number;
  seq: number;
  signer: string;
  signatureType: bigint;
  nonce: bigint;
  approvalNonce: bigint;
  /** False once filled, cancelled or cleared; dead entries are skipped lazily in level queues. */
  live: boolean;
}

/** FIFO queue at one price: an array with a head index; dead entries are skipped and compacted. */
export interface Level {
  q: Order[];
  head: number;
  live: number;
}

export interface Book {
  assetId: bigint;
  epoch: bigint;
  assetIdStr: string;
  epochStr: string;
  strike: bigint;
  expiration: bigint;
  expirationMs: number;
  /** Indexed by tick 1..999 (index 0 and 1000 unused). */
  bids: Level[];
  asks: Level[];
  /** Best bid tick, 0 when none. */
  bestBid: number;
  /** Best ask tick, 1000 when none. */
  bestAsk: number;
  /** seqId of the last market event of this book. */
  seq: number;
  lastTick: number;
  lastTime: number;
  /** Collateral held in this market: equals the open long contracts (complete sets). */
  pool: number;
  /**
   * Digests of this epoch's orders, cancels and cancel-replaces while it trades, when the engine forgets
   * them at resolution (EngineOptions.forgetResolvedDigests): dropped whole then. Null otherwise.
   */
  digests: DigestSet | null;
  positions: Map<string, PositionState>;
  resolved: boolean;
  resolutionPrice: bigint;
  upWins: boolean;
}

export interface Withdrawal {
  id: Hex;
  account: string;
  amount: number;
  time: number;
  paid: boolean;
  txHash: Hex | null;
}

export interface EngineState {
  accounts: Map<string, Account>;
  /** assetId → epoch → book */
  books: Map<bigint, Map<bigint, Book>>;
  /** Resting orders by id. */
  orders: Map<string, Order>;
  /**
   * Every order, cancel, claim, withdrawal and resolve id ever processed (digests are single-use), but
   * those an epoch's book holds until its resolution (Book.digests).
   */
  processed: DigestSet;
  /** The books whose `digests` hold any (their epochs are not resolved yet). */
  digestBooks: Set<Book>;
  creditIndices: Set<bigint>;
  withdrawals: Map<string, Withdrawal>;
  credited: number;
  paidOut: number;
  /** Global order arrival counter. */
  orderSeq: number;
  /** Cap on own-fill records kept per account. */
  fillHistory: number;
}

export function newState(fillHistory: number): EngineState {
  return {
    accounts: new Map(),
    books: new Map(),
    orders: new Map(),
    processed: new DigestSet(),
    digestBooks: new Set(),
    creditIndices: new Set(),
    withdrawals: new Map(),
    credited: 0,
    paidOut: 0,
    orderSeq: 0,
    fillHistory,
  };
}

export function getBook(state: EngineState, assetId: bigint, epoch: bigint): Book | undefined {
  return state.books.get(assetId)?.get(epoch);
}

export function getAccount(state: EngineState, id: string): Account {
  let a = state.accounts.get(id);
  if (a === undefined) {
    a = { id, free: 0, pending: 0, fills: [] };
    state.accounts.set(id, a);
  }
  return a;
}

export function getPosition(book: Book, account: Account): PositionState {
  let p = book.positions.get(account.id);
  if (p === undefined) {
    p = {
      account,
      book,
      net: 0,
      cost: 0,
      pnl: 0,
      resLong: 0,
      resShort: 0,
      claimed: false,
      orders: new Set(),
      reducing: new Set(),
    };
    book.positions.set(account.id, p);
  }
  return p;
}
