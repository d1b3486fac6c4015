/**
 * The sentences of trading notices, worded here only, from the typed results and events main sends
 * (it sends facts, never these sentences): "Bought 10 at 62.5¢", "Cancelled 2 orders",
 * "Closed BTC 1m #3: sold 3.5 contracts at 42¢ average (worst 42¢); the position is closed.",
 * "BTC 1m #3: bought 3 Up contracts at 40¢ (your resting order filled).", "BTC 1m #3 resolved Up; #4 is trading.".
 * Amounts are exact (src/shared/protocol): a notice says what traded, not a rounding of it.
 */
import type {
  AirgapSubmitResult,
  CancelResult,
  CloseResult,
  EpochResolution,
  FillView,
  OrderResult,
  PayloadDescription,
  PendingRequestView,
  ReplaceResult,
} from '../../shared/bridge';
import { cleanExchangeText, rejectReasonSentence } from '../../shared/exchange-text';
import { PRICE_TICK } from '../../shared/protocol/constants';
import { formatCents } from '../../shared/protocol/display';
import { formatSize } from '../../shared/protocol/units';
import { statusWord } from '../../shared/status-words';

/**
 * An average price at the precision prices are shown everywhere, a tenth of a cent (half up):
 * "49.9¢", not "49.8857¢". A price on the tick reads as itself ("62.5¢", "50¢").
 */
function averageCents(p: bigint): string {
  return formatCents(((p + PRICE_TICK / 2n) / PRICE_TICK) * PRICE_TICK);
}

/** What an order did: filled (at what), resting, cancelled or rejected (and why). */
/**
 * When main tightened a marketable order's limit to stay inside a guard: the sentence that says so,
 * to follow the order's or close's own words; "" otherwise.
 */
export function tightenedNote(
  r: Pick<OrderResult, 'tightenedFrom' | 'tightenedBy' | 'price'>,
  limit: string | null = r.price,
): string {
  if (r.tightenedFrom === undefined || r.tightenedBy === undefined || limit === null) return '';
  const guard = r.tightenedBy === 'band' ? 'your price band around fair value' : 'your daily loss budget';
  return ` The limit was tightened from ${formatCents(BigInt(r.tightenedFrom))} to ${formatCents(BigInt(limit))} to stay inside ${guard}.`;
}

export function orderText(r: OrderResult): string {
  const sell = r.side === 'sell';
  const verb = sell ? 'Sold' : 'Bought';
  const price = BigInt(r.price);
  const at =
    r.fillPrice === null
      ? `at ${formatCents(price)}`
      : `${r.fillPriceIsLimit ? 'at or better than' : 'at'} ${averageCents(BigInt(r.fillPrice))}`;
  const filled = formatSize(BigInt(r.filled));
  switch (r.status) {
    case 'REJECTED':
      return `Rejected: ${rejectReasonSentence(r.reason)}`;
    case 'FILLED':
      return `${verb} ${filled} ${at}`;
    case 'PARTIALLY_FILLED':
      // An IOC or FOK that part filled rests nothing: the rest was cancelled, not "0 resting".
      return BigInt(r.remaining) > 0n
        ? `${verb} ${filled} ${at}; ${formatSize(BigInt(r.remaining))} resting`
        : `${verb} ${filled} ${at}; the rest${BigInt(r.cancelled) > 0n ? ` (${formatSize(BigInt(r.cancelled))})` : ''} was cancelled`;
    case 'CANCELLED':
      return BigInt(r.filled) > 0n
        ? `${verb} ${filled} ${at}; the rest (${formatSize(BigInt(r.cancelled))}) was cancelled`
        : `Nothing filled at ${formatCents(price)}: the order was cancelled${r.reason ? ` (${cleanExchangeText(r.reason)})` : ''}`;
    case 'ACCEPTED':
      return `${sell ? 'Sell' : 'Buy'} ${formatSize(BigInt(r.remaining))} at ${formatCents(price)} is resting`;
  }
}

