// Collateral reservation and fill settlement for one side of a trade.
//
// Cash model (zero fees): per unit of size (1e-6 contract), at trade tick t (price = t × 1000),
//   BUY  opening long   pays     t/1000        BUY  closing short receives (1000 − t)/1000
//   SELL opening short  pays (1000 − t)/1000   SELL closing long  receives        t/1000
// Whatever the pairing of the two sides, the market pool changes by exactly the change in open long contracts,
// so the pool always equals 1e6 × open complete sets. A position's margin is its cost basis; realised P&L is
// proceeds minus the cost basis removed (pro rata, floor).
import type { Account, Order, PositionState } from './state';

/** Collateral per unit, in thousandths, for an order side at a tick. */
export function rate(sell: boolean, tick: number): number {
  return sell ? 1000 - tick : tick;
}

/** size × perMille / 1000; exact because size is a multiple of the 10,000 lot and size × 999 < 2^53. */
export function value(size: number, perMille: number): number {
  return (size * perMille) / 1000;
}

/** floor(a × b / c) for non-negative safe integers, exact even when a × b exceeds 2^53. */
export function mulDiv(a: number, b: number, c: number): number {
  const p = a * b;
  if (p <= Number.MAX_SAFE_INTEGER) {
    let q = Math.floor(p / c);
    if (q * c > p) q--;
    else if ((q + 1) * c <= p) q++;
    return q;
  }
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** Position units an order of `size` can reserve instead of collateral (the part that reduces the position). */
export function planReservedPosition(pos: PositionState, sell: boolean, size: number, extraAvailable: number): number {
  const avail = (sell ? pos.net - pos.resLong : -pos.net - pos.resShort) + extraAvailable;
  if (avail <= 0) return 0;
  return avail < size ? avail : size;
}

export function reserve(o: Order): void {
  const pos = o.pos;
  const acct = pos.account;
  acct.free -= o.rm;
  acct.pending += o.rm;
  if (o.sell) pos.resLong += o.rp;
  else pos.resShort += o.rp;
}

/** Returns what an order still reserves to the account and its position. */
export function release(o: Order): void {
  const pos = o.pos;
  const acct = pos.account;
  acct.free += o.rm;
  acct.pending -= o.rm;
  if (o.sell) pos.resLong -= o.rp;
  else pos.resShort -= o.rp;
  if (o.rp > 0) pos.reducing.delete(o);
  o.rm = 0;
  o.rp = 0;
}

/**
 * Applies a fill of `u` units at tick `t` to one side. Returns the change of the market pool.
 * The order's own position reservation is used first, the rest of its collateral reservation is released
 * (so a taker keeps the excess of its limit over the maker price), then the trade cash moves.
 */
export function settle(o: Order, u: number, t: number): number {
  const pos = o.pos;
  const acct = pos.account;
  const sell = o.sell;
  const c1 = o.rp < u ? o.rp : u;
  if (c1 > 0) {
    o.rp -= c1;
    if (o.rp === 0) pos.reducing.delete(o);
    if (sell) pos.resLong -= c1;
    else pos.resShort -= c1;
  }
  const m = u - c1;
  if (m > 0) {
    const rel = value(m, rate(sell, o.tick));
    o.rm -= rel;
    acct.pending -= rel;
    acct.free += rel;
  }
  o.remaining -= u;

  const held = sell ? pos.net : -pos.net; // what this side can close
  const close = held <= 0 ? 0 : held < u ? held : u;
  const open = u - close;
  let poolDelta = 0;
  if (close > 0) {
    const proceeds = value(close, sell ? t : 1000 - t);
    const removed = close === held ? pos.cost : mulDiv(pos.cost, close, held);
    pos.cost -= removed;
    pos.pnl += proceeds - removed;
    acct.free += proceeds;
    poolDelta -= proceeds;
  }
  if (open > 0) {
    const paid = value(open, rate(sell, t));
    acct.free -= paid;
    pos.cost += paid;
    poolDelta += paid;
  }
  pos.net += sell ? -u : u;
  if (pos.resLong > (pos.net > 0 ? pos.net : 0) || pos.resShort > (pos.net < 0 ? -pos.net : 0)) rebalance(pos);
  return poolDelta;
}

/**
 * When a fill closes position units that other resting orders of the account had reserved, those orders switch
 * the missing units to collateral. Affordable: each closed unit freed at least 1.0 per unit (proceeds plus
 * released reservation) and a unit of collateral costs at most 0.999.
 */
function rebalance(pos: PositionState): void {
  const acct: Account = pos.account;
  let dLong = pos.resLong - (pos.net > 0 ? pos.net : 0);
  let dShort = pos.resShort - (pos.net < 0 ? -pos.net : 0);
  for (const o of pos.reducing) {
    if (dLong <= 0 && dShort <= 0) break;
    const d = o.sell ? dLong : dShort;
    if (d <= 0) continue;
    const k = o.rp < d ? o.rp : d;
    const need = value(k, rate(o.sell, o.tick));
    o.rp -= k;
    if (o.rp === 0) pos.reducing.delete(o);
    o.rm += need;
    acct.free -= need;
    acct.pending += need;
    if (o.sell) {
      pos.resLong -= k;
      dLong -= k;
    } else {
      pos.resShort -= k;
      dShort -= k;
    }
  }
}
