/**
 * The pre-trade checks, as pure functions of one order, the fair value, the limits and what the
 * account holds (docs/risk-guards.md). Each returns the breach it finds, with a code and a sentence
 * carrying the numbers; the gate decides what a breach means (refused, or main's override dialog).
 */
import {
  PROTOCOL_SCALE,
  displayPrice,
  formatCents,
  displayUsd,
  formatSize,
  orderMargin,
} from '../../../shared/protocol';
import type { RiskLimits } from '../../../shared/settings-schema';
import type { ParsedLimits } from './limits';
import { addedWorst, edgeCost, NO_ORDERS, sumsOf, worstOf, type SideSums } from './resting-worst';

export interface CheckedOrder {
  assetId: bigint;
  epoch: bigint;
  sell: boolean;
  price: bigint;
  size: bigint;
  /** GTC and ALO may rest on the book; IOC and FOK never do. */
  mayRest: boolean;
}

export interface RestingOrder {
  assetId: bigint;
  epoch: bigint;
  sell: boolean;
  price: bigint;
  /** What is left to fill. */
  size: bigint;
}

/**
 * What the account holds, as the guards count it for one order (read before the check, see
 * account-figures.ts; `restingRisk` gives the same from a list of orders).
 */
export interface AccountRisk {
  /** Signed contracts in the order's market and epoch. */
  inventory: bigint;
  /** What the account's resting orders on the order's market, epoch and side have left to fill. */
  sameSide: bigint;
  /** The account's resting orders in all markets, without the one an edit replaces. */
  openOrders: number;
  /**
   * The worst all of them could lose if they filled at a stale price, each market counted as
   * resting-worst.ts does (orders on their way included, as if resting).
   */
  restingCost: bigint;
  /**
   * What rests on the order's market and epoch (orders on their way included, without the one an edit
   * replaces), for what this order adds to its worst case. None: nothing rests there.
   */
  here?: SideSums;
  /**
   * What orders passed and not yet answered by the exchange, and orders signed here for a later send,
   * could lose (reservations.ts): counted like resting orders, so a burst cannot outrun the budget.
   */
  reserved: bigint;
  /** Today's loss so far and today's limit. */
  lossToday: bigint;
  lossLimit: bigint;
}

export interface Breach {
  code:
    | 'risk.price_band'
    | 'risk.order_cost'
    | 'risk.position'
    | 'risk.open_orders'
    | 'risk.order_rate'
    | 'risk.daily_loss';
  limit: keyof RiskLimits;
  /** Our words with the numbers, e.g. "99¢ is 49.0¢ above fair value 50.0¢; your band is 15¢." */
  sentence: string;
  /** Main's dialog may let this one order through once; rate and open-order limits protect the app itself. */
  overridable: boolean;
}

export type FairOf = (assetId: bigint, epoch: bigint) => bigint | null;

/** The part of an order that opens or adds to a position (the rest closes what is held). */
export function openingSize(o: Pick<CheckedOrder, 'sell' | 'size'>, inventory: bigint): bigint {
  const held = o.sell ? (inventory > 0n ? inventory : 0n) : inventory < 0n ? -inventory : 0n;
  return o.size > held ? o.size - held : 0n;
}

/**
 * What this order could lose, for the loss budget: what it adds to its market's worst case
 * (resting-worst.ts `addedWorst`), or without the account's figures what it gives away against fair
 * value if it filled now. With no fair value the whole
 * order counts at the most it can lose, the part that closes a position too: the position is valued at
 * the worst it can pay, but that is a bound on its value, not its price. Buying back a short at 99¢
 * when the contract is worth 50¢ gives 49¢ a contract away, so "reduces a position" is no reason to let
 * an order through at any price while the price cannot be checked (a hostile window would restart the
 * core and buy back into a colluder's ask: the loss fuzzer's attack 1, test/core/loss-fuzz.ts).
 */
