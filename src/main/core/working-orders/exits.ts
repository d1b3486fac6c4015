/**
 * The state machine of exits, OCOs and brackets (docs/working-orders.md), pure: it changes the order
 * it is given and says what to send, never sends. Every send is written into the order (an attempt,
 * a state) in the same step that asks for it, and the runner stores the order before it sends: an
 * order fires once, across restarts too.
 */
import { displayContracts, displayPrice, displaySize } from '../../../shared/protocol';
import { armExits, closable, end, exitLegs, exitSize, exited, limitLegs, oracleHeld } from './lifecycle';
import { exitLimit, oracleCrossed, seeQuote, timeExitAt } from './triggers';
import type { Effect, ExitLeg, LimitLeg, MarketLook, Refusal, WorkingOrder } from './types';
import { running } from './types';

/** How long after an IOC that did not fill its retry goes. */
export const RETRY_MS = 300;
/** How long a position must look gone before its exits stop: a fill and the account's read race. */
export const GONE_GRACE_MS = 1_500;

/** Why an order holds now: a trigger on a stale price never fires, and an exit's price is checked against fair value from the oracle. */
function heldBy(look: MarketLook): string | null {
  if (look.book === null)
    return `waiting: feed not live (${look.bookNote ?? `the book of ${look.market} is not live`})`;
  return oracleHeld(look);
}

/** Watches the triggers of an exit, OCO or bracket on one look of its market; fires at most one leg. */
export function evaluateExits(o: WorkingOrder, look: MarketLook): Effect[] {
  if (!running(o)) return [];
  if (look.now >= look.expiry) return end(o, 'stopped', `Stopped: ${look.market} ended.`, look.now);
  const legs = exitLegs(o);
  const watching = legs.filter((l) => l.state === 'armed');
  // Its position is gone (closed by hand, or never bought): nothing to exit. Not while an exit is on its way.
  if (o.state !== 'firing' && watching.length > 0 && watching.every((l) => closable(look.inventory, l.sell) === 0n)) {
    o.goneSince ??= look.now;
    if (look.now - o.goneSince >= GONE_GRACE_MS)
      return end(o, 'stopped', 'Stopped: the position it exits is gone.', look.now);
    return [];
  }
  o.goneSince = null;
  const held = heldBy(look);
  if (held) {
    o.waiting = held;
    // Consecutive quotes do not span a gap in the feed.
    for (const l of legs) l.through = 0;
    return [];
  }
  o.waiting = null;
  const book = look.book!;
  for (const leg of legs) {
    const quote = leg.sell ? book.bid : book.ask;
    if (leg.state === 'firing') {
      // A retry: the trigger has fired already; the next IOC goes at its time.
      if (leg.retryAt === null || look.now < leg.retryAt) continue;
      const reference = referenceOf(leg, quote?.price ?? null);
      if (reference === null) {
        o.waiting = noQuote(leg, look);
        continue;
      }
      return fire(o, leg, look, reference, quote?.price ?? null);
    }
    if (leg.state !== 'armed') continue;
    let fires = false;
    const t = leg.trigger;
    if (t.type === 'take-profit' || t.type === 'stop') {
      const seen = seeQuote(leg, t, leg.sell, quote);
      leg.through = seen.through;
      leg.lastQuote = seen.lastQuote;
      fires = seen.fire;
    } else if (t.type === 'oracle-stop') {
      fires = oracleCrossed(t.level, t.direction, look.oracle!);
    } else {
      fires = look.now >= timeExitAt(look.expiry, t.secondsBeforeEnd);
    }
    if (!fires) continue;
    const reference = referenceOf(leg, quote?.price ?? null);
    if (reference === null) {
      o.waiting = noQuote(leg, look);
      continue;
    }
    if (exitSize(leg, look.inventory) === 0n) continue;
    return fire(o, leg, look, reference, quote?.price ?? null);
  }
  return [];
}

