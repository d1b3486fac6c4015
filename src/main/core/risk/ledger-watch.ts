/**
 * The risk ledger acting between orders (docs/risk-guards.md#what-main-does-on-its-own). The gate
 * checks an order when it is sent; what it let rest can go stale when fair value moves, and a
 * colluding account would take the stale side. So on every oracle tick and every change of the
 * account, main looks again at what is open, as an exchange's market-maker protection or a prop
 * desk's kill switch would:
 *
 *   - a resting order now outside the price band around fair value is cancelled (quote protection);
 *   - when today's loss plus the worst case of what is open (resting orders at the worst a stale fill
 *     could lose, resting-worst.ts; orders on their way) would break the day's limit, resting orders
 *     that add risk are cancelled, newest first, until it does not;
 *   - once today's loss has reached the limit (the market moved held positions past it), every resting
 *     order is cancelled, closes included, as a kill switch does: a close resting at fair is taken
 *     stale when the oracle jumps the position's way, giving away the recovery. Closes that fill at
 *     once still go (guards.ts);
 *   - money seen arriving or leaving while nothing is at risk moves the day's baseline (loss-budget.ts).
 *
 * Positions are never closed here: that is the trader's decision. Each cancel is one notice naming the
 * market, the order and why. The decision (`plan`) is a pure function; `LedgerWatch` reads the
 * session, cancels and tells.
 */
import { displayPrice, displayUsd, formatCents, formatSize } from '../../../shared/protocol';
import type { RestingOnItsWay } from './reservations';
import { NO_ORDERS, withOrder, worstOf, type SideSums } from './resting-worst';

export interface WatchedOrder {
  id: string;
  assetId: bigint;
  epoch: bigint;
  sell: boolean;
  price: bigint;
  size: bigint;
  /** When it was placed from this app (ms), null when placed elsewhere (counted as the newest). */
  placedAt: number | null;
}

export interface LedgerLook {
  orders: readonly WatchedOrder[];
  /** Signed contracts held per `${assetId}:${epoch}`. */
  inventory(assetId: bigint, epoch: bigint): bigint;
  /** The fair price of a market's epoch now, null when there is none. */
  fair(assetId: bigint, epoch: bigint): bigint | null;
  band: bigint;
  /** Today's loss so far and today's limit; null before today's baseline was taken. */
  budget: { loss: bigint; limit: bigint } | null;
  /** What orders on their way that cannot rest could lose (reservations.ts `total`). */
  reserved: bigint;
  /** Orders on their way that may rest: counted with their market as if they rested. */
  onTheirWay?: readonly RestingOnItsWay[];
}

export interface Cancel {
  order: WatchedOrder;
  why: 'band' | 'budget' | 'spent';
  /** The fair price it was judged against (null: none, counted at its worst). */
  fair: bigint | null;
}

/** Whether an order adds to the position of its market (a buy when not short, a sell when not long). */
function addsRisk(o: WatchedOrder, inventory: bigint): boolean {
  return o.sell ? inventory <= 0n : inventory >= 0n;
}

/**
 * What to cancel now, and why. `skip`: orders already being cancelled (not asked twice; still counted
 * until the exchange says they are gone).
 */