export function ownCost(
  o: Pick<CheckedOrder, 'sell' | 'price' | 'size' | 'mayRest'>,
  fair: bigint | null,
  a: Pick<AccountRisk, 'inventory' | 'here'> | null = null,
): bigint {
  return a ? addedWorst(o, a.here ?? NO_ORDERS, a.inventory, fair) : edgeCost(o, fair);
}

/**
 * The resting-order figures of `AccountRisk` for one order, from the list of the account's resting
 * orders and what it holds in each market (`inventoryOf`, nothing when not given).
 */
export function restingRisk(
  o: Pick<CheckedOrder, 'assetId' | 'epoch' | 'sell'>,
  resting: readonly RestingOrder[],
  fairOf: FairOf,
  inventoryOf: (assetId: bigint, epoch: bigint) => bigint = () => 0n,
): Pick<AccountRisk, 'sameSide' | 'openOrders' | 'restingCost' | 'here'> {
  let sameSide = 0n;
  const markets = new Map<string, { assetId: bigint; epoch: bigint; orders: RestingOrder[] }>();
  for (const r of resting) {
    if (r.assetId === o.assetId && r.epoch === o.epoch && r.sell === o.sell) sameSide += r.size;
    const key = `${r.assetId}:${r.epoch}`;
    const m = markets.get(key) ?? { assetId: r.assetId, epoch: r.epoch, orders: [] };
    m.orders.push(r);
    markets.set(key, m);
  }
  let restingCost = 0n;
  let here: SideSums = NO_ORDERS;
  for (const m of markets.values()) {
    const fair = fairOf(m.assetId, m.epoch);
    const sums = sumsOf(m.orders, fair);
    restingCost += worstOf(sums, inventoryOf(m.assetId, m.epoch), fair);
    if (m.assetId === o.assetId && m.epoch === o.epoch) here = sums;
  }
  return { sameSide, openOrders: resting.length, restingCost, here };
}

export function bandBreach(o: CheckedOrder, fair: bigint | null, l: ParsedLimits): Breach | null {
  if (fair === null) return null;
  const off = o.sell ? fair - o.price : o.price - fair;
  if (off <= l.band) return null;
  return {
    code: 'risk.price_band',
    limit: 'priceBandCents',
    sentence: `${formatCents(o.price)} is ${displayPrice(off)} ${o.sell ? 'below' : 'above'} fair value ${displayPrice(fair)}; your band is ${formatCents(l.band)}.`,
    overridable: true,
  };
}

export function costBreach(o: CheckedOrder, inventory: bigint, l: ParsedLimits): Breach | null {
  const cost = orderMargin(o.sell, openingSize(o, inventory), o.price);
  if (cost <= l.maxOrderCost) return null;
  return {
    code: 'risk.order_cost',
    limit: 'maxOrderCost',
    sentence: `this order costs ${displayUsd(cost)}; your largest order cost is ${displayUsd(l.maxOrderCost)}.`,
    overridable: true,
  };
}

export function positionBreach(o: CheckedOrder, a: AccountRisk, l: ParsedLimits): Breach | null {
  if (openingSize(o, a.inventory) === 0n) return null;
  // The position if this order and the account's other orders on the same side all filled.
  const worst = a.inventory + (o.sell ? -(o.size + a.sameSide) : o.size + a.sameSide);
  const magnitude = worst < 0n ? -worst : worst;
  if (magnitude <= l.maxPosition) return null;
  return {
    code: 'risk.position',
    limit: 'maxPositionContracts',
    sentence: `it could take your position in this market to ${formatSize(magnitude)} contracts ${worst < 0n ? 'short' : 'long'}; your largest position is ${formatSize(l.maxPosition)}.`,
    overridable: true,
  };
}

export function openOrdersBreach(o: CheckedOrder, a: AccountRisk, l: ParsedLimits): Breach | null {
  if (!o.mayRest || a.openOrders < l.maxOpenOrders) return null;
  return {
    code: 'risk.open_orders',
    limit: 'maxOpenOrders',
    sentence: `${a.openOrders} of your orders are open; your limit is ${l.maxOpenOrders}. Cancel some first.`,
    overridable: false,
  };
}

