/**
 * Working orders after a restart (docs/working-orders.md#when-the-app-is-closed): each is re-armed
 * against the state then, and nothing that was sent (or may have been) is sent again. An order that
 * had fired, or was placing a leg, when the app closed ends there: its send was recorded before it
 * went, and whether it reached the exchange is the order history's to say, not ours to guess twice.
 */
import { armExits, closable, end, exitLegs, limitLegs } from './lifecycle';
import { reconcileRoll, restoreRoll } from './requote';
import type { Effect, WorkingOrder } from './types';
import { running } from './types';

/** On load, before any market data: what re-arms, and what ends because it was on its way. */
export function restore(o: WorkingOrder, now: number): Effect[] {
  if (!running(o)) return [];
  o.waiting = null;
  o.goneSince = null;
  for (const leg of exitLegs(o)) {
    // Consecutive quotes do not span a restart.
    leg.through = 0;
    leg.lastQuote = null;
    if (leg.state === 'firing')
      return end(
        o,
        'stopped',
        leg.retryAt !== null
          ? 'Stopped: the app closed while its exit was being retried; it is not sent again.'
          : 'Stopped: the app closed while its exit was on its way; it is not sent again (the order history shows what filled).',
        now,
      );
  }
  if (o.roll) restoreRoll(o.roll);
  if (limitLegs(o).some((l) => l.state === 'placing'))
    return end(
      o,
      'stopped',
      'Stopped: the app closed while its order was being placed; it is not placed again (check your open orders).',
      now,
    );
  return [];
}

/**
 * Once the account is read after a restart: a resting leg is matched to the open orders. A bracket's
 * entry arms its exits by what filled while the app was closed (its size less what still rests, or,
 * once it is no longer open, the position it holds in the entry's direction, up to the entry's size).
 * `open`: the account's open orders by lower-case id, with the size still resting.
 */
export function reconcile(
  o: WorkingOrder,
  open: ReadonlyMap<string, bigint>,
  inventory: bigint,
  now: number,
): Effect[] {
  if (!running(o)) return [];
  if (o.roll) reconcileRoll(o.roll, open);
  for (const leg of limitLegs(o)) {
    if (leg.state !== 'resting' || !leg.orderId) continue;
    const left = open.get(leg.orderId.toLowerCase());
    let filled: bigint;
    if (left === undefined) {
      leg.state = 'done';
      filled = leg.role === 'entry' ? min(closable(inventory, !leg.sell), leg.size) : leg.filled;
    } else {
      filled = leg.size - left;
    }
    if (leg.role !== 'entry') {
      if (filled > leg.filled) leg.filled = filled;
      continue;
    }
    const more = filled - leg.filled;
    if (more > 0n) {
      leg.filled = filled;
      armExits(o, more);
    }
    if (left === undefined && leg.filled === 0n)
      return end(o, 'stopped', 'Stopped: its entry ended while the app was closed, with nothing of it held.', now);
  }
  return [];
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
