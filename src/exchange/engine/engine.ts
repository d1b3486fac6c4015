/*
 * Matching engine and accounting state machine of the local exchange service (devnet).
 *
 * Deterministic: no I/O, no clock, no randomness, no signatures. `apply(command)` mutates the state and returns
 * the command's result plus the market events it produced; replaying the same commands gives the same stateHash.
 *
 * MODEL (see README.md next to this file for the full table of outcomes)
 * - Market: one binary contract per (assetId, epoch). At resolution it pays 1,000,000 units per contract to Up
 *   holders iff resolution price >= strike, else to Down holders. Prices 1,000..999,000 step 1,000; sizes are
 *   multiples of 10,000 up to 1e11 (the exchange's practical maximum). side false = BUY = long Up, side true =
 *   SELL = short Up = long Down at 1e6 − price. Zero fees.
 * - Account: free balance plus `pending` = collateral reserved by resting orders. BUY reserves size × price/1e6,
 *   SELL size × (1e6 − price)/1e6, except that the part of an order that reduces the opposite position reserves
 *   that position instead (order.rp / order.rm ~ LedgerOrder reservedPosition / reservedMargin).
 * - Position per account and market: signed net size, margin = cost basis of the open part, realised P&L.
 *   Opening costs the price (long) or 1e6 − price (short) per contract; closing releases cash at the trade price;
 *   long and short net out (a merged Up+Down pair returns 1e6). Market pool = 1e6 × open long contracts.
 * - Matching: price-time priority per book; trades at the maker price; the taker's excess reservation returns
 *   to its free balance at each fill. Self-trade: "cancel resting": a taker never fills against its own order;
 *   that resting order is cancelled (a `cancel` event whose orderId is the taker's id) and matching continues.
 * - Checks, in order: INVALID_ORDER (malformed, duplicate digest, unknown market), MARKET_RESOLVED (resolved or
 *   time >= expiration), ALO (post-only that would cross any resting order, own included), MARGIN (reservation for
 *   the whole size at the limit price exceeds free balance), then FOK feasibility (CANCELLED/FOK).
 * - Every processed digest (orders, cancels, cancel-replaces, claims, withdrawals, resolutions) is single-use.
 */
import {
  MAX_AMOUNT,
  MAX_PRACTICAL_SIZE,
  MAX_PRICE,
  MIN_PRICE,
  PRICE_TICK,
  SIZE_LOT,
  ZERO_HASH,
} from '../../shared/protocol/constants';
import { planReservedPosition, rate, release, reserve, settle, value } from './accounting';
import { clearBook, frontOf, liveOrders, MAX_TICK, newBook, pushOrder, retireSides, unlinkOrder } from './book';
import type { Book, EngineState, Level, Order, PositionState } from './state';
import { getAccount, getBook, getPosition, newState } from './state';
import { stateHash } from './state-hash';
import { DigestSet, packDigest } from './digest-set';
import type {
  AccountOrdersView,
  ApplyOutput,
  EngineBalance,
  BookOrderView,
  CancelCommand,
  CancelReplaceCommand,
  CancelReplaceResult,
  EngineCancelResult,
  ClaimCommand,
  EngineClaimResult,
  Command,
  CommandResultMap,
  CreditCommand,
  CreditResult,
  EngineErrorInfo,
  EngineFill,
  Hex,
  L2LevelView,
  L2View,
  LedgerOrderView,
  MarketEvent,
  MarketView,
  MarkWithdrawalPaidCommand,
  MarkWithdrawalPaidResult,
  NewOrderResult,
  OrderFields,
  OrderReason,
  EnginePosition,
  RegisterMarketCommand,
  RegisterMarketResult,
  ResolveCommand,
  ResolveResult,
  TifName,
  TopView,
  TotalsView,
  EngineWithdrawal,
  WithdrawCommand,
  WithdrawResult,
} from './types';
import { TIF_NAMES } from './types';

/** Thrown by queries (never by apply): a machine code and a sentence. */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface EngineOptions {
  /** Own-fill records kept per account (oldest dropped first). Default 1000. */
  fillHistory?: number;
  /**
   * Forget an epoch's order, cancel and cancel-replace digests once it is resolved, so memory does not
   * grow with every action while markets roll (practice mode). A replay of one of them is then refused
   * as MARKET_RESOLVED (or ORDER_NOT_FOUND) instead of ENTRY_PROCESSED: refused all the same, since the
   * epoch no longer trades. Withdrawal, claim and resolution digests are always kept. Default false.
   */
  forgetResolvedDigests?: boolean;
}

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const PRICE_STR: string[] = Array.from({ length: 1001 }, (_, t) => String(t * 1000));

function err(code: string, message: string): EngineErrorInfo {
  return { code, message };
}

