/**
 * The selected account's risk figures, kept between orders so the order gate reads them instead of
 * recomputing them per order (docs/risk-guards.md#how-the-gate-stays-fast): cash, each market's
 * position value at fair (or at its settlement) and the worst its open orders could lose
 * (resting-worst.ts), resting size per market and side, the open-order count.
 *
 * They are a pure function of the account's state (its `revision` says when that changed), each
 * market's fair value and whether its epoch has ended and how it settled. The session rebuilds them
 * when the account changes; a read first checks every one of those inputs against what the figures
 * were made from, rebuilding the account part or revaluing one market when any differs. A missed
 * event so costs time, never a stale figure. Within a few tens of milliseconds of a refresh the
 * markets are not asked again while the source's stamp, which moves with every price and settlement
 * they read, is unchanged (the hotkey path: docs/risk-guards.md#how-the-gate-stays-fast).
 */
import type { AccountState } from '../../../client';
import { positionValue, type HeldPosition } from './equity';
import { NO_ORDERS, sumsOf, withOrder, worstOf, type MarketRest, type SideSums } from './resting-worst';

/** What the figures are read from (the running session, see session-view.ts). */
export interface FiguresSource {
  /** The selected account's state, or null when none is selected. */
  account: () => FiguredAccount | null;
  /**
   * The fair price of a market's epoch now, null when there is none. `ahead`: renew a price that
   * would soon be recomputed anyway, so that an order finds it computed. `key`: `${assetId}:${epoch}`,
   * when the caller holds it.
   */
  fair: (assetId: bigint, epoch: bigint, ahead?: boolean, key?: string) => bigint | null;
  /** As equity.ts: for an ended epoch its settled price (null while not known); null for a live epoch. */
  ended: (assetId: bigint, epoch: bigint) => { resolvedFair: bigint | null } | null;
  /**
   * Optional: `stamp` changes whenever a `fair` or `ended` answer may change but for the passing of
   * time; `freshMs` is how long after a read with `ahead` every `fair` answer stays as it was while the
   * stamp is unchanged, by the clock `now`. With it an order's read skips asking each market again
   * within that time.
   */
  freshness?: { stamp: () => number; freshMs: number; now: () => number };
}

export type FiguredAccount = Pick<AccountState, 'revision' | 'balance' | 'positions' | 'orders' | 'inventory'>;

/** The account's figures as the guards count them for one order (see guards.ts AccountRisk). */
export interface OrderFigures {
  /** Signed contracts in the order's market and epoch. */
  inventory: bigint;
  /** Resting size on the order's market, epoch and side. */
  sameSide: bigint;
  /** Resting orders in all markets. */
  openOrders: number;
  /** The worst they could lose if they filled at a stale price, each market as resting-worst.ts counts it. */
  restingCost: bigint;
  /** What rests on the order's market and epoch, without the order an edit replaces (none: nothing). */
  here?: SideSums;
  /**
   * A market's resting orders and what is held there, with its fair value: to count orders on their
   * way with what rests (the gate adds them as if resting).
   */
  market?: (assetId: bigint, epoch: bigint) => MarketRest;
  /** Equity at fair value (equity.ts). */
  equity: bigint;
  /** The fair price of the order's market these figures were made with, null when there is none. */
  fair: bigint | null;
}

interface Resting {
  sell: boolean;
  price: bigint;
  size: bigint;
}

interface Market {
  readonly assetId: bigint;
  readonly epoch: bigint;
  /** `${assetId}:${epoch}`. */
  readonly key: string;
  /** Signed contracts held in it, as the account reads it (`inventory`). */
  inventory: bigint;
  /** Its positions that hold contracts or collateral (one, as the account keys them by market). */
  readonly positions: HeldPosition[];
  readonly orders: Resting[];
  buys: bigint;
  sells: bigint;
  /** The inputs it was valued at: fair price, and for a position the settlement (undefined while live). */
  fair: bigint | null;
  settled: bigint | null | undefined;
  valued: boolean;
  /** The position's value, the orders summed at `fair`, and the worst they could lose (resting-worst.ts). */
  value: bigint;
  sums: SideSums;
  cost: bigint;
}

