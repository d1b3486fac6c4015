/**
 * Other traders' best bid and ask of a market, for the implied probability the market list shows:
 * from the live book when one streams it (exact), else from the polled top of book, where a best
 * level the account's own orders fill entirely hides what lies behind it (counted as no quote).
 */
import { othersQuotes, type OthersQuotes, type QuoteLevel } from '../../../shared/others-quotes';
import type { OwnLevels } from './book-subscriptions';

interface Level {
  price: bigint;
  size: bigint;
}

export function othersTopOf(
  live: { bids: readonly Level[]; asks: readonly Level[] } | null,
  poll: { bid: Level | null; ask: Level | null } | null,
  own: OwnLevels,
): OthersQuotes {
  const mine =
    (side: ReadonlyMap<bigint, bigint>) =>
    (l: Level): QuoteLevel => ({ ...l, ownSize: side.get(l.price) ?? 0n });
  if (live) return othersQuotes(live.bids.map(mine(own.bids)), live.asks.map(mine(own.asks)));
  const one = (l: Level | null | undefined): Level[] => (l && l.price > 0n ? [l] : []);
  const q = othersQuotes(one(poll?.bid).map(mine(own.bids)), one(poll?.ask).map(mine(own.asks)));
  // Own orders elsewhere in the book (not at the top) count too: all the account knows is its own.
  const ownAnywhere = own.bids.size + own.asks.size > 0;
  return { ...q, ownOnly: q.bid === null && q.ask === null && ownAnywhere };
}