/** The price an exit's IOC is set from: its trigger's price, or for oracle and time exits the best quote now. */
function referenceOf(leg: ExitLeg, best: bigint | null): bigint | null {
  const t = leg.trigger;
  return t.type === 'take-profit' || t.type === 'stop' ? t.price : best;
}

function noQuote(leg: ExitLeg, look: MarketLook): string {
  return `waiting: no ${leg.sell ? 'bid to sell into' : 'offer to buy from'} on ${look.market}`;
}

/**
 * Fires one leg: the attempt is recorded and the other legs of an OCO or a bracket are cancelled in
 * this same step, so two legs never fire, even when both triggers hold on one tick.
 */
function fire(o: WorkingOrder, leg: ExitLeg, look: MarketLook, reference: bigint, best: bigint | null): Effect[] {
  const size = exitSize(leg, look.inventory);
  if (size === 0n) return [];
  const limit = exitLimit(leg.sell, reference, leg.slippage);
  leg.attempts.push({ at: look.now, sell: leg.sell, limit, size, orderId: null, filled: null, note: 'sent' });
  leg.state = 'firing';
  leg.retryAt = null;
  o.state = 'firing';
  o.waiting = null;
  const effects: Effect[] = [];
  const cancel: string[] = [];
  for (const other of o.legs) {
    if (other === leg) continue;
    if (other.type === 'exit') {
      if (other.state === 'armed' || other.state === 'idle') other.state = 'cancelled';
    } else if (other.state === 'resting') {
      // An OCO's other leg, or the rest of a bracket's entry: the trade is being closed.
      if (other.orderId) cancel.push(other.orderId);
      other.state = 'cancelled';
    }
  }
  if (cancel.length > 0)
    effects.push({ type: 'cancel', order: o.id, orderIds: cancel, assetId: o.assetId, epoch: o.epoch });
  effects.push({
    type: 'send-exit',
    order: o.id,
    leg: leg.id,
    attempt: leg.attempts.length - 1,
    sell: leg.sell,
    limit,
    size,
    best,
  });
  return effects;
}

/** What came of one exit IOC: answered (with what filled and the position after), or refused before it was sent. */
export interface ExitOutcome {
  orderId: string | null;
  filled: bigint;
  refused: Refusal | null;
  /** The account's position in the market after the answer. */
  inventory: bigint;
  note: string;
  now: number;
}

export function onExitResult(o: WorkingOrder, legId: string, attempt: number, r: ExitOutcome): Effect[] {
  const leg = exitLegs(o).find((l) => l.id === legId);
  const a = leg?.attempts[attempt];
  if (!leg || !a) return [];
  a.orderId = r.orderId;
  a.filled = r.filled;
  a.note = r.note;
  if (!running(o)) return [];
  if (r.refused) {
    leg.state = 'done';
    return end(o, 'stopped', `Stopped: its exit was refused. ${r.refused.message}`, r.now);
  }
  const left = exitSize(leg, r.inventory);
  const total = exited(leg);
  if (left === 0n) {
    leg.state = 'done';
    return end(
      o,
      'done',
      total === 0n ? 'Done: nothing was left to close.' : `Done: closed ${displayContracts(total)}.`,
      r.now,
    );
  }
  if (leg.attempts.length <= leg.retries) {
    leg.retryAt = r.now + RETRY_MS;
    return [];
  }
  leg.state = 'done';
  const tries = leg.attempts.length;
  return end(
    o,
    'stopped',
    `Stopped: ${displaySize(total)} closed in ${tries} ${tries === 1 ? 'try' : 'tries'} within ${displayPrice(leg.slippage)} of its price; ${displaySize(left)} still open.`,
    r.now,
  );
}

/** A resting leg's order was answered (placed, filled as taker, or refused). */
export interface PlacedOutcome {
  orderId: string | null;
  /** Filled at once, as taker. */
  filled: bigint;
  /** Left resting on the book. */
  resting: boolean;
  refused: Refusal | null;
  now: number;
}

