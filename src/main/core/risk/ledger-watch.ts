/**
 * The risk ledger acting between orders (docs/risk-guards.md#what-main-does-on-its-own). The gate
 * checks an order when it is sent; what it let rest can go stale when fair value moves, and a
 * colluding account would take the stale side. So on every oracle tick and every change of the
 * account, main looks again at what is open, as an exchange's market-maker protection or a prop
 * desk's kill switch would:
 *
 *   - a resting order now outside the price band around fair value is cancelled (quote protection);
 *   - when today's loss plus the worst case of what is open (resting orders against fair, orders on
 *     their way) would break the day's limit, resting orders that add risk are cancelled, newest first,
 *     until it does not;
 *   - money seen arriving or leaving while nothing is at risk moves the day's baseline (loss-budget.ts).
 *
 * Positions are never closed here: that is the trader's decision. Each cancel is one notice naming the
 * market, the order and why. The decision (`plan`) is a pure function; `LedgerWatch` reads the
 * session, cancels and tells.
 */
import { displayPrice, displayUsd, formatCents, formatSize } from '../../../shared/protocol';
import { edgeCost } from './guards';

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
  /** What orders on their way could lose (reservations.ts). */
  reserved: bigint;
}

export interface Cancel {
  order: WatchedOrder;
  why: 'band' | 'budget';
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
  let open = look.reserved;
  for (const o of look.orders) {
    const fair = look.fair(o.assetId, o.epoch);
    open += edgeCost(o, fair);
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
  for (const c of out) open -= edgeCost(c.order, c.fair);
  if (budget.loss + open <= budget.limit) return out;
  const newestFirst = look.orders
    .filter((o) => !chosen.has(o.id) && !skip.has(o.id) && addsRisk(o, look.inventory(o.assetId, o.epoch)))
    .sort((a, b) => (b.placedAt ?? Infinity) - (a.placedAt ?? Infinity));
  for (const o of newestFirst) {
    if (budget.loss + open <= budget.limit) break;
    const fair = look.fair(o.assetId, o.epoch);
    const cost = edgeCost(o, fair);
    // An order that could lose nothing against fair leaves the worst case as it is: cancelling it does not help.
    if (cost === 0n) continue;
    out.push({ order: o, why: 'budget', fair });
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
  return `Daily loss limit: cancelled ${what} (newest first): with it, what is open could take today's loss past your ${displayUsd(budget?.limit ?? 0n)} limit. Positions stay yours to close.`;
}
