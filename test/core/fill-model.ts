/**
 * An independent recomputation of one account from its own orders and the exchange's fill list,
 * written from the protocol's margin rules (docs/position-accounting.md), sharing no code with the
 * app's order math or the devnet engine:
 *
 * - cash (free + locked) moves only by trades and claims: opening a long pays size × price, opening
 *   a short size × (1 − price); closing a long receives size × price, closing a short size × (1 − price);
 * - a position's cost basis is what its open part paid; closing removes it pro rata (rounded down) and
 *   realised P&L = proceeds − cost removed; a claim pays the winning contracts and realises the rest;
 * - a resting order locks size × rate at its limit (rate = price for a buy, 1 − price for a sell),
 *   except the part that reduces an opposite position not already reserved by an earlier order: that
 *   part reserves position instead of cash. A fill uses the order's position reservation first. When
 *   the position shrinks under what orders reserve, the earliest orders switch the difference to cash.
 */
const SCALE = 1_000_000n;

export interface ModelPosition {
  net: bigint;
  cost: bigint;
  pnl: bigint;
  /** Position units reserved by resting sells (of a long) and buys (of a short). */
  resLong: bigint;
  resShort: bigint;
  resolved: boolean;
  upWon: boolean | null;
  claimed: boolean;
}

export interface ModelOrder {
  id: string;
  market: string;
  sell: boolean;
  price: bigint;
  remaining: bigint;
  /** Position units reserved instead of cash. */
  rp: bigint;
  /** Cash locked. */
  rm: bigint;
}

export interface ModelFill {
  price: bigint;
  size: bigint;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const rate = (sell: boolean, price: bigint): bigint => (sell ? SCALE - price : price);
const value = (size: bigint, r: bigint): bigint => (size * r) / SCALE;

export class FillModel {
  cash = 0n;
  /** Resting orders in the order they were placed. */
  readonly orders = new Map<string, ModelOrder>();
  readonly positions = new Map<string, ModelPosition>();

  credit(amount: bigint): void {
    this.cash += amount;
  }

  get locked(): bigint {
    let sum = 0n;
    for (const o of this.orders.values()) sum += o.rm;
    return sum;
  }

  get free(): bigint {
    return this.cash - this.locked;
  }

  position(market: string): ModelPosition {
    let p = this.positions.get(market);
    if (!p) {
      p = { net: 0n, cost: 0n, pnl: 0n, resLong: 0n, resShort: 0n, resolved: false, upWon: null, claimed: false };
      this.positions.set(market, p);
    }
    return p;
  }

  /** A new order with the fills it took on arrival (at the resting orders' prices); GTC/ALO rest the rest. */
  place(
    o: { id: string; market: string; sell: boolean; price: bigint; size: bigint; rests: boolean },
    takerFills: readonly ModelFill[],
  ): void {
    const pos = this.position(o.market);
    const free = o.sell ? pos.net - pos.resLong : -pos.net - pos.resShort;
    const rp = free <= 0n ? 0n : min(free, o.size);
    const order: ModelOrder = {
      id: o.id,
      market: o.market,
      sell: o.sell,
      price: o.price,
      remaining: o.size,
      rp,
      rm: value(o.size - rp, rate(o.sell, o.price)),
    };
    if (o.sell) pos.resLong += rp;
    else pos.resShort += rp;
    for (const f of takerFills) this.#settle(order, f);
    if (o.rests && order.remaining > 0n) this.orders.set(order.id, order);
    else this.#release(order);
  }

  /** Someone traded against one of our resting orders. */
  makerFill(orderId: string, f: ModelFill): void {
    const order = this.orders.get(orderId.toLowerCase());
    if (!order) throw new Error(`model: a maker fill of ${orderId}, which is not resting`);
    this.#settle(order, f);
    if (order.remaining === 0n) this.orders.delete(order.id);
  }

  cancel(orderId: string): void {
    const order = this.orders.get(orderId.toLowerCase());
    if (!order) throw new Error(`model: cancel of ${orderId}, which is not resting`);
    this.#release(order);
    this.orders.delete(order.id);
  }