export function rateBreach(sentInLastMinute: number, l: ParsedLimits): Breach | null {
  if (sentInLastMinute < l.maxOrdersPerMinute) return null;
  return {
    code: 'risk.order_rate',
    limit: 'maxOrdersPerMinute',
    sentence: `${sentInLastMinute} ${sentInLastMinute === 1 ? 'order was' : 'orders were'} signed in the last minute; your limit is ${l.maxOrdersPerMinute} a minute.`,
    overridable: false,
  };
}

/**
 * Whether an order must fit under the day's limit, rather than go as a close at no cost against fair:
 * it opens or adds to a position, or it would rest once today's loss has reached the limit (a close
 * resting then is taken stale when the oracle jumps the position's way; see lossBreach).
 */
export function mustFit(
  o: Pick<CheckedOrder, 'sell' | 'size' | 'mayRest'>,
  a: Pick<AccountRisk, 'inventory' | 'lossToday' | 'lossLimit'>,
  opening: bigint = openingSize(o, a.inventory),
): boolean {
  return opening > 0n || (o.mayRest && a.lossToday >= a.lossLimit);
}

/**
 * The daily loss limit. What the account has committed is today's loss plus the worst every open order
 * (this one included) could lose if it filled at a stale price (resting-worst.ts). An order that adds risk must
 * fit that within the limit; an order that only reduces a position goes even at the limit as long as
 * it fits, and always when it costs nothing against fair value, so the way out at a fair price stays open.
 * Once today's loss has reached the limit, nothing new rests, a close included: a close resting at fair
 * is taken stale when the oracle jumps the position's way, giving away the move that would have
 * recovered the day (the loss fuzzer's seed 22). A close that fills at once (IOC, FOK) still goes.
 */
export function lossBreach(o: CheckedOrder, a: AccountRisk, fair: bigint | null): Breach | null {
  const own = ownCost(o, fair, a);
  const resting = a.restingCost + a.reserved;
  const committed = a.lossToday + resting + own;
  const addsRisk = mustFit(o, a);
  if (addsRisk ? a.lossToday < a.lossLimit && committed <= a.lossLimit : own === 0n || committed <= a.lossLimit)
    return null;
  const head =
    a.lossToday >= a.lossLimit
      ? `today's loss of ${displayUsd(a.lossToday)} has reached your daily limit of ${displayUsd(a.lossLimit)}`
      : `today's loss (${displayUsd(a.lossToday)})${resting > 0n ? `, the most your open orders and orders on their way could lose if filled before fair value is checked again (${displayUsd(resting)})` : ''} and what this order could ${fair === null ? 'lose at most, with no fair value now' : o.mayRest ? 'lose if it rests and fair value jumps past it' : 'give away against fair value'} (${displayUsd(own)}) come to ${displayUsd(committed)}, over your daily limit of ${displayUsd(a.lossLimit)}`;
  return {
    code: 'risk.daily_loss',
    limit: 'dailyLossPercent',
    sentence: `${head}. Orders that reduce a position at or better than fair value still go${a.lossToday >= a.lossLimit ? ' if they fill at once (IOC), not resting' : ''}.`,
    overridable: true,
  };
}

export interface GuardInput {
  order: CheckedOrder;
  /** The fair value of the order's market and epoch, or null when there is none now. */
  fair: bigint | null;
  limits: ParsedLimits;
  /** Null when the account's state could not be read (the gate then asks the person). */
  account: AccountRisk | null;
  sentInLastMinute: number;
}

/** Every breach of one order, in the order a trader reads them. */
export function breachesOf(input: GuardInput): Breach[] {
  return breaksNone(input) ? [] : everyBreach(input);
}

/** Each guard on its own, with the sentences: what `breachesOf` answers when some guard may break. */
export function everyBreach(input: GuardInput): Breach[] {
  const { order: o, fair, limits: l, account: a } = input;
  const found = [
    bandBreach(o, fair, l),
    costBreach(o, a?.inventory ?? 0n, l),
    a && positionBreach(o, a, l),
    a && openOrdersBreach(o, a, l),
    rateBreach(input.sentInLastMinute, l),
    a && lossBreach(o, a, fair),
  ];
  return found.filter((b): b is Breach => b !== null);
}

