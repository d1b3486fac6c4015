/**
 * A roll's offset quotes follow fair value inside an epoch (docs/working-orders.md#roll), as TT's and
 * IBKR's pegged orders do: once a quote's target (fair + offset on the tick) is its re-quote step from
 * where it rests, it is replaced at the target. Bounded churn: one re-quote per quote per REQUOTE_MS,
 * none on a stale oracle, and a refused one is off the book until fair moves again after the
 * interval. Pure like roll.ts: a re-quote is recorded (placing, its time) in the step that asks for it.
 */
import { displayPrice } from '../../../shared/protocol';
import { oracleHeld } from './lifecycle';
import { onTick } from './triggers';
import type { Effect, MarketLook, Refusal, Roll, RollQuote, RollSlot, WorkingOrder } from './types';
import { running } from './types';

/** At most one re-quote per quote in this long (ms): a fast oracle never makes the gate and the exchange churn. */
export const REQUOTE_MS = 2_000;
/** The re-quote step when none is set: 1¢. */
export const DEFAULT_STEP = 10_000n;

/** A quote's price: fair value plus its offset (a buy rounded down, a sell up: never richer), or fixed. */
export function quotePrice(q: RollQuote, fair: bigint | null): bigint | null {
  if (q.price.from === 'fixed') return q.price.price;
  return fair === null ? null : onTick(fair + q.price.offset, q.sell);
}

/** A quote as its epoch's placement asks for it: on its way. */
export function slotOf(q: { size: bigint }, target: bigint | null, look: MarketLook): RollSlot {
  return {
    state: 'placing',
    orderIds: [],
    price: null,
    size: q.size,
    orderFilled: 0n,
    filled: 0n,
    target,
    at: look.now,
    fair: look.fair,
    refused: null,
  };
}

/** The facts other code reads from the slots: what rests (cancelled when it stops) and why one is off. */
export function syncRoll(r: Roll): void {
  // A roll stored before pegging keeps its resting list as it was.
  if (r.slots.length === 0) return;
  r.resting = r.slots.flatMap((s) =>
    s.state === 'resting' || (s.state === 'placing' && s.price !== null) ? s.orderIds.slice(-1) : [],
  );
  r.held = r.slots.find((s) => s.refused !== null)?.refused ?? null;
}

/** Whether a refusal's reason is new to this roll (then it is told once); remembered either way. */
export function tell(r: Roll, code: string): boolean {
  if (r.noticed.includes(code)) return false;
  r.noticed = [...r.noticed, code.slice(0, 80)].slice(-16);
  return true;
}

const sideWord = (sell: boolean): string => (sell ? 'ask' : 'bid');

/** Whether a quote is due to move, fair having moved (the interval is checked after). */
function due(s: RollSlot, target: bigint, fair: bigint, step: bigint): boolean {
  if (s.state === 'resting' && s.price !== null) {
    const gap = target > s.price ? target - s.price : s.price - target;
    return gap >= step;
  }
  // Off the book (refused, or gone without filling): tried again once fair has moved since the last try.
  return s.state === 'off' && fair !== s.fair;
}

/** Inside an epoch it placed in: the offset quotes whose target moved a step are re-quoted. */
export function requoteRoll(o: WorkingOrder, look: MarketLook): Effect[] {
  const r = o.roll;
  if (!r || !running(o)) return [];
  if (r.slots.length === 0 || !r.quotes.some((q) => q.price.from === 'fair')) {
    // Nothing follows fair value: nothing to hold for.
    o.waiting = null;
    return [];
  }
  // A trigger on a stale price never fires: the quotes stay where they are.
  const held = oracleHeld(look) ?? (look.fair === null ? `waiting: no fair value for ${look.market} yet` : null);
  if (held || look.fair === null) {
    o.waiting = held;
    return [];
  }
  const fair = look.fair;
  const effects: Effect[] = [];
  let waiting: string | null = null;
  r.slots.forEach((s, i) => {
    const q = r.quotes[i];
    if (!q || q.price.from !== 'fair') return;
    const target = quotePrice(q, fair)!;
    s.target = target;
    if (!due(s, target, fair, r.step)) return;
    const left = q.size - s.filled;
    if (left <= 0n) {
      s.state = 'filled';
      return;
    }
    if (s.at !== null && look.now - s.at < REQUOTE_MS) {
      waiting ??= `waiting to re-quote its ${sideWord(q.sell)} at ${displayPrice(target)} (at most one re-quote every ${REQUOTE_MS / 1000} s)`;
      return;
    }
    const replaces = s.state === 'resting' ? (s.orderIds[s.orderIds.length - 1] ?? null) : null;
    s.state = 'placing';
    s.at = look.now;
    s.fair = fair;
    effects.push({
      type: 'requote',
      order: o.id,
      epoch: look.epoch,
      round: r.round,
      quote: i,
      replaces,
      sell: q.sell,
      price: target,
      size: left,
    });
  });
  o.waiting = waiting;
  return effects;
}