function invalid(code: string, message: string): Rejection {
  return { reason: 'INVALID_ORDER', error: err(code, message) };
}

/** An order that passed every rejection check, with its planned reservation. */
interface Admitted {
  book: Book;
  pos: PositionState;
  tick: number;
  size: number;
  tif: TifName;
  rp: number;
  rm: number;
}

interface Rejection {
  reason: OrderReason;
  error: EngineErrorInfo;
}

export class Engine {
  private readonly s: EngineState;
  private events: MarketEvent[] = [];
  private timeStr = '0';
  private now = 0;

  private readonly forgetResolved: boolean;

  constructor(options: EngineOptions = {}) {
    this.s = newState(options.fillHistory ?? 1000);
    this.forgetResolved = options.forgetResolvedDigests === true;
  }

  /** Marks a digest of an order, cancel or cancel-replace used; remembers it per epoch when it is to be forgotten. */
  private consume(id: string, book: Book | undefined): void {
    if (this.forgetResolved && book !== undefined && !book.resolved) {
      (book.digests ??= new DigestSet()).add(id);
      this.s.digestBooks.add(book);
    } else this.s.processed.add(id);
  }

  /** Whether a digest was processed: kept for good, or by the book of an epoch still trading. */
  private used(id: string): boolean {
    if (this.s.processed.has(id)) return true;
    if (this.s.digestBooks.size === 0) return false;
    // Parsed once for every book asked (a string that is not a canonical digest is asked as it is).
    const words = packDigest(id);
    for (const book of this.s.digestBooks)
      if (words === null ? book.digests?.has(id) : book.digests?.hasPacked(words)) return true;
    return false;
  }

  /** Read-only access for invariant checks and hashing; never mutate it. */
  internalState(): EngineState {
    return this.s;
  }

  /** Applies one command. Business failures come back as result statuses; only a malformed `time` (not a
   *  non-negative safe integer of unix ms) throws, because it is a caller bug that would break determinism. */
  apply<C extends Command>(cmd: C): ApplyOutput<C['type']> {
    if (!Number.isSafeInteger(cmd.time) || cmd.time < 0)
      throw new EngineError('INVALID_TIME', `Command time ${cmd.time} is not a unix-ms integer.`);
    this.events = [];
    this.now = cmd.time;
    this.timeStr = String(Math.floor(cmd.time / 1000));
    const result = this.dispatch(cmd);
    return { result: result as CommandResultMap[C['type']], events: this.events };
  }

  private dispatch(cmd: Command): CommandResultMap[Command['type']] {
    switch (cmd.type) {
      case 'registerMarket':
        return this.registerMarket(cmd);
      case 'credit':
        return this.credit(cmd);
      case 'placeOrder':
        return this.place(cmd);
      case 'cancel':
        return this.cancel(cmd);
      case 'cancelReplace':
        return this.cancelReplace(cmd);
      case 'resolve':
        return this.resolve(cmd);
      case 'claim':
        return this.claim(cmd);
      case 'withdraw':
        return this.withdraw(cmd);
      case 'markWithdrawalPaid':
        return this.markWithdrawalPaid(cmd);
    }
  }

  // ------------------------------------------------------------ markets and funds

  private registerMarket(c: RegisterMarketCommand): RegisterMarketResult {
    if (c.assetId < 0n || c.epoch < 0n || c.strike < 0n || c.expiration < 0n) {
      return {
        status: 'FAIL',
        error: err('INVALID_MARKET', 'Asset id, epoch, strike and expiration must be non-negative.'),
      };
    }
    let epochs = this.s.books.get(c.assetId);
    if (epochs === undefined) {
      epochs = new Map();
      this.s.books.set(c.assetId, epochs);
    }
    if (epochs.has(c.epoch))
      return { status: 'FAIL', error: err('MARKET_EXISTS', 'This asset epoch is already registered.') };
    epochs.set(c.epoch, newBook(c.assetId, c.epoch, c.strike, c.expiration));
    return { status: 'REGISTERED' };
  }

  private credit(c: CreditCommand): CreditResult {
    if (this.s.creditIndices.has(c.index)) return { status: 'DUPLICATE' };
    if (c.amount <= 0n || c.amount > MAX_AMOUNT) {
      return { status: 'REJECTED', error: err('INVALID_AMOUNT', 'A deposit must be between 1 and 10^15 units.') };
    }
    const amount = Number(c.amount);
    // Keeping the total under 2^53 is what makes number arithmetic exact everywhere inside the engine.
    if (this.s.credited + amount > Number.MAX_SAFE_INTEGER) {
      return {
        status: 'REJECTED',
        error: err('CREDIT_CAP', 'Total deposits would exceed the devnet ledger capacity.'),
      };
    }
    this.s.creditIndices.add(c.index);
    this.s.credited += amount;
    getAccount(this.s, c.owner.toLowerCase()).free += amount;
    return { status: 'CREDITED' };
  }