/** Undefined for a live epoch; the settled price, or null while it is not known, for an ended one. */
function settlementOf(source: FiguresSource, m: Market): bigint | null | undefined {
  if (m.positions.length === 0) return undefined;
  const ended = source.ended(m.assetId, m.epoch);
  return ended ? ended.resolvedFair : undefined;
}

export class AccountFigures {
  readonly #source: FiguresSource;
  /** The account state and revision the markets were built from (null: not built). */
  #account: FiguredAccount | null = null;
  #revision = -1;
  #cash = 0n;
  #markets: Market[] = [];
  /** The sums over the markets, null after a market was valued again. */
  #totals: { value: bigint; cost: bigint; orders: number } | null = null;
  /** Resting orders by lowercase id, for an edit's replaced order. */
  #byId = new Map<string, { market: Market; order: Resting }[]>();
  /** Every market was valued by a refresh() at the source's stamp `#freshStamp`, good until `#freshUntil`. */
  #freshStamp = NaN;
  #freshUntil = -Infinity;

  constructor(source: FiguresSource) {
    this.#source = source;
  }

  /**
   * Brings the figures up to date now, renewing fair values ahead of time: the session calls it when
   * the account changes and every few tens of milliseconds, so an order mostly only reads them.
   */
  refresh(): void {
    const account = this.#current();
    if (!account) return;
    for (const m of this.#markets) if (this.#revalue(m, true)) this.#totals = null;
    const f = this.#source.freshness;
    // Read after the markets: valuing them may itself have moved the stamp.
    if (f) {
      this.#freshStamp = f.stamp();
      this.#freshUntil = f.now() + f.freshMs;
    }
  }

  /** True when no market's fair value or settlement can have changed since the last refresh(). */
  #fresh(): boolean {
    const f = this.#source.freshness;
    return f !== undefined && f.now() < this.#freshUntil && f.stamp() === this.#freshStamp;
  }

  /**
   * The figures for one order, or null before the account's balance is read. `replaces`: an edit's
   * order being replaced, left out of the open orders.
   */
  forOrder(assetId: bigint, epoch: bigint, sell: boolean, replaces?: string): OrderFigures | null {
    const account = this.#current();
    if (!account) return null;
    const totals = this.#valued();
    const own = this.#markets.find((m) => m.assetId === assetId && m.epoch === epoch) ?? null;
    const equity = this.#cash + totals.value;
    let restingCost = totals.cost;
    let openOrders = totals.orders;
    let sameSide = own ? (sell ? own.sells : own.buys) : 0n;
    let here = own ? own.sums : NO_ORDERS;
    const replaced = replaces === undefined ? undefined : this.#byId.get(replaces.toLowerCase());
    // The worst case is per market, not per order: each market the replaced order rests in, again without it.
    const edited = new Map<Market, SideSums>();
    for (const r of replaced ?? []) {
      openOrders -= 1;
      const m = r.market;
      const was = edited.get(m) ?? m.sums;
      const without = withOrder(was, r.order, m.fair, -1n);
      edited.set(m, without);
      restingCost += worstOf(without, m.inventory, m.fair) - worstOf(was, m.inventory, m.fair);
      if (m === own) here = without;
      if (m === own && r.order.sell === sell) sameSide -= r.order.size;
    }
    // A market with no entry holds nothing; asked of the account all the same, where it keeps it.
    const inventory = own ? own.inventory : account.inventory(assetId, epoch);
    const fair = own ? own.fair : this.#source.fair(assetId, epoch);
    const others = this.#marketRest(account);
    const market = (a: bigint, e: bigint): MarketRest =>
      a === assetId && e === epoch ? { sums: here, inventory, fair } : others(a, e);
    return { inventory, sameSide, openOrders, restingCost, here, market, equity, fair };
  }

