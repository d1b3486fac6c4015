/**
 * The ticket's numbers with the protocol's exact margin rules (docs/protocol/units.md#margin): a BUY costs size × price
 * / 10^6, a SELL size × (10^6 − price) / 10^6; the winning side is paid size × 10^6 / 10^6 = size; the most
 * an order can lose is what it costs. The position figures are in position-math.ts.
 */
import type { OrderQuote, OrderTicket } from '../../../shared/bridge';
import { ORDER_LIMITS } from '../../../shared/bridge/limits';
import {
  CENTS_SUFFIX,
  MAX_PRACTICAL_SIZE,
  MIN_SIZE,
  PROTOCOL_SCALE,
  SIZE_LOT,
  canonicalDecimal,
  orderMargin,
} from '../../../shared/protocol';
import { toPrice, toSide, toSize } from '../../../client';
import { ExchangeValidationError } from '../../../client';

export interface ParsedTicket {
  sell: boolean;
  price: bigint;
  size: bigint;
}

const SIZE_RULE = `Size must be ${ORDER_LIMITS.minSize} to ${ORDER_LIMITS.maxSize} contracts in steps of ${ORDER_LIMITS.sizeStep}`;
const PRICE_RULE = `Price must be ${ORDER_LIMITS.minPriceCents}¢ to ${ORDER_LIMITS.maxPriceCents}¢ in steps of ${ORDER_LIMITS.priceStepCents}¢`;

/** A price in cents as typed ("62.5", "62.50¢"), 0.1–99.9¢ in steps of 0.1¢; null when it is not one (or empty). */
export function ticketPrice(text: string): bigint | null {
  const canonical = canonicalDecimal(text, CENTS_SUFFIX);
  if (canonical === '') return null;
  try {
    return toPrice(canonical);
  } catch {
    return null;
  }
}

/** A size in contracts as typed, within the exchange's real limits (0.01 to 100,000 in steps of 0.01); null when not. */
export function ticketSize(text: string): bigint | null {
  const canonical = canonicalDecimal(text);
  if (canonical === '') return null;
  let size: bigint;
  try {
    size = toSize(canonical);
  } catch {
    return null;
  }
  return size < MIN_SIZE || size > MAX_PRACTICAL_SIZE || size % SIZE_LOT !== 0n ? null : size;
}

/**
 * Parses price (cents) and size (contracts) as typed, within the exchange's real limits (at most
 * 100,000 contracts, steps of 0.01; prices 0.1–99.9¢ in steps of 0.1¢); an empty field is named.
 */
export function parseTicket(ticket: Pick<OrderTicket, 'side' | 'price' | 'size'>): ParsedTicket {
  if (canonicalDecimal(ticket.price, CENTS_SUFFIX) === '')
    throw new ExchangeValidationError(
      'PRICE_MISSING',
      `Enter a price in cents (${ORDER_LIMITS.minPriceCents} to ${ORDER_LIMITS.maxPriceCents}), e.g. 62.5.`,
    );
  if (canonicalDecimal(ticket.size) === '')
    throw new ExchangeValidationError(
      'SIZE_MISSING',
      `Enter a size: how many contracts (${ORDER_LIMITS.minSize} to ${ORDER_LIMITS.maxSize}).`,
    );
  const price = ticketPrice(ticket.price);
  if (price === null)
    throw new ExchangeValidationError(
      'INVALID_PRICE',
      `${PRICE_RULE}; "${ticket.price.trim().slice(0, 20)}" is not one.`,
    );
  const size = ticketSize(ticket.size);
  if (size === null)
    throw new ExchangeValidationError('INVALID_SIZE', `${SIZE_RULE}; "${ticket.size.trim().slice(0, 20)}" is not one.`);
  return { sell: toSide(ticket.side), price, size };
}

/**
 * With the position it trades against (`inventory`, signed): the part of a sell that closes a long
 * (or of a buy that closes a short) costs no collateral and brings in its proceeds (a long sells at
 * the price, a short buys back at 1 − price); only the rest opens a position, costs its margin, pays
 * if right and can lose what it cost.
 */
export function quoteOf(t: ParsedTicket, inventory = 0n): OrderQuote {
  const held = t.sell ? (inventory > 0n ? inventory : 0n) : inventory < 0n ? -inventory : 0n;
  const closing = t.size < held ? t.size : held;
  const opening = t.size - closing;
  const cost = orderMargin(t.sell, opening, t.price);
  const payoutIfRight = (opening * PROTOCOL_SCALE) / PROTOCOL_SCALE;
  const quote: OrderQuote = {
    price: t.price.toString(),
    size: t.size.toString(),
    cost: cost.toString(),
    payoutIfRight: payoutIfRight.toString(),
    maxLoss: cost.toString(),
  };
  if (closing === 0n) return quote;
  const proceeds = (closing * (t.sell ? t.price : PROTOCOL_SCALE - t.price)) / PROTOCOL_SCALE;
  return { ...quote, closing: closing.toString(), proceeds: proceeds.toString() };
}