  private withdraw(c: WithdrawCommand): WithdrawResult {
    if (this.used(c.id))
      return {
        id: c.id,
        status: 'WITHDRAWAL_FAILED',
        error: err('ENTRY_PROCESSED', 'This withdrawal was already processed.'),
      };
    this.s.processed.add(c.id);
    if (c.amount <= 0n || c.amount > MAX_AMOUNT) {
      return {
        id: c.id,
        status: 'WITHDRAWAL_FAILED',
        error: err('INVALID_WITHDRAWAL_PARAMETERS', 'A withdrawal must be between 1 and 10^15 units.'),
      };
    }
    const acct = getAccount(this.s, c.account.toLowerCase());
    const amount = Number(c.amount);
    if (amount > acct.free) {
      return {
        id: c.id,
        status: 'WITHDRAWAL_FAILED',
        error: err('INSUFFICIENT_LEDGER_BALANCE', 'The free balance is smaller than the amount.'),
      };
    }
    acct.free -= amount;
    this.s.withdrawals.set(c.id, { id: c.id, account: acct.id, amount, time: c.time, paid: false, txHash: null });
    return { id: c.id, status: 'WITHDRAWN' };
  }

  private markWithdrawalPaid(c: MarkWithdrawalPaidCommand): MarkWithdrawalPaidResult {
    const w = this.s.withdrawals.get(c.id);
    if (w === undefined) return { status: 'FAIL', error: err('WITHDRAWAL_NOT_FOUND', 'No withdrawal has this id.') };
    if (w.paid) return { status: 'FAIL', error: err('ALREADY_PAID', 'This withdrawal was already paid.') };
    w.paid = true;
    w.txHash = c.txHash;
    this.s.paidOut += w.amount;
    return { status: 'PAID' };
  }

  private resolve(c: ResolveCommand): ResolveResult {
    const base = { assetId: c.assetId, epoch: c.epoch };
    if (this.used(c.id))
      return { ...base, status: 'FAIL', error: err('ENTRY_PROCESSED', 'This resolution was already processed.') };
    const book = getBook(this.s, c.assetId, c.epoch);
    if (book === undefined)
      return { ...base, status: 'FAIL', error: err('ASSET_ID_NOT_REGISTERED', 'This asset epoch is not registered.') };
    if (book.resolved)
      return { ...base, status: 'FAIL', error: err('ALREADY_RESOLVED', 'This asset epoch is already resolved.') };
    if (c.price < 0n)
      return {
        ...base,
        status: 'FAIL',
        error: err('CANNOT_RESOLVE_ASSET_ID', 'The resolution price must be non-negative.'),
      };
    this.s.processed.add(c.id);
    for (const o of clearBook(book)) {
      release(o);
      o.pos.orders.delete(o);
      this.s.orders.delete(o.id);
    }
    retireSides(book);
    book.digests = null;
    this.s.digestBooks.delete(book);
    book.resolved = true;
    book.resolutionPrice = c.price;
    book.upWins = c.price >= book.strike;
    this.events.push({
      type: 'resolution',
      seqId: ++book.seq,
      data: {
        orderId: c.id,
        assetId: book.assetIdStr,
        epoch: book.epochStr,
        price: c.price.toString(),
        arrivalTime: this.timeStr,
      },
    });
    return { ...base, status: 'SUCCESS', price: c.price };
  }

  private claim(c: ClaimCommand): EngineClaimResult {
    const fail = (code: string, message: string): EngineClaimResult => ({
      id: c.id,
      status: 'CLAIM_FAILED',
      amount: 0n,
      error: err(code, message),
    });
    if (this.used(c.id)) return fail('ENTRY_PROCESSED', 'This claim was already processed.');
    const book = getBook(this.s, c.assetId, c.epoch);
    if (book === undefined) return fail('ASSET_ID_NOT_REGISTERED', 'This asset epoch is not registered.');
    if (!book.resolved) return fail('EPOCH_NOT_RESOLVED', 'This asset epoch is not resolved yet.');
    this.s.processed.add(c.id);
    const pos = book.positions.get(c.account.toLowerCase());
    if (pos?.claimed === true) return fail('ALREADY_CLAIMED', 'This position was already claimed.');
    const amount = pos === undefined ? 0 : winning(book, pos.net);
    if (pos === undefined || amount === 0)
      return fail('NO_CLAIMABLE_AMOUNT', 'There is nothing to claim for this account in this epoch.');
    // A winning contract pays 1e6 per contract, i.e. one unit per size unit, from the market pool.
    pos.account.free += amount;
    book.pool -= amount;
    pos.pnl += amount - pos.cost;
    pos.cost = 0;
    pos.net = 0;
    pos.claimed = true;
    return { id: c.id, status: 'CLAIMED', amount: BigInt(amount) };
  }

