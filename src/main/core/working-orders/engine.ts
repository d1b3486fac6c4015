/** One look at a working order's market: the kind's own state machine (exits.ts, roll.ts). */
import { evaluateExits } from './exits';
import { evaluateRoll } from './roll';
import type { Effect, MarketLook, WorkingOrder } from './types';

export function evaluate(o: WorkingOrder, look: MarketLook): Effect[] {
  return o.kind === 'roll' ? evaluateRoll(o, look) : evaluateExits(o, look);
}

export { onExitResult, onFill, onLimitPlaced, type ExitOutcome, type PlacedOutcome } from './exits';
export { onQuoteFill, onQuotesPlaced, type QuoteOutcome } from './roll';
export { onRequoted, type RequoteOutcome } from './requote';
export { reconcile, restore } from './restore';
export { end } from './lifecycle';
export { cancelLeg } from './legs';