export function cancelText(r: CancelResult): string {
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

export function replaceText(r: ReplaceResult): string {
  const replacement = r.replacement ? orderText(r.replacement) : null;
  switch (r.status) {
    case 'SUCCESS':
      return r.duplicate ? 'The replacement had already been processed.' : `Replaced: ${replacement ?? 'done'}`;
    case 'CANCEL_FAILED':
      return 'Not replaced: the order was no longer open';
    default:
      return `The order was cancelled but the replacement failed${replacement ? `: ${replacement}` : ''}`;
  }
}

const contracts = (n: bigint): string => `${formatSize(n)} contract${n === 1_000_000n ? '' : 's'}`;

/** What a close did (`market` is "BTC 1m #3"): what filled, at what average and worst price, what is still open. */
export function closeText(r: CloseResult, market: string): string {
  const left = BigInt(r.remaining);
  const open = contracts(left < 0n ? -left : left);
  const sell = r.side === 'sell';
  const against = sell ? 'bids' : 'offers';
  const verb = sell ? 'sold' : 'bought';
  const at =
    r.averagePrice !== null && r.worstPrice !== null
      ? ` at ${r.pricesAreLimits ? 'or better than ' : ''}${averageCents(BigInt(r.averagePrice))} average (worst ${formatCents(BigInt(r.worstPrice))})`
      : '';
  const limitWords =
    r.limitPrice !== null && r.bestPrice !== null
      ? `the ${formatCents(BigInt(r.limitPrice))} limit (best ${formatCents(BigInt(r.bestPrice))} ${sell ? '−' : '+'} ${formatCents(BigInt(r.maxSlippage))} slippage)`
      : 'the limit';
  switch (r.status) {
    case 'NOTHING_TO_CLOSE':
      return r.positionChanged
        ? `Nothing to close: the position in ${market} changed to ${left === 0n ? 'flat' : 'the other side'} before the order was sent.`
        : `Nothing to close: no position in ${market}.`;
    case 'NO_LIQUIDITY':
      return `Nothing closed: no ${against} in ${market} to close against; ${open} still open.`;
    case 'REJECTED':
      return `Not closed: ${rejectReasonSentence(r.reason)}; ${open} still open in ${market}.`;
    case 'NOT_FILLED':
      return `Nothing closed in ${market}: no ${against} within ${limitWords}; ${open} still open.`;
    case 'CLOSED':
      return `Closed ${market}: ${verb} ${contracts(BigInt(r.filled))}${at}; the position is closed.`;
    case 'PARTIALLY_CLOSED':
      // What is still open comes first: a notice cut short by the strip still says it.
      return `Partly closed ${market}, ${open} still open: ${verb} ${contracts(BigInt(r.filled))}${at}, stopped at ${limitWords}.`;
  }
}

/** A maker fill of a resting order: the one notice a fill gives (`market` is "BTC 1m #3"). */
export function fillText(f: FillView, market: string): string {
  const size = BigInt(f.size);
  return `${market}: ${f.side === 'buy' ? 'bought' : 'sold'} ${formatSize(size)} Up contract${size === 1_000_000n ? '' : 's'} at ${formatCents(BigInt(f.price))} (your resting order filled).`;
}

/** `market` names the resolved epoch ("BTC 1m #3"). */
export function resolutionText(r: EpochResolution, market: string): string {
  return `${market} resolved ${r.upWon ? 'Up' : 'Down'}; #${r.currentEpoch} is trading.`;
}

/** The exchange's answer to a sent request: a status code in words (status-words.ts), its own text quoted clean. */
function answered(status: string): string {
  return /^[A-Z][A-Z_]*$/.test(status) ? statusWord(status) : cleanExchangeText(status);
}

/** How a sent request's notice shows: an error when the exchange failed or rejected it. */
export function sentNoticeLevel(r: AirgapSubmitResult): 'error' | 'success' {
  return /FAIL|REJECT/.test(r.status) ? 'error' : 'success';
}

/** A request signed on another machine, sent: what it was, its fingerprint, and the exchange's answer. */
export function airgapSentText(request: PendingRequestView, r: AirgapSubmitResult): string {
  return `Sent: ${request.title}, fingerprint ${request.fingerprint}. The exchange answered: ${answered(r.status)}.`;
}

/** A file signed earlier, sent: its first line in words, and the exchange's answer. */
export function signedFileSentText(described: PayloadDescription | null, r: AirgapSubmitResult): string {
  const what = described?.lines[0] ?? 'the signed file';
  return `Sent: ${what.replace(/\.$/, '')}. The exchange answered: ${answered(r.status)}.`;
}