  // ------------------------------------------------------------ orders

  /** Static checks, market state, ALO and margin. `release` is an order of the same account and side that will be
   *  cancelled first (cancel-replace), so its reservation counts as available. */
  private admit(f: OrderFields, release: Order | null): Admitted | Rejection {
    if (typeof f.orderId !== 'string' || !HEX32.test(f.orderId))
      return invalid('INVALID_ORDER_ID', 'The order id must be a 32-byte hex digest.');
    if (this.used(f.orderId)) return invalid('ENTRY_PROCESSED', 'An order with this digest was already processed.');
    const book = getBook(this.s, f.assetId, f.epoch);
    if (book === undefined) return invalid('ASSET_ID_NOT_REGISTERED', 'This asset epoch is not registered.');
    if (f.price < MIN_PRICE || f.price > MAX_PRICE || f.price % PRICE_TICK !== 0n) {
      return invalid('INVALID_PRICE', 'Price must be a multiple of 1,000 between 1,000 and 999,000.');
    }
    if (f.size < SIZE_LOT || f.size > MAX_PRACTICAL_SIZE || f.size % SIZE_LOT !== 0n) {
      return invalid('INVALID_SIZE', 'Size must be a multiple of 10,000 between 10,000 and 100,000,000,000.');
    }
    const tif = f.tif >= 0n && f.tif <= 3n ? TIF_NAMES[Number(f.tif)] : undefined;
    if (tif === undefined)
      return invalid('INVALID_TIME_IN_FORCE', 'Time in force must be 0 (GTC), 1 (FOK), 2 (IOC) or 3 (ALO).');
    if (typeof f.side !== 'boolean') return invalid('INVALID_SIDE', 'Side must be a boolean.');
    if (book.resolved || this.now >= book.expirationMs) {
      return {
        reason: 'MARKET_RESOLVED',
        error: err('MARKET_RESOLVED', 'This epoch is expired or resolved; it no longer trades.'),
      };
    }
    const tick = Number(f.price / PRICE_TICK);
    const sell = f.side;
    if (tif === 'ALO' && (sell ? book.bestBid >= tick : book.bestAsk <= tick)) {
      return { reason: 'ALO', error: err('ALO_WOULD_CROSS', 'A post-only order may not cross the book.') };
    }
    const size = Number(f.size);
    const acct = getAccount(this.s, f.account.toLowerCase());
    const pos = getPosition(book, acct);
    const rp = planReservedPosition(pos, sell, size, release === null ? 0 : release.rp);
    const rm = value(size - rp, rate(sell, tick));
    if (rm > acct.free + (release === null ? 0 : release.rm)) {
      return {
        reason: 'MARGIN',
        error: err('INSUFFICIENT_MARGIN', 'The free balance does not cover the collateral this order needs.'),
      };
    }
    return { book, pos, tick, size, tif, rp, rm };
  }

  private place(f: OrderFields): NewOrderResult {
    const a = this.admit(f, null);
    if ('reason' in a) {
      if (typeof f.orderId === 'string' && HEX32.test(f.orderId))
        this.consume(f.orderId, getBook(this.s, f.assetId, f.epoch));
      return rejected(f, a);
    }
    this.consume(f.orderId, a.book);
    const { book, pos, tick, size, tif } = a;
    if (tif === 'FOK' && this.available(book, pos, f.side, tick, size) < size) {
      return { orderId: f.orderId, status: 'CANCELLED', reason: 'FOK', filled: 0n, remaining: 0n, cancelled: f.size };
    }
    const o: Order = {
      id: f.orderId,
      pos,
      sell: f.side,
      tick,
      size,
      remaining: size,
      rp: a.rp,
      rm: a.rm,
      tif,
      time: this.now,
      seq: ++this.s.orderSeq,
      signer: f.signer.toLowerCase(),
      signatureType: f.signatureType,
      nonce: f.nonce,
      approvalNonce: f.approvalNonce,
      live: true,
    };
    reserve(o);
    this.match(book, o);
    const filled = size - o.remaining;
    if (o.remaining > 0 && (tif === 'GTC' || tif === 'ALO')) {
      pushOrder(book, o);
      this.s.orders.set(o.id, o);
      pos.orders.add(o);
      if (o.rp > 0) pos.reducing.add(o);
      this.emitOrder(book, o);
      return {
        orderId: o.id,
        status: filled > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED',
        reason: '',
        filled: BigInt(filled),
        remaining: BigInt(o.remaining),
        cancelled: 0n,
      };
    }
    const rest = o.remaining;
    release(o);
    o.live = false;
    if (rest === 0)
      return { orderId: o.id, status: 'FILLED', reason: '', filled: f.size, remaining: 0n, cancelled: 0n };
    // Only IOC gets here with a remainder (FOK was checked to fill completely).
    return {
      orderId: o.id,
      status: filled > 0 ? 'PARTIALLY_FILLED' : 'CANCELLED',
      reason: 'IOC',
      filled: BigInt(filled),
      remaining: 0n,
      cancelled: BigInt(rest),
    };
  }