/** What came of one re-quote (sending.ts). */
export interface RequoteOutcome {
  /** The new order (null: none was placed). */
  orderId: string | null;
  /** The price and size it went at (the gate's price), resting or not. */
  price: bigint;
  size: bigint;
  resting: boolean;
  /** What the new order traded at once. */
  filled: bigint;
  refused: Refusal | null;
  /** Whether the order it replaced still rests at its old price (a refusal whose cancel failed). */
  oldRests: boolean;
  /** The exchange had already processed it and its order is not known here. */
  unknown: boolean;
}

/** A re-quote's answer: the quote rests at its new price, or is off the book saying why (told once per reason). */
export function onRequoted(o: WorkingOrder, round: number, index: number, x: RequoteOutcome, market: string): Effect[] {
  const r = o.roll;
  const s = r?.slots[index];
  const q = r?.quotes[index];
  if (!r || !s || !q || !running(o) || r.round !== round) {
    // Stopped, edited or a new epoch while it was on its way: what it placed is cancelled.
    return x.orderId && x.resting
      ? [{ type: 'cancel', order: o.id, orderIds: [x.orderId], assetId: o.assetId, epoch: o.epoch }]
      : [];
  }
  const effects: Effect[] = [];
  if (x.orderId) s.orderIds = [...s.orderIds, x.orderId].slice(-4);
  s.filled += x.filled;
  s.refused = x.refused?.message ?? null;
  if (x.unknown) {
    s.state = 'lost';
    s.price = null;
    s.refused = 'The exchange had already processed its re-quote, and its order is not known here: check Open orders.';
  } else if (x.orderId !== null && !x.refused) {
    s.size = x.size;
    s.orderFilled = x.filled;
    s.state = x.resting ? 'resting' : s.filled >= q.size ? 'filled' : 'off';
    s.price = x.resting ? x.price : null;
  } else if (x.oldRests) {
    // Refused, and the stale quote could not be cancelled: it rests where it was (quote protection watches it).
    s.state = 'resting';
  } else {
    s.state = s.filled >= q.size ? 'filled' : 'off';
    s.price = null;
  }
  if (x.refused && tell(r, x.refused.code))
    effects.push({
      type: 'notice',
      level: 'warning',
      message: `Roll on ${market}: its ${sideWord(q.sell)} could not be re-quoted at ${displayPrice(x.price)}, so it is off the book until fair value moves again: ${x.refused.message}`,
    });
  syncRoll(r);
  return effects;
}

/**
 * After a restart, before any market data: a quote whose order was on its way is not known to rest
 * or not, so it is never placed again in this epoch (the order history says what became of it).
 * Its step and last re-quote time are kept: the interval runs on across the restart.
 */
export function restoreRoll(r: Roll): void {
  for (const s of r.slots) {
    if (s.state !== 'placing') continue;
    s.state = 'lost';
    s.price = null;
    s.refused =
      'The app closed while this quote was being placed; it is not placed again in this epoch (check Open orders).';
  }
  syncRoll(r);
}

/**
 * Once the account is read after a restart: a resting quote still open counts what filled meanwhile;
 * one no longer open left the book while the app was closed (filled or cancelled, not known which),
 * so it is not placed again in this epoch. `open`: open orders by lower-case id, with the size resting.
 */
export function reconcileRoll(r: Roll, open: ReadonlyMap<string, bigint>): void {
  r.slots.forEach((s, i) => {
    const id = s.orderIds[s.orderIds.length - 1];
    if (s.state !== 'resting' || !id) return;
    const left = open.get(id.toLowerCase());
    if (left === undefined) {
      s.state = 'lost';
      s.price = null;
      s.refused = 'It left the book while the app was closed; it is not placed again in this epoch.';
      return;
    }
    const more = s.size - left - s.orderFilled;
    if (more > 0n) {
      s.orderFilled += more;
      s.filled += more;
    }
    if (s.filled >= (r.quotes[i]?.size ?? 0n)) s.state = 'filled';
  });
  syncRoll(r);
}
