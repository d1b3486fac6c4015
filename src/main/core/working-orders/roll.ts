/**
 * A roll (docs/working-orders.md): resting quotes on one asset, placed again in each new epoch until
 * the trader stops it. Pure like exits.ts: an epoch is recorded as placed in the same step that asks
 * for its quotes, so a roll never places twice in one epoch, across restarts too.
 */
import { end, oracleHeld } from './lifecycle';
import { quotePrice, requoteRoll, slotOf, syncRoll, tell } from './requote';
import type { Effect, MarketLook, Refusal, WorkingOrder } from './types';
import { running } from './types';

export function evaluateRoll(o: WorkingOrder, look: MarketLook): Effect[] {
  const r = o.roll;
  if (!r || !running(o)) return [];
  if (look.now >= look.expiry) return [];
  // Inside an epoch it placed in, its offset quotes follow fair value (requote.ts).
  if (r.lastEpoch === look.epoch) return requoteRoll(o, look);
  if (r.epochs !== null && r.placedEpochs >= r.epochs)
    return end(
      o,
      'done',
      `Done: it placed its quotes in ${r.epochs} ${r.epochs === 1 ? 'epoch' : 'epochs'}.`,
      look.now,
    );
  const fairBased = r.quotes.some((q) => q.price.from === 'fair');
  if (fairBased) {
    // An offset from fair value needs one from a live oracle.
    const held = oracleHeld(look);
    if (held || look.fair === null) {
      o.waiting = held ?? `waiting: no fair value for ${look.market} yet`;
      return [];
    }
  }
  const quotes = r.quotes.map((q) => ({ sell: q.sell, size: q.size, price: quotePrice(q, look.fair)! }));
  r.lastEpoch = look.epoch;
  r.placedEpochs++;
  r.resting = [];
  r.held = null;
  r.round++;
  r.slots = quotes.map((q, i) => slotOf(q, r.quotes[i]!.price.from === 'fair' ? q.price : null, look));
  o.epoch = look.epoch;
  o.waiting = null;
  return [{ type: 'place-quotes', order: o.id, epoch: look.epoch, quotes }];
}

/** One quote's answer: resting on the book (its id), filled or refused. */
export interface QuoteOutcome {
  orderId: string | null;
  resting: boolean;
  refused: Refusal | null;
  /** What traded at once (a quote that crossed the book), and the price sent (the gate's). */
  filled?: bigint;
  price?: bigint;
}

export function onQuotesPlaced(o: WorkingOrder, epoch: bigint, results: readonly QuoteOutcome[]): Effect[] {
  const r = o.roll;
  if (!r) return [];
  const resting = results.filter((q) => q.resting && q.orderId).map((q) => q.orderId!);
  if (!running(o) || r.lastEpoch !== epoch) {
    // Stopped (or a newer epoch began) while they were on their way: what rests is cancelled.
    return resting.length > 0 ? [{ type: 'cancel', order: o.id, orderIds: resting, assetId: o.assetId, epoch }] : [];
  }
  r.resting = resting.slice(0, 8);
  const refused = results.find((q) => q.refused)?.refused;
  r.held = refused ? refused.message : null;
  if (r.slots.length !== results.length) return [];
  results.forEach((q, i) => {
    const slot = r.slots[i]!;
    const filled = q.filled ?? 0n;
    if (q.orderId) slot.orderIds = [q.orderId];
    slot.orderFilled = filled;
    slot.filled = filled;
    if (q.price !== undefined && q.resting) slot.price = q.price;
    slot.state = q.resting ? 'resting' : filled >= slot.size ? 'filled' : 'off';
    if (!q.resting) slot.price = null;
    slot.refused = q.refused?.message ?? null;
  });
  // The runner's notice said these: a re-quote refused for the same reason is not told again.
  for (const q of results) if (q.refused) tell(r, q.refused.code);
  syncRoll(r);
  return [];
}

/** A maker fill of one of its quotes (a taker fill is counted from the order's answer). */
export function onQuoteFill(o: WorkingOrder, orderId: string, size: bigint): Effect[] {
  const r = o.roll;
  if (!r) return [];
  const id = orderId.toLowerCase();
  const slot = r.slots.find((s) => s.orderIds.some((x) => x.toLowerCase() === id));
  if (!slot) return [];
  slot.filled += size;
  const newest = slot.orderIds[slot.orderIds.length - 1]?.toLowerCase() === id;
  if (newest) slot.orderFilled += size;
  const quote = r.quotes[r.slots.indexOf(slot)];
  if (quote && slot.filled >= quote.size) {
    slot.state = 'filled';
    slot.price = null;
  } else if (newest && slot.orderFilled >= slot.size && slot.state === 'resting') {
    // Its order is all filled and the quote is not: the rest goes at the next move of fair value.
    slot.state = 'off';
    slot.price = null;
  }
  syncRoll(r);
  return [];
}
