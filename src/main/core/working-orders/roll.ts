/**
 * A roll (docs/working-orders.md): resting quotes on one asset, placed again in each new epoch until
 * the trader stops it. Pure like exits.ts: an epoch is recorded as placed in the same step that asks
 * for its quotes, so a roll never places twice in one epoch, across restarts too.
 */
import { end, oracleHeld } from './lifecycle';
import { onTick } from './triggers';
import type { Effect, MarketLook, Refusal, RollQuote, WorkingOrder } from './types';
import { running } from './types';

/** A quote's price in an epoch: fair value plus its offset (a buy rounded down, a sell up: never richer), or fixed. */
function quotePrice(q: RollQuote, fair: bigint | null): bigint | null {
  if (q.price.from === 'fixed') return q.price.price;
  return fair === null ? null : onTick(fair + q.price.offset, q.sell);
}

export function evaluateRoll(o: WorkingOrder, look: MarketLook): Effect[] {
  const r = o.roll;
  if (!r || !running(o)) return [];
  if (r.lastEpoch === look.epoch || look.now >= look.expiry) return [];
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
  o.epoch = look.epoch;
  o.waiting = null;
  return [{ type: 'place-quotes', order: o.id, epoch: look.epoch, quotes }];
}

/** One quote's answer: resting on the book (its id), filled or refused. */
export interface QuoteOutcome {
  orderId: string | null;
  resting: boolean;
  refused: Refusal | null;
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
  return [];
}
