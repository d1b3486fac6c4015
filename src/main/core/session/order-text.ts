/** One sentence per trading result, for the notice area: "Bought 10 at 62.5¢", "Rejected: … (MARGIN)". */
import type { CancelResult, OrderResult } from '../../../shared/bridge';
import { formatPrice, formatSize } from '../../../shared/protocol';
import { cleanExchangeText, exchangeSaid } from '../../../client';

/** What the exchange's reject reasons mean to a trader; unknown reasons are quoted as the exchange's words. */
const REASONS: Readonly<Record<string, string>> = {
  MARGIN: 'not enough collateral',
  INSUFFICIENT_BALANCE: 'not enough collateral',
  POST_ONLY: 'a post-only order would have crossed the book',
  ALO: 'a post-only order would have crossed the book',
  FOK: 'the whole size could not be filled at once',
  RESOLVED: 'the market has already resolved',
  MARKET_RESOLVED: 'the market has already resolved',
  INVALID_ORDER: 'the exchange refused the order as invalid',
  IOC: 'nothing could be filled at once',
  EXPIRED: 'the epoch has ended',
  SELF_TRADE: 'it would have traded with your own order',
};

export function reasonSentence(reason: string): string {
  const known = REASONS[reason.toUpperCase()];
  if (known) return `${known} (${reason})`;
  return cleanExchangeText(reason) !== '' ? exchangeSaid(reason) : 'no reason given';
}

const cents = (price: bigint): string => `${formatPrice(price)}¢`;

/**
 * `filledAt`: what the filled part traded at, when known: the average of the exchange's own fill
 * records, or the limit with `atOrBetter` when the deployment does not report fill prices.
 */
export function orderSummary(r: Omit<OrderResult, 'summary'>, sell: boolean, price: bigint, filledAt?: { price: bigint; atOrBetter: boolean }): string {
  const verb = sell ? 'Sold' : 'Bought';
  const at = filledAt === undefined ? `at ${cents(price)}` : `${filledAt.atOrBetter ? 'at or better than' : 'at'} ${cents(filledAt.price)}`;
  const filled = BigInt(r.filled);
  const remaining = BigInt(r.remaining);
  switch (r.status) {
    case 'REJECTED':
      return `Rejected: ${reasonSentence(r.reason)}`;
    case 'FILLED':
      return `${verb} ${formatSize(filled)} ${at}`;
    case 'PARTIALLY_FILLED':
      return `${verb} ${formatSize(filled)} ${at}; ${formatSize(remaining)} resting`;
    case 'CANCELLED':
      return filled > 0n
        ? `${verb} ${formatSize(filled)} ${at}; the rest (${formatSize(BigInt(r.cancelled))}) was cancelled`
        : `Nothing filled at ${cents(price)}: the order was cancelled${r.reason ? ` (${cleanExchangeText(r.reason)})` : ''}`;
    case 'ACCEPTED':
      return `${sell ? 'Sell' : 'Buy'} ${formatSize(remaining)} at ${cents(price)} is resting`;
  }
}

export function cancelSummary(r: Omit<CancelResult, 'summary'>): string {
  const n = r.orderIds.length;
  switch (r.status) {
    case 'CANCELLED':
      return n === 1 ? 'Cancelled 1 order' : `Cancelled ${n} orders`;
    case 'CANCEL_FAILED':
      return 'Cancel failed: the order was no longer open';
    case 'CANCEL_NOT_COMMITTED':
      return 'The cancel was not committed; check the order again';
  }
}