  /** Size a taker could fill from other accounts' orders up to its limit (stops once `need` is reached). */
  private available(book: Book, pos: PositionState, sell: boolean, tick: number, need: number): number {
    let sum = 0;
    if (sell) {
      for (let t = book.bestBid; t >= tick && t >= 1; t--) {
        sum += levelSum(book.bids[t] as Level, pos, need - sum);
        if (sum >= need) break;
      }
    } else {
      for (let t = book.bestAsk; t <= tick && t <= MAX_TICK; t++) {
        sum += levelSum(book.asks[t] as Level, pos, need - sum);
        if (sum >= need) break;
      }
    }
    return sum;
  }

  private match(book: Book, o: Order): void {
    const levels = o.sell ? book.bids : book.asks;
    while (o.remaining > 0) {
      const best = o.sell ? book.bestBid : book.bestAsk;
      // No bid is 0 and no ask is 1000, so an empty side never crosses.
      if (o.sell ? best < o.tick : best > o.tick) return;
      const maker = frontOf(levels[best] as Level) as Order;
      if (maker.pos === o.pos) {
        this.cancelResting(book, maker, o.id);
        continue;
      }
      const u = o.remaining < maker.remaining ? o.remaining : maker.remaining;
      book.pool += settle(maker, u, best) + settle(o, u, best);
      book.lastTick = best;
      book.lastTime = this.now;
      this.recordFill(maker, best, u, true);
      this.recordFill(o, best, u, false);
      this.emitTrade(book, maker, u);
      if (maker.remaining === 0) {
        unlinkOrder(book, maker);
        this.s.orders.delete(maker.id);
        maker.pos.orders.delete(maker);
      }
    }
  }

  private recordFill(o: Order, tick: number, size: number, maker: boolean): void {
    const fills = o.pos.account.fills;
    fills.push({ time: this.now, orderId: o.id, book: o.pos.book, sell: o.sell, tick, size, maker });
    if (fills.length >= 2 * this.s.fillHistory) fills.splice(0, fills.length - this.s.fillHistory);
  }

  /** Removes a resting order, returns its reservation and emits a `cancel` event carrying `requestId`. */
  private cancelResting(book: Book, o: Order, requestId: Hex): void {
    release(o);
    unlinkOrder(book, o);
    this.s.orders.delete(o.id);
    o.pos.orders.delete(o);
    this.events.push({
      type: 'cancel',
      seqId: ++book.seq,
      data: {
        orderId: requestId,
        cancelId: o.id,
        assetId: book.assetIdStr,
        epoch: book.epochStr,
        arrivalTime: this.timeStr,
      },
    });
  }

  private emitOrder(book: Book, o: Order): void {
    this.events.push({
      type: 'order',
      seqId: ++book.seq,
      data: {
        orderId: o.id,
        assetId: book.assetIdStr,
        epoch: book.epochStr,
        price: PRICE_STR[o.tick] as string,
        side: o.sell ? 'sell' : 'buy',
        size: String(o.remaining),
        arrivalTime: this.timeStr,
        tif: o.tif,
        type: 'limit',
      },
    });
  }

  private emitTrade(book: Book, maker: Order, fill: number): void {
    const price = PRICE_STR[maker.tick] as string;
    this.events.push({
      type: 'trade',
      seqId: ++book.seq,
      data: {
        orderId: maker.id,
        assetId: book.assetIdStr,
        epoch: book.epochStr,
        price,
        side: maker.sell ? 'sell' : 'buy',
        size: String(maker.remaining),
        arrivalTime: this.timeStr,
        tif: maker.tif,
        type: 'limit',
        fillPrice: price,
        fill: String(fill),
      },
    });
  }

  // ------------------------------------------------------------ cancels

  /** The account's resting order `orderId` in this book, if any. */
  private ownOrder(book: Book, account: string, orderId: string): Order | undefined {
    const o = this.s.orders.get(orderId);
    return o !== undefined && o.pos.book === book && o.pos.account.id === account ? o : undefined;
  }

