/**
 * The ticket's numbers with the protocol's exact margin rules (§4.2): a BUY costs size × price / 10^6,
 * a SELL size × (10^6 − price) / 10^6; the winning side is paid size × 10^6 / 10^6 = size; the most
 * an order can lose is what it costs. Also the position figures the account view shows.
 */
import type { OrderQuote, OrderTicket } from '../../../shared/bridge';
import { PROTOCOL_SCALE, orderMargin } from '../../../shared/protocol';
import { toPrice, toSide, toSize } from '../../exchange';

export interface ParsedTicket {
  sell: boolean;
  price: bigint;
  size: bigint;
}

/** Parses price (cents) and size (contracts) as typed; throws the exchange's coded sentence. */
export function parseTicket(ticket: Pick<OrderTicket, 'side' | 'price' | 'size'>): ParsedTicket {
  return { sell: toSide(ticket.side), price: toPrice(ticket.price), size: toSize(ticket.size) };
}

export function quoteOf(t: ParsedTicket): OrderQuote {
  const cost = orderMargin(t.sell, t.size, t.price);
  const payoutIfRight = (t.size * PROTOCOL_SCALE) / PROTOCOL_SCALE;
  return { price: t.price.toString(), size: t.size.toString(), cost: cost.toString(), payoutIfRight: payoutIfRight.toString(), maxLoss: cost.toString() };
}

/**
 * Average entry price of a position from its collateral: a long Up holds size × p, a short
 * size × (1 − p). Exact for a single fill, the collateral-weighted mean for several.
 */
export function averagePrice(contracts: bigint, margin: bigint, short: boolean): bigint | null {
  if (contracts <= 0n) return null;
  const perContract = (margin * PROTOCOL_SCALE) / contracts;
  return short ? PROTOCOL_SCALE - perContract : perContract;
}

/** Unrealised P&L at `mark`: longs gain when the price rises, shorts when it falls. */
export function unrealisedPnl(contracts: bigint, average: bigint, mark: bigint, short: boolean): bigint {
  const move = short ? average - mark : mark - average;
  return (contracts * move) / PROTOCOL_SCALE;
}

/** Mark = the book's mid when both sides exist, else the last trade. */
export function markPrice(bestBid: bigint | null, bestAsk: bigint | null, last: bigint | null): bigint | null {
  if (bestBid !== null && bestAsk !== null) return (bestBid + bestAsk) / 2n;
  return last;
}
