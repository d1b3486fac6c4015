// Private state of one account (docs/protocol/trading-client.md#private-state): balance, pending collateral, positions,
// own resting orders and own fills. Refreshed after own actions and own fills; a snapshot is dropped when the epoch it
// was taken for is no longer current once it arrives.
import type { Address, Hex } from '../../shared/protocol';
import { ExchangeHttpError } from '../errors';
import type { MarketUpdate, TradeEvent } from '../feeds/market-feed';
import type { ExchangeReader } from '../http/read-client';
import type { Balance, BookOrders, ExchangePosition } from '../http/schemas';

export interface OwnFill {
  orderId: Hex;
  assetId: bigint;
  epoch: bigint;
  /** false = BUY, true = SELL (the resting order's side). */
  side: boolean;
  fill: bigint;
  fillPrice: bigint;
  seqId: bigint;
}

export interface AccountStateOptions {
  reader: Pick<ExchangeReader, 'getBalance' | 'getBookOrders' | 'getPosition'>;
  account: Address;
  /** The epoch now traded for an asset (EpochWatcher); snapshots for another epoch are dropped. */
  currentEpoch(assetId: bigint): bigint | undefined;
  onChange?(state: AccountState): void;
  onFill?(fill: OwnFill): void;
  /** Own fills kept, newest (default 1000). */
  fillsKept?: number;
  /** Own order ids remembered to recognise their fills, newest (default 4096); resting ones are renewed on every read. */
  ownOrdersKept?: number;
  /**
   * How long an own order id is remembered after it was last sent or seen resting (default 2 min): a
   * late fill arrives within seconds, and a feed gap re-reads the account anyway.
   */
  ownOrderGraceMs?: number;
  /** Clock for the grace above (tests). */
  now?: () => number;
  /** Markets (asset and epoch) whose orders and position are kept (default 256). */
  marketsKept?: number;
}

export const MARKETS_KEPT = 256;

export const OWN_FILLS_KEPT = 1_000;
export const OWN_ORDERS_KEPT = 4_096;
export const OWN_ORDER_GRACE_MS = 120_000;
/** How often the grace is applied: a sweep walks every id, so not on each order. */
const OWN_SWEEP_EVERY_MS = 10_000;

const key = (assetId: bigint, epoch: bigint) => `${assetId}:${epoch}`;

export class AccountState {
  readonly account: Address;
  readonly #o: AccountStateOptions;
  balance: Balance | null = null;
  readonly positions = new Map<string, ExchangePosition | null>();
  readonly orders = new Map<string, BookOrders>();
  readonly fills: OwnFill[] = [];
  /** Ids of own orders (resting or just sent), lowercase, with when they were last sent or seen resting. */
  readonly #own = new Map<string, number>();
  #sweptAt = 0;
  readonly #inflight = new Map<string, Promise<boolean>>();
  readonly #queued = new Set<string>();
  /** Balance reads in the order they were sent: an answer to an older read never replaces a newer one. */
  #balanceSent = 0;
  #balanceTaken = 0;
  /** When the kept balance was read (sent), for re-reads that skip a balance still fresh. */
  #balanceReadAt = -Infinity;
  dropped = 0;
  /**
   * Bumped whenever the balance amounts, a position or a market's resting orders change (every change
   * to them is made here): what keeps derived figures (main's order gate) knows it is stale by one compare.
   */
  #revision = 0;

  constructor(opts: AccountStateOptions) {
    this.#o = opts;
    this.account = opts.account;
  }

  get revision(): number {
    return this.#revision;
  }

  position(assetId: bigint, epoch: bigint): ExchangePosition | null | undefined {
    return this.positions.get(key(assetId, epoch));
  }

  restingOrders(assetId: bigint, epoch: bigint): BookOrders | undefined {
    return this.orders.get(key(assetId, epoch));
  }

  /** Signed inventory: > 0 long Up, < 0 short (the sign comes from `bSide`, see schemas.ts). */
  inventory(assetId: bigint, epoch: bigint): bigint {
    return this.position(assetId, epoch)?.inventory ?? 0n;
  }

  /** Remember an order this account just sent, so its fills are recognised before the next refresh. */
  trackOrder(orderHash: Hex): void {
    this.#remember(orderHash);
  }

  /**
   * Bounded by time and count: insertion order, renewed ids move to the end; ids not renewed within
   * the grace go (swept now and then), and beyond the count the oldest go first. A busy day holds
   * minutes of ids, not the day's.
   */
  #remember(orderId: string): void {
    const id = orderId.toLowerCase();
    const now = this.#now();
    this.#own.delete(id);
    this.#own.set(id, now);
    if (now - this.#sweptAt >= OWN_SWEEP_EVERY_MS) {
      this.#sweptAt = now;
      const cutoff = now - (this.#o.ownOrderGraceMs ?? OWN_ORDER_GRACE_MS);
      // Insertion order is renewal order: stop at the first id renewed within the grace.
      for (const [k, at] of this.#own) {
        if (at >= cutoff) break;
        this.#own.delete(k);
      }
    }
    const limit = this.#o.ownOrdersKept ?? OWN_ORDERS_KEPT;
    while (this.#own.size > limit) this.#own.delete(this.#own.keys().next().value!);
  }

  /**
   * After a roll-over: drops what an asset's epochs before `oldest` hold that shows nothing (no
   * resting order, a flat position). Positions that still hold or made something stay, within the
   * count bound of `marketsKept`.
   */
  forgetEpochsBefore(assetId: bigint, oldest: bigint): void {
    const old = (k: string): boolean => {
      const [a, e] = k.split(':');
      return a === assetId.toString() && BigInt(e!) < oldest;
    };
    for (const [k, o] of [...this.orders]) if (old(k) && o.buys.length + o.sells.length === 0) this.orders.delete(k);
    for (const [k, p] of [...this.positions])
      if (old(k) && (!p || (p.inventory === 0n && p.margin === 0n && p.realisedPnl === 0n))) this.positions.delete(k);
    this.#revision++;
  }

  /**
   * Positions as last seen before a restart (main keeps them), for markets no read has answered for
   * yet: a read of the market replaces its entry. Calls onChange when any was added.
   */
  restorePositions(positions: readonly ExchangePosition[]): void {
    let added = false;
    for (const p of positions) {
      const k = key(p.assetId, p.epoch);
      if (this.positions.has(k)) continue;
      this.positions.set(k, p);
      added = true;
    }
    if (!added) return;
    this.#revision++;
    this.#bound(this.positions);
    this.#o.onChange?.(this);
  }

  /** Keeps at most `marketsKept` markets in a per-market map, the oldest read first to go. */
  #bound(map: Map<string, unknown>): void {
    const limit = this.#o.marketsKept ?? MARKETS_KEPT;
    while (map.size > limit) {
      map.delete(map.keys().next().value!);
      this.#revision++;
    }
  }