export function plan(look: LedgerLook, skip: ReadonlySet<string> = new Set()): Cancel[] {
  const out: Cancel[] = [];
  const chosen = new Set<string>();
  // Each market's orders summed, orders on their way with them: the worst case is per market.
  const markets = new Map<string, { sums: SideSums; inventory: bigint; fair: bigint | null }>();
  const marketOf = (o: { assetId: bigint; epoch: bigint }) => {
    const key = `${o.assetId}:${o.epoch}`;
    let m = markets.get(key);
    if (!m)
      markets.set(
        key,
        (m = { sums: NO_ORDERS, inventory: look.inventory(o.assetId, o.epoch), fair: look.fair(o.assetId, o.epoch) }),
      );
    return m;
  };
  // An order on its way stays reserved until its path has read the account after the answer, so one
  // that has already landed is briefly both resting and on its way: counted once (one order on its way
  // per resting order of the same terms), else main would cancel quotes for a loss counted twice.
  const landed = new Map<string, number>();
  const terms = (o: RestingOnItsWay): string => `${o.assetId}:${o.epoch}:${o.sell}:${o.price}:${o.size}`;
  for (const o of look.orders) {
    const m = marketOf(o);
    m.sums = withOrder(m.sums, o, m.fair);
    landed.set(terms(o), (landed.get(terms(o)) ?? 0) + 1);
  }
  for (const o of look.onTheirWay ?? []) {
    const n = landed.get(terms(o)) ?? 0;
    if (n > 0) {
      landed.set(terms(o), n - 1);
      continue;
    }
    const m = marketOf(o);
    m.sums = withOrder(m.sums, o, m.fair);
  }
  let open = look.reserved;
  for (const m of markets.values()) open += worstOf(m.sums, m.inventory, m.fair);
  /** Takes an order out of its market's sums; what the market's worst case fell by. */
  const without = (o: WatchedOrder): bigint => {
    const m = marketOf(o);
    const was = worstOf(m.sums, m.inventory, m.fair);
    m.sums = withOrder(m.sums, o, m.fair, -1n);
    return was - worstOf(m.sums, m.inventory, m.fair);
  };
  for (const o of look.orders) {
    const fair = marketOf(o).fair;
    if (fair === null || skip.has(o.id)) continue;
    const off = o.sell ? fair - o.price : o.price - fair;
    if (off > look.band) {
      out.push({ order: o, why: 'band', fair });
      chosen.add(o.id);
    }
  }
  const budget = look.budget;
  if (!budget) return out;
  // Cancels already chosen for the band take their cost off first.
  for (const c of out) open -= without(c.order);
  if (budget.loss >= budget.limit) {
    for (const o of look.orders)
      if (!chosen.has(o.id) && !skip.has(o.id)) out.push({ order: o, why: 'spent', fair: marketOf(o).fair });
    return out;
  }
  if (budget.loss + open <= budget.limit) return out;
  const newestFirst = look.orders
    .filter((o) => !chosen.has(o.id) && !skip.has(o.id) && addsRisk(o, look.inventory(o.assetId, o.epoch)))
    .sort((a, b) => (b.placedAt ?? Infinity) - (a.placedAt ?? Infinity));
  for (const o of newestFirst) {
    if (budget.loss + open <= budget.limit) break;
    const m = marketOf(o);
    const was = m.sums;
    const cost = without(o);
    // An order whose market's worst case is no less without it: cancelling it does not help.
    if (cost <= 0n) {
      m.sums = was;
      continue;
    }
    out.push({ order: o, why: 'budget', fair: m.fair });
    open -= cost;
  }
  return out;
}

/** The notice for one cancel, in the words of the order rows ("bid 10 @ 45.0¢ on BTC 5m #12"). */
export function cancelNotice(c: Cancel, market: string, band: bigint, budget: { limit: bigint } | null): string {
  const o = c.order;
  const what = `your ${o.sell ? 'ask' : 'bid'} ${formatSize(o.size)} @ ${formatCents(o.price)} on ${market}`;
  if (c.why === 'band')
    return `Quote protection cancelled ${what}: fair value moved to ${displayPrice(c.fair!)}, more than your ${formatCents(band)} band away.`;
  if (c.why === 'spent')
    return `Daily loss limit reached: cancelled ${what}. At the limit nothing rests, closes included (one resting at fair is taken stale when the market jumps your way); close at once instead. Positions stay yours.`;
  return `Daily loss limit: cancelled ${what} (newest first): with it, what is open could take today's loss past your ${displayUsd(budget?.limit ?? 0n)} limit. Positions stay yours to close.`;
}
