/**
 * What one market's resting orders could lose if they filled at a stale price
 * (docs/risk-guards.md#the-invariant). Quote protection cancels an order once fair value leaves the
 * band, but an oracle can jump past the band in one tick, and whoever sees it first takes the stale
 * side before main's cancel arrives (the loss fuzzer's attack 6). Counting a resting order at what it
 * gives away against fair value now is therefore not a bound: its worst case is what it gives away
 * against the worst fair value its market can reach, which for a binary contract is 0 or $1.
 *
 * One market's fair value moves one way at a time, so its worst case is the worse of two scenarios:
 *   - fair falls to 0: every bid is filled and gives away its price, a short gains fair (its contracts
 *     cost nothing to buy back), which covers bids that close it;
 *   - fair rises to $1: every ask is filled and gives away one dollar less its price, a long gains one
 *     dollar less fair, which covers asks that close it;
 * and never less than what the orders give away at fair value now (a scenario between the two is no
 * worse: the give-away is convex in fair value). A long's loss as fair falls is the market moving a
 * position, not an order filling stale: it is today's loss when it happens, not a reservation.
 *
 * With no fair value there is no "now" to count from: each order counts at the most it can lose.
 */
import { orderMargin, PROTOCOL_SCALE } from '../../../shared/protocol';

export interface RestingTerms {
  sell: boolean;
  price: bigint;
  /** What is left to fill. */
  size: bigint;
}

/** A market's resting orders summed for `worstOf`: sums, so adding or removing an order is O(1). */
export interface SideSums {
  /** What they give away at fair value now (`edgeCost` of each; at the most each can lose without one). */
  atFair: bigint;
  /** Σ price × size of the bids (scaled by 10^6): what they give away if fair falls to 0. */
  bids: bigint;
  /** Σ (1 − price) × size of the asks (scaled by 10^6): what they give away if fair rises to $1. */
  asks: bigint;
}

export const NO_ORDERS: SideSums = Object.freeze({ atFair: 0n, bids: 0n, asks: 0n });

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * What filling the order now would cost against fair value, rounded up: a buy above fair pays the
 * difference, a sell below fair gives it away. With no fair value, the most it could lose.
 */
export function edgeCost(o: RestingTerms, fair: bigint | null): bigint {
  if (fair === null) return orderMargin(o.sell, o.size, o.price);
  const worse = o.sell ? fair - o.price : o.price - fair;
  return worse > 0n ? ceilDiv(worse * o.size, PROTOCOL_SCALE) : 0n;
}

/** `s` with one order more (`sign` 1n) or less (`sign` -1n). */
export function withOrder(s: SideSums, o: RestingTerms, fair: bigint | null, sign: 1n | -1n = 1n): SideSums {
  const cost = edgeCost(o, fair) * sign;
  return o.sell
    ? { atFair: s.atFair + cost, bids: s.bids, asks: s.asks + (PROTOCOL_SCALE - o.price) * o.size * sign }
    : { atFair: s.atFair + cost, bids: s.bids + o.price * o.size * sign, asks: s.asks };
}

export function sumsOf(orders: Iterable<RestingTerms>, fair: bigint | null): SideSums {
  let s = NO_ORDERS;
  for (const o of orders) s = withOrder(s, o, fair);
  return s;
}

/**
 * The worst the market's resting orders `s` can lose (amount units, rounded up) with `inventory`
 * signed contracts held there and fair value `fair` (null: none).
 */
export function worstOf(s: SideSums, inventory: bigint, fair: bigint | null): bigint {
  if (fair === null) return s.atFair;
  const short = inventory < 0n ? -inventory : 0n;
  const long = inventory > 0n ? inventory : 0n;
  const down = s.bids - short * fair;
  const up = s.asks - long * (PROTOCOL_SCALE - fair);
  const worst = down > up ? down : up;
  const side = worst > 0n ? ceilDiv(worst, PROTOCOL_SCALE) : 0n;
  return side > s.atFair ? side : s.atFair;
}

/**
 * What an order adds to its market's worst case, for the loss budget: `here` is what rests there
 * already (orders on their way included, as if resting). An order that may rest counts at what it adds
 * if it rests, and never less than what it gives away at fair value if it fills at once; a fill also
 * moves the position, and a position that covered resting orders on the other side may then cover less
 * of them (buying back a short leaves the bids that closed it uncovered), so that is added too.
 */
export function addedWorst(
  o: RestingTerms & { mayRest: boolean },
  here: SideSums,
  inventory: bigint,
  fair: bigint | null,
): bigint {
  const before = worstOf(here, inventory, fair);
  const atFair = edgeCost(o, fair);
  let own = atFair;
  if (o.mayRest) {
    const rested = worstOf(withOrder(here, o, fair), inventory, fair) - before;
    if (rested > own) own = rested;
  }
  if (fair === null) return own;
  const filled = worstOf(here, o.sell ? inventory - o.size : inventory + o.size, fair) - before;
  return filled > 0n ? own + filled : own;
}

/** A market's resting orders, what is held there and its fair value, as `worstOf` counts them. */
export interface MarketRest {
  sums: SideSums;
  inventory: bigint;
  fair: bigint | null;
}

/**
 * Orders on their way that may rest, counted with their markets as if they rested: what they add to
 * the markets' worst cases, and each such market's sums with them (by `${assetId}:${epoch}`).
 */
export function withOnTheirWay(
  onWay: readonly (RestingTerms & { assetId: bigint; epoch: bigint })[],
  market: (assetId: bigint, epoch: bigint) => MarketRest,
): { added: bigint; sums: Map<string, SideSums> } {
  const seen = new Map<string, MarketRest>();
  const sums = new Map<string, SideSums>();
  for (const o of onWay) {
    const key = `${o.assetId}:${o.epoch}`;
    let m = seen.get(key);
    if (!m) seen.set(key, (m = market(o.assetId, o.epoch)));
    sums.set(key, withOrder(sums.get(key) ?? m.sums, o, m.fair));
  }
  let added = 0n;
  for (const [key, s] of sums) {
    const m = seen.get(key)!;
    added += worstOf(s, m.inventory, m.fair) - worstOf(m.sums, m.inventory, m.fair);
  }
  return { added, sums };
}