  isOwnOrder(orderId: string): boolean {
    return this.#own.has(orderId.toLowerCase());
  }

  /**
   * Feed market updates here: own fills are recorded and trigger a refresh
   * (docs/protocol/trading-client.md#private-state).
   */
  onMarketUpdate(u: MarketUpdate): void {
    if (u.type !== 'trade' || !this.isOwnOrder(u.data.orderId)) return;
    const t: TradeEvent = u;
    const fill: OwnFill = {
      orderId: t.data.orderId,
      assetId: t.assetId,
      epoch: t.epoch,
      side: t.data.side,
      fill: t.data.fill,
      fillPrice: t.data.fillPrice,
      seqId: t.seqId,
    };
    this.fills.push(fill);
    const limit = this.#o.fillsKept ?? OWN_FILLS_KEPT;
    if (this.fills.length > limit) this.fills.splice(0, this.fills.length - limit);
    this.#o.onFill?.(fill);
    // The fill is recorded; a re-read that fails (a dropped connection) waits for the next refresh
    // instead of rejecting with nobody to hear it (an unhandled rejection ends a node process).
    void this.refresh(t.assetId, t.epoch).catch(() => false);
  }

  /**
   * Re-read resting orders, balance and position in parallel. Calls for the same market while one is
   * running coalesce into one more refresh afterwards. Resolves false if the snapshot was dropped.
   */
  refresh(assetId: bigint, epoch: bigint): Promise<boolean> {
    const k = key(assetId, epoch);
    const running = this.#inflight.get(k);
    if (running) {
      this.#queued.add(k);
      return running.then(() => this.#inflight.get(k) ?? true);
    }
    const p = this.#refreshOnce(assetId, epoch).finally(() => {
      this.#inflight.delete(k);
      // Callers that asked for it wait on it through #inflight; this copy only must not reject unheard.
      if (this.#queued.delete(k)) void this.refresh(assetId, epoch).catch(() => false);
    });
    this.#inflight.set(k, p);
    return p;
  }

  /**
   * Re-reads the balance alone: a credit, a deposit or a withdrawal made elsewhere moves it with no
   * market event to tell. Calls onChange only when it moved; resolves whether it did. With
   * `staleAfterMs`, a balance read more recently than that (a market refresh reads it too) is not read again.
   */
  async refreshBalance(staleAfterMs?: number): Promise<boolean> {
    if (staleAfterMs !== undefined && this.#now() - this.#balanceReadAt < staleAfterMs) return false;
    const before = this.balance;
    if (!this.#takeBalance(await this.#readBalance())) return false;
    const now = this.balance!;
    if (before && before.balance === now.balance && before.pending === now.pending) return false;
    this.#o.onChange?.(this);
    return true;
  }

  /** One balance read, numbered when sent (the periodic re-read and a market refresh may overlap). */
  async #readBalance(): Promise<{ sent: number; at: number; balance: Balance }> {
    const sent = ++this.#balanceSent;
    const at = this.#now();
    return { sent, at, balance: await this.#o.reader.getBalance(this.account) };
  }

  /** Keeps a read unless one sent after it was already kept; says whether it was. */
  #takeBalance(read: { sent: number; at: number; balance: Balance }): boolean {
    if (read.sent < this.#balanceTaken) return false;
    this.#balanceTaken = read.sent;
    this.#balanceReadAt = read.at;
    const before = this.balance;
    if (!before || before.balance !== read.balance.balance || before.pending !== read.balance.pending) this.#revision++;
    this.balance = read.balance;
    return true;
  }

  #now(): number {
    return this.#o.now?.() ?? Date.now();
  }

  async #refreshOnce(assetId: bigint, epoch: bigint): Promise<boolean> {
    const r = this.#o.reader;
    const [orders, balance, position] = await Promise.all([
      r.getBookOrders(assetId, epoch, this.account),
      this.#readBalance(),
      r.getPosition(this.account, assetId, epoch).catch((e: unknown) => {
        // No position yet is a normal state, not an error.
        if (e instanceof ExchangeHttpError && e.status === 404) return null;
        throw e;
      }),
    ]);
    if (this.#o.currentEpoch(assetId) !== undefined && this.#o.currentEpoch(assetId) !== epoch) {
      this.dropped++;
      return false;
    }
    const k = key(assetId, epoch);
    this.#revision++;
    this.orders.set(k, orders);
    this.#bound(this.orders);
    for (const o of [...orders.buys, ...orders.sells]) this.#remember(o.id);
    this.#takeBalance(balance);
    this.positions.set(k, position);
    this.#bound(this.positions);
    this.#o.onChange?.(this);
    return true;
  }
}
