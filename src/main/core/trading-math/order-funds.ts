/**
 * Whether the free balance covers an order before it is signed. The exchange reserves collateral
 * only for the part of an order that opens or adds to a position: the part that reduces the
 * position uses the position itself (docs/order-limits.md). We count the whole position as
 * reducible (never less than the exchange does), so we refuse only what it would refuse too.
 */
import { orderMargin } from '../../../shared/protocol';
import type { ParsedTicket } from './order-math';

export interface Shortfall {
  need: bigint;
  free: bigint;
  short: bigint;
}

/** null when the free balance covers the order or is not known yet (the exchange decides then). */
export function shortfallOf(t: ParsedTicket, free: bigint | null, inventory: bigint): Shortfall | null {
  if (free === null) return null;
  const reducible = t.sell ? (inventory > 0n ? inventory : 0n) : inventory < 0n ? -inventory : 0n;
  const opening = t.size > reducible ? t.size - reducible : 0n;
  const need = orderMargin(t.sell, opening, t.price);
  return need > free ? { need, free, short: need - free } : null;
}
