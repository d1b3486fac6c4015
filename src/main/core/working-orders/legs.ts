/**
 * Cancelling one leg of an OCO or a bracket (docs/working-orders.md#one-leg-alone), pure like the
 * other state machines: it changes the order and says what to cancel on the exchange. What remains
 * keeps working as it was (a take-profit left alone is a plain exit on the same position); the last
 * leg cancelled ends the working order. A refusal is a code and a sentence, as drafts.ts's.
 */
import { BridgeFailure } from '../bridge-runtime';
import { end } from './lifecycle';
import type { Effect, ExitLeg, LimitLeg, WorkingOrder } from './types';
import { running } from './types';

type Leg = ExitLeg | LimitLeg;

/** A leg that may still send, rest or be armed: the ones a cancel can still take away. */
export function legLive(l: Leg): boolean {
  return l.type === 'exit' ? l.state === 'armed' || l.state === 'idle' : l.state === 'resting';
}

/** Why this leg cannot be cancelled alone, or null when it can. */
function refusal(o: WorkingOrder, leg: Leg): BridgeFailure | null {
  if (!running(o)) return new BridgeFailure('working.ended', 'This working order has already ended.');
  if (leg.type === 'exit' && leg.state === 'firing')
    return new BridgeFailure(
      'working.leg_fired',
      'That leg has fired and its order is on its way, so it cannot be called back: cancel the whole working order to stop any retries.',
    );
  if (leg.type === 'limit' && leg.state === 'placing')
    return new BridgeFailure(
      'working.leg_placing',
      'That leg is being placed on the exchange right now: cancel it in a moment, once it rests.',
    );
  if (!legLive(leg))
    return new BridgeFailure('working.leg_ended', 'That leg has already filled, fired or been cancelled.');
  return null;
}

/**
 * Cancels one leg. A resting leg's order is cancelled on the exchange. When nothing would be left to
 * run, the working order ends: a bracket whose exits are all cancelled ends with its entry left on
 * the exchange as a plain order (the trader took the exits off, not the entry, as TT does); a
 * bracket's entry cancelled before any of it filled ends it too (its exits have nothing to close).
 */
export function cancelLeg(o: WorkingOrder, legId: string, now: number): Effect[] {
  const leg = o.legs.find((l) => l.id === legId);
  if (!leg) throw new BridgeFailure('working.which_leg', 'That leg is not part of this working order.');
  const refused = refusal(o, leg);
  if (refused) throw refused;
  const others = o.legs.filter((l) => l !== leg && legLive(l));
  if (others.length === 0) return end(o, 'stopped', 'Stopped: cancelled by you.', now);
  if (leg.type === 'limit' && leg.role === 'entry' && leg.filled === 0n)
    return end(o, 'stopped', 'Stopped: its entry was cancelled by you before any of it filled.', now);
  if (o.kind === 'bracket' && others.every((l) => l.type === 'limit')) {
    // Only the entry is left: it stays on the exchange, no longer this order's to cancel.
    for (const l of others) l.state = 'done';
    leg.state = 'cancelled';
    return end(
      o,
      'stopped',
      'Stopped: its last exit was cancelled by you; its entry stays on the exchange as a plain order.',
      now,
    );
  }
  leg.state = 'cancelled';
  if (leg.type === 'limit' && leg.orderId)
    return [{ type: 'cancel', order: o.id, orderIds: [leg.orderId], assetId: o.assetId, epoch: o.epoch }];
  return [];
}