/**
 * True only when no guard above breaks: the same conditions in one pass of arithmetic, without the
 * sentences, for the hotkey path (guards.test.ts holds it to `everyBreach`). A price out of range
 * answers false, so the guards themselves refuse it.
 */
export function breaksNone({ order: o, fair, limits: l, account: a, sentInLastMinute }: GuardInput): boolean {
  const { sell, price, size } = o;
  if (sentInLastMinute >= l.maxOrdersPerMinute || price < 0n || price > PROTOCOL_SCALE || size < 0n) return false;
  if (fair !== null && (sell ? fair - price : price - fair) > l.band) return false;
  const inventory = a ? a.inventory : 0n;
  const held = sell ? (inventory > 0n ? inventory : 0n) : inventory < 0n ? -inventory : 0n;
  const opening = size > held ? size - held : 0n;
  // The opening part's margin, ⌈opening × p / 10^6⌉ ≤ the largest cost, without the division.
  if (opening * (sell ? PROTOCOL_SCALE - price : price) > l.maxOrderCost * PROTOCOL_SCALE) return false;
  if (!a) return true;
  if (opening !== 0n) {
    const reach = size + a.sameSide;
    const worst = sell ? a.inventory - reach : a.inventory + reach;
    if ((worst < 0n ? -worst : worst) > l.maxPosition) return false;
  }
  if (o.mayRest && a.openOrders >= l.maxOpenOrders) return false;
  const own = ownCost(o, fair, a);
  const committed = a.lossToday + a.restingCost + a.reserved + own;
  return mustFit(o, a, opening)
    ? a.lossToday < a.lossLimit && committed <= a.lossLimit
    : own === 0n || committed <= a.lossLimit;
}

/** The exchange's price tick (0.1¢): a tightened limit is a price the exchange takes. */
const TICK = 1_000n;

/**
 * The worst limit price the band and the daily loss budget allow an order of this size, or null
 * when either allows none (docs/risk-guards.md#tightened-limits). For a hotkey's or a close's
 * marketable order: its limit is its best price moved by the slippage, and when that crosses the band
 * or the budget the order can still go at the edge they allow, instead of being refused for a few
 * cents its fill may never have used. Rounded to the tick on the safe side.
 */
export function allowedLimit(
  o: CheckedOrder,
  fair: bigint | null,
  a: AccountRisk | null,
  l: ParsedLimits,
): bigint | null {
  if (o.size <= 0n) return null;
  let edge: bigint | null = null;
  if (fair !== null) edge = o.sell ? fair - l.band : fair + l.band;
  if (a) {
    if (mustFit(o, a) && a.lossToday >= a.lossLimit) return null;
    const room = a.lossLimit - a.lossToday - a.restingCost - a.reserved;
    if (room < 0n) {
      // Nothing may be given away: only an order that costs nothing against fair still fits.
      if (fair === null) return null;
      edge = edge === null ? fair : o.sell ? (fair > edge ? fair : edge) : fair < edge ? fair : edge;
    } else {
      // What the order may give away, spread over its size: ⌈(p − fair) × size⌉ ≤ room.
      const per = (room * PROTOCOL_SCALE) / o.size;
      const budgetEdge = fair === null ? (o.sell ? PROTOCOL_SCALE - per : per) : o.sell ? fair - per : fair + per;
      edge =
        edge === null
          ? budgetEdge
          : o.sell
            ? budgetEdge > edge
              ? budgetEdge
              : edge
            : budgetEdge < edge
              ? budgetEdge
              : edge;
    }
  }
  if (edge === null) return o.price;
  const onTick = o.sell ? ((edge + TICK - 1n) / TICK) * TICK : (edge / TICK) * TICK;
  const tight = o.sell ? (onTick > o.price ? onTick : o.price) : onTick < o.price ? onTick : o.price;
  return tight >= TICK && tight <= PROTOCOL_SCALE - TICK ? tight : null;
}