export function onLimitPlaced(o: WorkingOrder, legId: string, r: PlacedOutcome): Effect[] {
  const leg = limitLegs(o).find((l) => l.id === legId);
  if (!leg) return [];
  leg.orderId = r.orderId;
  if (r.refused) {
    leg.state = 'cancelled';
    const what = leg.role === 'entry' ? 'its entry' : 'its limit leg';
    return end(o, 'stopped', `Stopped: ${what} was not placed. ${r.refused.message}`, r.now);
  }
  const effects: Effect[] = [];
  if (!running(o)) {
    // Stopped while it was being placed: what rests is cancelled now.
    leg.state = r.resting ? 'cancelled' : 'done';
    if (r.resting && r.orderId)
      effects.push({ type: 'cancel', order: o.id, orderIds: [r.orderId], assetId: o.assetId, epoch: o.epoch });
    if (r.filled > 0n) leg.filled += r.filled;
    return effects;
  }
  leg.state = r.resting ? 'resting' : 'done';
  effects.push(...applyFill(o, leg, r.filled, r.now));
  if (running(o) && !r.resting && leg.role === 'entry' && leg.filled === 0n)
    effects.push(...end(o, 'stopped', 'Stopped: its entry did not fill.', r.now));
  return effects;
}

/** A fill of one of our resting orders (a maker fill from the feed). */
export function onFill(o: WorkingOrder, orderId: string, size: bigint, now: number): Effect[] {
  const id = orderId.toLowerCase();
  const leg = limitLegs(o).find((l) => l.orderId?.toLowerCase() === id);
  if (!leg) return [];
  if (!running(o)) {
    leg.filled += size;
    if (o.kind === 'oco' && leg.state === 'cancelled') {
      // Both legs filled on one tick: its cancel came too late. Said plainly; nothing else is sent.
      o.reason = `Both legs filled before the other could be cancelled: ${legText(o)}.`;
      return [{ type: 'notice', level: 'warning', message: `Working order OCO: ${o.reason}` }];
    }
    return [];
  }
  return applyFill(o, leg, size, now);
}

function legText(o: WorkingOrder): string {
  return limitLegs(o)
    .map((l) => `${l.sell ? 'sold' : 'bought'} ${displaySize(l.filled)} at ${displayPrice(l.price)}`)
    .join(' and ');
}

/** A bracket's entry arms its exits by what filled; an OCO's limit leg shrinks or cancels the other leg. */
function applyFill(o: WorkingOrder, leg: LimitLeg, size: bigint, now: number): Effect[] {
  if (size <= 0n) return [];
  leg.filled += size;
  if (leg.filled >= leg.size) leg.state = 'filled';
  if (leg.role === 'entry') {
    armExits(o, size);
    return [];
  }
  const other = o.legs.find((l) => l !== leg);
  const effects: Effect[] = [];
  if (other?.type === 'exit' && other.size !== null && (other.state === 'armed' || other.state === 'idle')) {
    other.size = other.size > size ? other.size - size : 0n;
    if (other.size === 0n) other.state = 'cancelled';
  }
  if (leg.state !== 'filled') return effects;
  if (other?.type === 'limit' && other.state === 'resting' && other.orderId) {
    effects.push({ type: 'cancel', order: o.id, orderIds: [other.orderId], assetId: o.assetId, epoch: o.epoch });
    other.state = 'cancelled';
  }
  if (other?.type === 'exit' && (other.state === 'armed' || other.state === 'idle')) other.state = 'cancelled';
  const both = other?.type === 'limit' && other.filled > 0n;
  effects.push(
    ...end(
      o,
      'done',
      both
        ? `Both legs filled before the other could be cancelled: ${legText(o)}.`
        : `Done: ${leg.sell ? 'sold' : 'bought'} ${displaySize(leg.filled)} at ${displayPrice(leg.price)}; the other leg was cancelled.`,
      now,
    ),
  );
  return effects;
}