  /**
   * The worst every resting order could lose (what `forOrder` answers as `restingCost`, with no order
   * in mind) and each market's resting orders, or null before the balance is read: for the budget meter.
   */
  open(): Pick<OrderFigures, 'restingCost' | 'market'> | null {
    const account = this.#current();
    if (!account) return null;
    return { restingCost: this.#valued().cost, market: this.#marketRest(account) };
  }

  /** The sums over the markets, each market asked again unless nothing it answers can have changed since it was valued. */
  #valued(): { value: bigint; cost: bigint; orders: number } {
    if (!this.#fresh()) for (const m of this.#markets) if (this.#revalue(m)) this.#totals = null;
    return (this.#totals ??= this.#sum());
  }

  /** A market's resting orders, holding and fair value as last valued (nothing rests in one with no entry). */
  #marketRest(account: FiguredAccount): (assetId: bigint, epoch: bigint) => MarketRest {
    return (a, e) => {
      const m = this.#markets.find((x) => x.assetId === a && x.epoch === e);
      return m
        ? { sums: m.sums, inventory: m.inventory, fair: m.fair }
        : { sums: NO_ORDERS, inventory: account.inventory(a, e), fair: this.#source.fair(a, e) };
    };
  }

  #sum(): { value: bigint; cost: bigint; orders: number } {
    const totals = { value: 0n, cost: 0n, orders: 0 };
    for (const m of this.#markets) {
      totals.value += m.value;
      totals.cost += m.cost;
      totals.orders += m.orders.length;
    }
    return totals;
  }

  /** The account with the markets built from its present state; null before its balance is read. */
  #current(): FiguredAccount | null {
    const account = this.#source.account();
    if (!account?.balance) return null;
    if (account !== this.#account || account.revision !== this.#revision) this.#rebuild(account);
    return account;
  }

  #rebuild(account: FiguredAccount): void {
    // New markets are not valued yet: the next read asks each one.
    this.#freshUntil = -Infinity;
    const markets = new Map<string, Market>();
    const marketOf = (assetId: bigint, epoch: bigint): Market => {
      const key = `${assetId}:${epoch}`;
      let m = markets.get(key);
      if (!m) {
        m = {
          assetId,
          epoch,
          key,
          inventory: 0n,
          positions: [],
          orders: [],
          buys: 0n,
          sells: 0n,
          fair: null,
          settled: undefined,
          valued: false,
          value: 0n,
          sums: NO_ORDERS,
          cost: 0n,
        };
        markets.set(key, m);
      }
      return m;
    };
    const byId = new Map<string, { market: Market; order: Resting }[]>();
    for (const p of account.positions.values()) {
      if (!p || (p.inventory === 0n && p.margin === 0n)) continue;
      marketOf(p.assetId, p.epoch).positions.push({
        assetId: p.assetId,
        epoch: p.epoch,
        inventory: p.inventory,
        margin: p.margin,
      });
    }
    for (const o of account.orders.values()) {
      for (const [list, sell] of [
        [o.buys, false],
        [o.sells, true],
      ] as const) {
        if (list.length === 0) continue;
        const m = marketOf(o.assetId, o.epoch);
        for (const r of list) {
          const order: Resting = { sell, price: r.price, size: r.size };
          m.orders.push(order);
          if (sell) m.sells += r.size;
          else m.buys += r.size;
          const id = r.id.toLowerCase();
          const same = byId.get(id);
          if (same) same.push({ market: m, order });
          else byId.set(id, [{ market: m, order }]);
        }
      }
    }
    const balance = account.balance!;
    this.#cash = balance.balance + balance.pending;
    this.#markets = [...markets.values()];
    for (const m of this.#markets) m.inventory = account.inventory(m.assetId, m.epoch);
    this.#totals = null;
    this.#byId = byId;
    this.#account = account;
    this.#revision = account.revision;
    for (const m of this.#markets) this.#revalue(m);
  }

  /** Values a market again when its fair price or settlement is not what it was valued at; says whether it did. */
  #revalue(m: Market, ahead = false): boolean {
    const fair = this.#source.fair(m.assetId, m.epoch, ahead, m.key);
    const settled = settlementOf(this.#source, m);
    if (m.valued && fair === m.fair && settled === m.settled) return false;
    m.fair = fair;
    m.settled = settled;
    m.valued = true;
    let value = 0n;
    for (const p of m.positions) value += positionValue(p, settled === undefined ? fair : settled);
    m.value = value;
    m.sums = sumsOf(m.orders, fair);
    m.cost = worstOf(m.sums, m.inventory, fair);
    return true;
  }
}