  /** Resolution clears the market's book (every resting order is released). */
  resolve(market: string, upWon: boolean): void {
    for (const o of [...this.orders.values()]) if (o.market === market) this.cancel(o.id);
    const pos = this.position(market);
    pos.resolved = true;
    pos.upWon = upWon;
  }

  claimable(market: string): bigint {
    const pos = this.position(market);
    if (!pos.resolved || pos.claimed) return 0n;
    const held = pos.upWon ? pos.net : -pos.net;
    return held > 0n ? held : 0n;
  }

  claim(market: string): bigint {
    const amount = this.claimable(market);
    if (amount === 0n) return 0n;
    const pos = this.position(market);
    this.cash += amount;
    pos.pnl += amount - pos.cost;
    pos.cost = 0n;
    pos.net = 0n;
    pos.claimed = true;
    return amount;
  }

  #release(order: ModelOrder): void {
    const pos = this.position(order.market);
    if (order.sell) pos.resLong -= order.rp;
    else pos.resShort -= order.rp;
    order.rp = 0n;
    order.rm = 0n;
  }

  #settle(order: ModelOrder, f: ModelFill): void {
    const pos = this.position(order.market);
    const fromPosition = min(order.rp, f.size);
    order.rp -= fromPosition;
    if (order.sell) pos.resLong -= fromPosition;
    else pos.resShort -= fromPosition;
    order.rm -= value(f.size - fromPosition, rate(order.sell, order.price));
    order.remaining -= f.size;
    this.#trade(pos, order.sell, f.size, f.price);
    this.#reserveLess(order.market, pos);
  }

  #trade(pos: ModelPosition, sell: boolean, size: bigint, price: bigint): void {
    const held = sell ? pos.net : -pos.net;
    const close = held <= 0n ? 0n : min(held, size);
    if (close > 0n) {
      const proceeds = value(close, sell ? price : SCALE - price);
      const removed = close === held ? pos.cost : (pos.cost * close) / held;
      pos.cost -= removed;
      pos.pnl += proceeds - removed;
      this.cash += proceeds;
    }
    const open = size - close;
    if (open > 0n) {
      const paid = value(open, rate(sell, price));
      this.cash -= paid;
      pos.cost += paid;
    }
    pos.net += sell ? -size : size;
  }

  /** Orders reserving more position than is left switch the difference to cash, earliest first. */
  #reserveLess(market: string, pos: ModelPosition): void {
    let overLong = pos.resLong - (pos.net > 0n ? pos.net : 0n);
    let overShort = pos.resShort - (pos.net < 0n ? -pos.net : 0n);
    for (const o of this.orders.values()) {
      if (overLong <= 0n && overShort <= 0n) return;
      if (o.market !== market || o.rp === 0n) continue;
      const over = o.sell ? overLong : overShort;
      if (over <= 0n) continue;
      const k = min(o.rp, over);
      o.rp -= k;
      o.rm += value(k, rate(o.sell, o.price));
      if (o.sell) {
        pos.resLong -= k;
        overLong -= k;
      } else {
        pos.resShort -= k;
        overShort -= k;
      }
    }
  }

  /** What the account view should show for a position: average, value at `mark` less cost, payout. */
  figures(
    market: string,
    mark: bigint | null,
  ): {
    size: bigint;
    margin: bigint;
    realisedPnl: bigint;
    averagePrice: bigint | null;
    unrealisedPnl: bigint | null;
    payoutIfRight: bigint;
  } {
    const pos = this.position(market);
    const short = pos.net < 0n;
    const contracts = short ? -pos.net : pos.net;
    const perContract = contracts === 0n ? null : (pos.cost * SCALE) / contracts;
    const averagePrice = perContract === null ? null : short ? SCALE - perContract : perContract;
    const unrealisedPnl =
      contracts === 0n || mark === null || pos.resolved
        ? null
        : value(contracts, short ? SCALE - mark : mark) - pos.cost;
    return {
      size: pos.net,
      margin: pos.cost,
      realisedPnl: pos.pnl,
      averagePrice,
      unrealisedPnl,
      payoutIfRight: contracts,
    };
  }
}