  private cancel(c: CancelCommand): EngineCancelResult {
    const fail = (code: string, message: string): EngineCancelResult => cancelFailed(c.id, code, message);
    if (this.used(c.id)) return fail('ENTRY_PROCESSED', 'This cancel was already processed.');
    const book = getBook(this.s, c.assetId, c.epoch);
    if (book === undefined) return fail('ORDERBOOK_NOT_FOUND', 'This asset epoch is not registered.');
    this.consume(c.id, book);
    const account = c.account.toLowerCase();
    if (c.orderId.toLowerCase() === ZERO_HASH) {
      const pos = book.positions.get(account);
      const targets = pos === undefined ? [] : [...pos.orders];
      for (const o of targets) this.cancelResting(book, o, c.id);
      return { id: c.id, status: 'CANCELLED', orderIds: targets.map((o) => o.id) };
    }
    const o = this.ownOrder(book, account, c.orderId);
    if (o === undefined) return cancelFailed(c.id, 'ORDER_NOT_FOUND', 'No resting order of this account has this id.');
    this.cancelResting(book, o, c.id);
    return { id: c.id, status: 'CANCELLED', orderIds: [o.id] };
  }

  private cancelReplace(c: CancelReplaceCommand): CancelReplaceResult {
    const cancelFailed = (code: string, message: string): CancelReplaceResult => {
      const error = err(code, message);
      return {
        id: c.id,
        status: 'CANCEL_FAILED',
        cancel: { id: c.id, status: 'CANCEL_FAILED', orderIds: [], error },
        replacement: null,
        error,
      };
    };
    if (this.used(c.id)) return cancelFailed('ENTRY_PROCESSED', 'This cancel-replace was already processed.');
    if (c.cancelOrderId.toLowerCase() === ZERO_HASH) {
      return cancelFailed(
        'CANCEL_REPLACE_CANCEL_ALL_NOT_SUPPORTED',
        'Cancel-replace needs one target order, not cancel-all.',
      );
    }
    const r = c.replacement;
    if (r.assetId !== c.assetId || r.epoch !== c.epoch) {
      return cancelFailed(
        'CROSS_MARKET_CANCEL_REPLACE_NOT_SUPPORTED',
        'The replacement must be in the same asset and epoch.',
      );
    }
    const account = c.account.toLowerCase();
    if (r.account.toLowerCase() !== account)
      return cancelFailed('SENDER_MISMATCH', 'The replacement must have the same sender.');
    const book = getBook(this.s, c.assetId, c.epoch);
    if (book === undefined) return cancelFailed('ORDERBOOK_NOT_FOUND', 'This asset epoch is not registered.');
    this.consume(c.id, book);
    const target = this.ownOrder(book, account, c.cancelOrderId);
    if (target === undefined) return cancelFailed('ORDER_NOT_FOUND', 'No resting order of this account has this id.');

    const notCommitted: EngineCancelResult = { id: c.id, status: 'CANCEL_NOT_COMMITTED', orderIds: [] };
    if (r.side !== target.sell) {
      const rej: Rejection = {
        reason: 'INVALID_ORDER',
        error: err('REPLACEMENT_SIDE_MISMATCH', 'The replacement must be on the same side as the cancelled order.'),
      };
      if (typeof r.orderId === 'string' && HEX32.test(r.orderId)) this.consume(r.orderId, book);
      return {
        id: c.id,
        status: 'REPLACEMENT_FAILED',
        cancel: notCommitted,
        replacement: rejected(r, rej),
        error: rej.error,
      };
    }
    const a = this.admit(r, target);
    if ('reason' in a) {
      if (typeof r.orderId === 'string' && HEX32.test(r.orderId)) this.consume(r.orderId, book);
      if (c.allOrNothing)
        return {
          id: c.id,
          status: 'REPLACEMENT_FAILED',
          cancel: notCommitted,
          replacement: rejected(r, a),
          error: a.error,
        };
      this.cancelResting(book, target, c.id);
      return {
        id: c.id,
        status: 'CANCEL_COMMITTED_REPLACEMENT_FAILED',
        cancel: { id: c.id, status: 'CANCELLED', orderIds: [target.id] },
        replacement: rejected(r, a),
        error: a.error,
      };
    }
    this.cancelResting(book, target, c.id);
    const replacement = this.place(r);
    return {
      id: c.id,
      status: 'SUCCESS',
      cancel: { id: c.id, status: 'CANCELLED', orderIds: [target.id] },
      replacement,
    };
  }

  // ------------------------------------------------------------ queries

  private book(assetId: bigint, epoch: bigint): Book {
    const b = getBook(this.s, assetId, epoch);
    if (b === undefined)
      throw new EngineError('ASSET_ID_NOT_REGISTERED', `Asset ${assetId} epoch ${epoch} is not registered.`);
    return b;
  }

  isProcessed(id: string): boolean {
    return this.used(id);
  }

