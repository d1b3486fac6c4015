/**
 * The market's quotes without the account's own orders: what the implied probability of Up is read
 * from. A trader's own resting orders say nothing about what others think (a lone 2¢/98¢ pair of
 * one's own would read as 50%), so a level counts only for the size that is not the account's.
 * Shared by main (the market list) and the window (the header, from the live book), so both agree.
 */

export interface QuoteLevel {
  readonly price: bigint;
  readonly size: bigint;
  /** The account's own size at this price (0 when none). */
  readonly ownSize: bigint;
}

export interface OthersQuotes {
  /** Best bid and ask of other traders, null on a side where they quote nothing. */
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  /** No other trader quotes either side, and the account's own orders are all there is. */
  readonly ownOnly: boolean;
}

/** Levels best first (bids high to low, asks low to high). */
export function othersQuotes(bids: readonly QuoteLevel[], asks: readonly QuoteLevel[]): OthersQuotes {
  const best = (levels: readonly QuoteLevel[]): bigint | null =>
    levels.find((l) => l.price > 0n && l.size > l.ownSize)?.price ?? null;
  const bid = best(bids);
  const ask = best(asks);
  const own = [...bids, ...asks].some((l) => l.ownSize > 0n);
  return { bid, ask, ownOnly: bid === null && ask === null && own };
}
