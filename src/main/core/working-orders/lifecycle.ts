/** Ending a working order, and the small facts every kind asks of its legs. */
import type { Effect, ExitLeg, LimitLeg, MarketLook, WorkingOrder } from './types';
import { running } from './types';

/** Contracts of a position an exit on this side may close: a sell closes a long, a buy a short. */
export function closable(inventory: bigint, sell: boolean): bigint {
  if (sell) return inventory > 0n ? inventory : 0n;
  return inventory < 0n ? -inventory : 0n;
}

export const exitLegs = (o: WorkingOrder): ExitLeg[] => o.legs.filter((l): l is ExitLeg => l.type === 'exit');
export const limitLegs = (o: WorkingOrder): LimitLeg[] => o.legs.filter((l): l is LimitLeg => l.type === 'limit');

/** What an exit has closed so far (its answered attempts). */
export function exited(leg: ExitLeg): bigint {
  return leg.attempts.reduce((s, a) => s + (a.filled ?? 0n), 0n);
}

/** What an exit would close now: its size (or what its entry armed) less what it closed, at most the position. */
export function exitSize(leg: ExitLeg, inventory: bigint): bigint {
  let n = closable(inventory, leg.sell);
  const done = exited(leg);
  for (const cap of [leg.size, leg.armed]) if (cap !== null && cap - done < n) n = cap - done;
  return n > 0n ? n : 0n;
}

/** A bracket's entry filled `more`: its exits still waiting are armed by as much, and the order with them. */
export function armExits(o: WorkingOrder, more: bigint): void {
  for (const x of exitLegs(o)) {
    if (x.state !== 'idle' && x.state !== 'armed') continue;
    x.armed = (x.armed ?? 0n) + more;
    x.state = 'armed';
  }
  if (o.state === 'pending') o.state = 'armed';
}

/** Why a trigger on the oracle (or priced from fair value) holds now: no live oracle price. */
export function oracleHeld(look: MarketLook): string | null {
  return look.oracle === null
    ? `waiting: feed not live (${look.oracleNote ?? `no live oracle price for ${look.market}`})`
    : null;
}

/**
 * Ends a running order: every leg still waiting is cancelled, its resting orders on the exchange are
 * asked to be cancelled, and it says why. An exit's IOC already on its way finishes by itself
 * (an IOC never rests). Nothing for an order that has already ended.
 */
export function end(o: WorkingOrder, state: 'done' | 'stopped', reason: string, now: number): Effect[] {
  if (!running(o)) return [];
  const cancel: string[] = [];
  for (const leg of o.legs) {
    if (leg.type === 'limit') {
      if (leg.state === 'resting' && leg.orderId) cancel.push(leg.orderId);
      if (leg.state === 'resting' || leg.state === 'placing') leg.state = 'cancelled';
    } else if (leg.state === 'armed' || leg.state === 'idle') {
      leg.state = 'cancelled';
    } else if (leg.state === 'firing' && leg.retryAt !== null) {
      leg.retryAt = null;
      leg.state = 'done';
    }
  }
  if (o.roll) cancel.push(...o.roll.resting.splice(0));
  o.state = state;
  o.reason = reason;
  o.endedAt = now;
  o.waiting = null;
  return cancel.length > 0
    ? [{ type: 'cancel', order: o.id, orderIds: cancel, assetId: o.assetId, epoch: o.epoch }]
    : [];
}
