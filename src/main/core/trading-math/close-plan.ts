/**
 * A closing order that cannot sweep the book: its limit is the live best opposite price moved by
 * the user's maximum slippage (never past the protocol's price range), its size is the position
 * (reduce-only), and the walk of the book to that limit says what should fill before anything is
 * signed. Own resting orders on the far side are not liquidity for us (they would self-trade).
 */
import { MAX_PRICE, MIN_PRICE } from '../../../shared/protocol';

export interface PlanLevel {
  price: bigint;
  size: bigint;
}

export interface ClosePlan {
  /** Selling closes a long, buying closes a short. */
  sell: boolean;
  /** Contracts to close: the position's size, never more. */
  size: bigint;
  /** Best opposite price when planned. */
  best: bigint;
  /** The order's limit: best ∓ slippage, clamped to the price range. */
  limit: bigint;
  /** What the book held within the limit when planned (others' orders only). */
  expectedFill: bigint;
  /** The worst price the walk reached, null when nothing was within the limit. */
  expectedWorst: bigint | null;
}

export type ClosePlanResult =
  { kind: 'nothing' } | { kind: 'no_liquidity'; sell: boolean; size: bigint } | ({ kind: 'plan' } & ClosePlan);

/**
 * `inventory` is signed (positive long Up). `bids`/`asks` best first. `own` = own resting size by
 * price on the side we would trade against.
 */
export function planClose(
  inventory: bigint,
  book: { bids: readonly PlanLevel[]; asks: readonly PlanLevel[] },
  own: ReadonlyMap<bigint, bigint>,
  maxSlippage: bigint,
): ClosePlanResult {
  if (inventory === 0n) return { kind: 'nothing' };
  const sell = inventory > 0n;
  const size = sell ? inventory : -inventory;
  const levels = (sell ? book.bids : book.asks)
    .map((l) => ({ price: l.price, size: l.size - (own.get(l.price) ?? 0n) }))
    .filter((l) => l.size > 0n);
  const first = levels[0];
  if (!first) return { kind: 'no_liquidity', sell, size };
  const best = first.price;
  const limit = sell
    ? best - maxSlippage < MIN_PRICE
      ? MIN_PRICE
      : best - maxSlippage
    : best + maxSlippage > MAX_PRICE
      ? MAX_PRICE
      : best + maxSlippage;
  let expectedFill = 0n;
  let expectedWorst: bigint | null = null;
  for (const l of levels) {
    if (expectedFill >= size) break;
    if (sell ? l.price < limit : l.price > limit) break;
    const take = l.size < size - expectedFill ? l.size : size - expectedFill;
    expectedFill += take;
    expectedWorst = l.price;
  }
  return { kind: 'plan', sell, size, best, limit, expectedFill, expectedWorst };
}

/** Re-check right before signing: the position may have moved since the plan (a resting order filled). */
export function clipToInventory(plan: ClosePlan, inventoryNow: bigint): bigint {
  if (plan.sell ? inventoryNow <= 0n : inventoryNow >= 0n) return 0n;
  const open = inventoryNow < 0n ? -inventoryNow : inventoryNow;
  return open < plan.size ? open : plan.size;
}