  market(assetId: bigint, epoch: bigint): MarketView {
    const b = this.book(assetId, epoch);
    return {
      assetId,
      epoch,
      strike: b.strike,
      expiration: b.expiration,
      resolved: b.resolved,
      resolutionPrice: b.resolutionPrice,
      upWins: b.resolved ? b.upWins : null,
    };
  }

  /** Registered epochs of an asset, ascending. */
  epochs(assetId: bigint): bigint[] {
    const m = this.s.books.get(assetId);
    return m === undefined ? [] : [...m.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  }

  /** Unknown accounts have a zero balance. */
  balance(account: string): EngineBalance {
    const a = this.s.accounts.get(account.toLowerCase());
    return { account: account.toLowerCase(), balance: BigInt(a?.free ?? 0), pending: BigInt(a?.pending ?? 0) };
  }

  position(account: string, assetId: bigint, epoch: bigint): EnginePosition {
    const b = this.book(assetId, epoch);
    const id = account.toLowerCase();
    const p = b.positions.get(id);
    const net = p?.net ?? 0;
    const cost = p?.cost ?? 0;
    const pnl = p?.pnl ?? 0;
    const abs = net < 0 ? -net : net;
    return {
      account: id,
      assetId,
      epoch,
      net: BigInt(net),
      size: BigInt(abs),
      balance: BigInt(abs),
      margin: BigInt(cost),
      realisedPnl: BigInt(pnl),
      pnl: BigInt(pnl < 0 ? -pnl : pnl),
      avgEntryPrice: abs === 0 ? 0n : (BigInt(cost) * 1_000_000n) / BigInt(abs),
      side: net < 0,
      bSide: net < 0,
      mSide: false,
      pSide: pnl < 0,
      reserved: BigInt((p?.resLong ?? 0) + (p?.resShort ?? 0)),
      claimed: p?.claimed ?? false,
    };
  }

  /** Depth is clamped to 1..5000 levels per side (docs/protocol/endpoints.md#book-depth). */
  l2(assetId: bigint, epoch: bigint, depth = 200): L2View {
    const b = this.book(assetId, epoch);
    const d = Math.max(1, Math.min(5000, Math.floor(depth)));
    const bids: L2LevelView[] = [];
    const asks: L2LevelView[] = [];
    for (let t = b.bestBid; t >= 1 && bids.length < d; t--) {
      const l = b.bids[t] as Level;
      if (l.live > 0) bids.push(levelView(l, t));
    }
    for (let t = b.bestAsk; t <= MAX_TICK && asks.length < d; t++) {
      const l = b.asks[t] as Level;
      if (l.live > 0) asks.push(levelView(l, t));
    }
    return { assetId, epoch, seqId: b.seq, bids, asks };
  }

  /** An account's resting orders, each side in priority order. */
  accountOrders(account: string, assetId: bigint, epoch: bigint): AccountOrdersView {
    const b = this.book(assetId, epoch);
    const p = b.positions.get(account.toLowerCase());
    const own = p === undefined ? [] : [...p.orders].sort(priority);
    return {
      assetId,
      epoch,
      seqId: b.seq,
      buys: own.filter((o) => !o.sell).map(orderView),
      sells: own.filter((o) => o.sell).map(orderView),
    };
  }

  top(assetId: bigint, epoch: bigint): TopView {
    const b = this.book(assetId, epoch);
    return {
      assetId,
      epoch,
      seqId: b.seq,
      bid: b.bestBid === 0 ? null : levelView(b.bids[b.bestBid] as Level, b.bestBid),
      ask: b.bestAsk === 1000 ? null : levelView(b.asks[b.bestAsk] as Level, b.bestAsk),
      last: BigInt(b.lastTick * 1000),
      lastTs: b.lastTime,
    };
  }

  /** Resting orders of a book (optionally one account's), in priority order. Signatures are the journal's. */
  ledgerOrders(assetId: bigint, epoch: bigint, account?: string): LedgerOrderView[] {
    const b = this.book(assetId, epoch);
    let list: Order[];
    if (account === undefined) {
      list = [];
      for (const p of b.positions.values()) for (const o of p.orders) list.push(o);
    } else list = [...(b.positions.get(account.toLowerCase())?.orders ?? [])];
    return list.sort(priority).map((o) => ({
      id: o.id,
      type: 'limit',
      side: o.sell,
      epoch: b.epoch,
      assetId: b.assetId,
      size: BigInt(o.size),
      price: BigInt(o.tick * 1000),
      limitPrice: BigInt(o.tick * 1000),
      account: o.pos.account.id,
      signer: o.signer,
      signatureType: o.signatureType,
      filled: BigInt(o.size - o.remaining),
      remaining: BigInt(o.remaining),
      reservedPosition: BigInt(o.rp),
      reservedSize: BigInt(o.remaining - o.rp),
      reservedMargin: BigInt(o.rm),
      maxSize: BigInt(o.size),
      timeInForce: BigInt(TIF_NAMES.indexOf(o.tif)),
      nonce: o.nonce,
      approvalNonce: o.approvalNonce,
      seq: o.seq,
      time: o.time,
    }));
  }

  /** What a claim would pay now. Throws EPOCH_NOT_RESOLVED before resolution. */
  claimable(account: string, assetId: bigint, epoch: bigint): bigint {
    const b = this.book(assetId, epoch);
    if (!b.resolved)
      throw new EngineError('EPOCH_NOT_RESOLVED', `Asset ${assetId} epoch ${epoch} is not resolved yet.`);
    const p = b.positions.get(account.toLowerCase());
    return p === undefined || p.claimed ? 0n : BigInt(winning(b, p.net));
  }

  /** The account's most recent own fills, oldest first. */
  fills(account: string): EngineFill[] {
    const a = this.s.accounts.get(account.toLowerCase());
    if (a === undefined) return [];
    return a.fills.slice(-this.s.fillHistory).map((f) => ({
      time: f.time,
      orderId: f.orderId,
      assetId: f.book.assetId,
      epoch: f.book.epoch,
      side: f.sell,
      price: BigInt(f.tick * 1000),
      size: BigInt(f.size),
      liquidity: f.maker ? 'maker' : 'taker',
    }));
  }

  withdrawals(account?: string): EngineWithdrawal[] {
    const out: EngineWithdrawal[] = [];
    const id = account?.toLowerCase();
    for (const w of this.s.withdrawals.values()) {
      if (id !== undefined && w.account !== id) continue;
      out.push({
        id: w.id,
        account: w.account,
        amount: BigInt(w.amount),
        time: w.time,
        paid: w.paid,
        txHash: w.txHash,
      });
    }
    return out;
  }

  /** Withdrawals queued for the payout process, in request order. */
  pendingPayouts(): EngineWithdrawal[] {
    return this.withdrawals().filter((w) => !w.paid);
  }

  totals(): TotalsView {
    let free = 0;
    let pending = 0;
    let pool = 0;
    let queued = 0;
    for (const a of this.s.accounts.values()) {
      free += a.free;
      pending += a.pending;
    }
    for (const m of this.s.books.values()) for (const b of m.values()) pool += b.pool;
    for (const w of this.s.withdrawals.values()) if (!w.paid) queued += w.amount;
    return {
      credited: BigInt(this.s.credited),
      paidOut: BigInt(this.s.paidOut),
      free: BigInt(free),
      pending: BigInt(pending),
      positionCollateral: BigInt(pool),
      queuedWithdrawals: BigInt(queued),
    };
  }

  /** sha256 (hex) of the canonical serialisation of the whole state. */
  stateHash(): string {
    return stateHash(this.s);
  }
}

// ------------------------------------------------------------ helpers

function cancelFailed(id: Hex, code: string, message: string): EngineCancelResult {
  return { id, status: 'CANCEL_FAILED', orderIds: [], error: err(code, message) };
}

function rejected(f: OrderFields, r: Rejection): NewOrderResult {
  return {
    orderId: f.orderId,
    status: 'REJECTED',
    reason: r.reason,
    filled: 0n,
    remaining: 0n,
    cancelled: typeof f.size === 'bigint' && f.size > 0n ? f.size : 0n,
    error: r.error,
  };
}

/** Units a position receives at claim: |net| if it is on the winning side. */
function winning(book: Book, net: number): number {
  if (book.upWins) return net > 0 ? net : 0;
  return net < 0 ? -net : 0;
}

/** Live size of a level not owned by `pos`, summed until `cap` is reached. */
function levelSum(level: Level, pos: PositionState, cap: number): number {
  let sum = 0;
  for (let i = level.head; i < level.q.length && sum < cap; i++) {
    const o = level.q[i] as Order;
    if (o.live && o.pos !== pos) sum += o.remaining;
  }
  return sum;
}

/** Book priority: better price first, then arrival. */
function priority(a: Order, b: Order): number {
  if (a.sell !== b.sell) return a.sell ? 1 : -1;
  if (a.tick !== b.tick) return a.sell ? a.tick - b.tick : b.tick - a.tick;
  return a.seq - b.seq;
}

function orderView(o: Order): BookOrderView {
  return { id: o.id, size: BigInt(o.remaining), price: BigInt(o.tick * 1000), time: o.time, account: o.pos.account.id };
}

function levelView(l: Level, tick: number): L2LevelView {
  const orders = liveOrders(l).map(orderView);
  let size = 0n;
  for (const o of orders) size += o.size;
  return { price: BigInt(tick * 1000), size, orderCount: orders.length, orders };
}
