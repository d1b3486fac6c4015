/**
 * The triggers of working orders, as pure functions of what the market shows (docs/working-orders.md).
 * An exit watches the quote it would trade against: a sell (closing a long) the best bid, a buy
 * (closing a short) the best ask, so a trigger never fires on a price the exit could not get.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from '../../../shared/protocol';
import type { ExitLeg, Quote, Trigger } from './types';

/**
 * Whether a take-profit or stop's price is "through" on this quote: a long's take-profit when the bid
 * is at or above it, its stop at or below; a short's the other way round on the ask.
 */
function priceThrough(type: 'take-profit' | 'stop', sell: boolean, price: bigint, quote: bigint): boolean {
  const up = quote >= price;
  const down = quote <= price;
  if (sell) return type === 'take-profit' ? up : down;
  return type === 'take-profit' ? down : up;
}

/** A key for one quote, so the double trigger counts a new quote only when price or size changed. */
function quoteKey(q: Quote): bigint {
  return q.price * 10n ** 20n + q.size;
}

/**
 * One quote seen by a take-profit or stop: whether it fires now, and the count of consecutive quotes
 * through. Single: the first quote through. Double (IBKR's "double bid/ask"): two consecutive
 * distinct quotes through; one not through starts the count again. A quote restated unchanged (the
 * book moved elsewhere) is not a new quote.
 */
export function seeQuote(
  leg: Pick<ExitLeg, 'through' | 'lastQuote'>,
  trigger: Extract<Trigger, { type: 'take-profit' | 'stop' }>,
  sell: boolean,
  quote: Quote | null,
): { fire: boolean; through: number; lastQuote: bigint | null } {
  if (!quote) return { fire: false, through: 0, lastQuote: null };
  const key = quoteKey(quote);
  if (!priceThrough(trigger.type, sell, trigger.price, quote.price)) return { fire: false, through: 0, lastQuote: key };
  const through = key === leg.lastQuote ? Math.max(leg.through, 1) : leg.through + 1;
  return { fire: through >= (trigger.double ? 2 : 1), through, lastQuote: key };
}

/** Whether the oracle is at or past an oracle stop's level on its side. */
export function oracleCrossed(level: bigint, direction: 'below' | 'above', oracle: bigint): boolean {
  return direction === 'below' ? oracle <= level : oracle >= level;
}

/** When a time exit fires: its seconds before the epoch's end, by the exchange's clock. */
export function timeExitAt(expiry: number, secondsBeforeEnd: number): number {
  return expiry - secondsBeforeEnd * 1000;
}

/** On the exchange's 0.1¢ tick and inside its price range: a sell's limit rounded up, a buy's down (never worse). */
export function onTick(price: bigint, sell: boolean): bigint {
  const r = price % PRICE_TICK;
  const ticked = r === 0n ? price : sell ? price - r + PRICE_TICK : price - r;
  return ticked < MIN_PRICE ? MIN_PRICE : ticked > MAX_PRICE ? MAX_PRICE : ticked;
}

/** An exit's IOC limit: its reference price moved by the slippage against it (a sell lower, a buy higher). */
export function exitLimit(sell: boolean, reference: bigint, slippage: bigint): bigint {
  return onTick(sell ? reference - slippage : reference + slippage, sell);
}
