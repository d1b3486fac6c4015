/**
 * The window's formatting of what crosses the bridge: protocol integers arrive as decimal strings
 * (or are missing, shown as "—"); their units (docs/protocol/units.md) and rounding are
 * src/shared/protocol's (display.ts, units.ts), so a price reads the same in main's dialogs and the window.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK, PROTOCOL_SCALE } from '../../shared/protocol/constants';
import {
  displayContracts,
  displayDate,
  displayOracle,
  displayPrice,
  displaySignedUsd,
  displaySize,
  displayUsd,
  roundedDecimal,
} from '../../shared/protocol/display';
import {
  CENTS_SUFFIX,
  canonicalDecimal,
  formatPrice as exactCents,
  formatSize as exactSize,
  parsePrice,
} from '../../shared/protocol/units';

type Amount = string | bigint | null | undefined;

function toBig(value: string | bigint): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}

/** A top-of-book price, or null when there is none (the core may send "0" for an empty side). */
export function priceOrNull(price: string | null | undefined): string | null {
  return price === null || price === undefined || price === '0' ? null : price;
}

/** 625000 → "62.5¢" (one decimal, always: prices tick in tenths of a cent); 0 is no price. */
export function formatPrice(price: Amount): string {
  if (price === null || price === undefined || price === '0' || price === 0n) return '—';
  return displayPrice(toBig(price));
}

/**
 * A fair value (the model's price of Up), 0 to 100¢: unlike a quote, 0 is a value here ("0.0¢": Up
 * is all but sure to lose), not a missing side. "—" only without one (null).
 */
export function formatFairPrice(fair: string | null | undefined): string {
  return fair === null || fair === undefined ? '—' : displayPrice(BigInt(fair));
}

/** 625000 → "62.5", 620000 → "62": what a user would type in the ticket's cents field. */
export function priceToCentsInput(price: string | bigint): string {
  return exactCents(toBig(price));
}

/** "62.5" (or "62.50¢", as the ticket reads it) → 625000n; null when it is not a valid cents price on the tick. */
export function centsInputToPrice(input: string): bigint | null {
  try {
    return parsePrice(canonicalDecimal(input, CENTS_SUFFIX));
  } catch {
    return null;
  }
}

/** Moves a price by whole ticks and keeps it inside the tradable range. */
export function stepPrice(price: bigint, ticks: number): bigint {
  const moved = price + BigInt(ticks) * PRICE_TICK;
  return moved < MIN_PRICE ? MIN_PRICE : moved > MAX_PRICE ? MAX_PRICE : moved;
}

/** 6-decimal contracts with up to 2 decimals: 10250000 → "10.25", 5000000 → "5". */
export function formatSize(size: Amount): string {
  return size === null || size === undefined ? '—' : displaySize(toBig(size));
}

/** 6-decimal contracts as ticket input (exact, no thousands separators). */
export function sizeToInput(size: string | bigint): string {
  return exactSize(toBig(size));
}

/** An oracle price (USD × 10^6) as a field would take it, exact: 64980500000 → "64980.5". */
export function oracleToInput(price: string | bigint): string {
  return exactSize(toBig(price));
}

/** 6-decimal USD: 1234567890 → "$1,234.57"; negative → "−$1.00". */
export function formatUsd(amount: Amount): string {
  return amount === null || amount === undefined ? '—' : displayUsd(toBig(amount));
}

/** Signed money with an explicit sign, for P&L: "+$1.20", "−$0.40", "$0.00". */
export function formatSignedUsd(amount: Amount): string {
  return amount === null || amount === undefined ? '—' : displaySignedUsd(toBig(amount));
}

/** Oracle (USD × 10^6): 2 decimals from $1, 4 below it. */
export function formatOracle(price: Amount): string {
  return price === null || price === undefined ? '—' : displayOracle(toBig(price));
}

/**
 * Oracle minus strike as money and percent of strike: "▲ $12.40 0.02%", with ▲/▼ for colour-blind
 * users; "at strike" when it rounds to nothing. The money has the strike's precision: dollars and
 * cents (formatUsd) for a strike from $1, the oracle's four decimals below it. A difference is
 * small next to the prices it comes from, and by its own size it would read "$0.0000" for a BTC
 * oracle at its strike (just after the roll).
 */
export function formatDistance(
  oracle: string | null,
  strike: string,
): { text: string; direction: 'up' | 'down' | 'flat' } {
  if (oracle === null) return { text: '—', direction: 'flat' };
  const diff = BigInt(oracle) - BigInt(strike);
  const strikeValue = BigInt(strike);
  const abs = diff < 0n ? -diff : diff;
  const money = strikeValue >= PROTOCOL_SCALE ? formatUsd(abs) : formatOracle(abs);
  if (/^\$0\.0+$/.test(money)) return { text: 'at strike', direction: 'flat' };
  const direction = diff > 0n ? 'up' : 'down';
  const arrow = direction === 'up' ? '▲' : '▼';
  const percent = strikeValue === 0n ? '' : ` ${roundedDecimal((abs * 1_000_000n) / strikeValue, 4, 2)}%`;
  return { text: `${arrow} ${money}${percent}`, direction };
}

/**
 * The market's implied probability that Up wins: the mid of other traders' best bid and ask (the
 * caller leaves the account's own orders out: src/shared/others-quotes.ts). With a side missing
 * (quotes pulled before expiry) it is "no quotes", not one side's price or a stale last trade; when
 * the account's own orders are all that is left, "only your orders".
 */
export function impliedProbability(bid: string | null, ask: string | null, ownOnly = false): string {
  const [bestBid, bestAsk] = [priceOrNull(bid), priceOrNull(ask)];
  if (bestBid === null && bestAsk === null && ownOnly) return 'only your orders';
  if (bestBid === null || bestAsk === null) return 'no quotes';
  return `${roundedDecimal((BigInt(bestBid) + BigInt(bestAsk)) / 2n, 4, 1)}%`;
}

/**
 * How far a price is from fair value: one formatter for the ticket's line and the market list's
 * Edge, so both read the same. `diff` is the price minus fair, in micro-dollars; it is shown to the
 * tenth of a cent, and what rounds to 0.0¢ is "at fair".
 */
function fairGap(diff: bigint): { cents: string; direction: 'above' | 'below' | 'at' } {
  const abs = diff < 0n ? -diff : diff;
  const cents = displayPrice(abs);
  if (cents === '0.0¢') return { cents, direction: 'at' };
  return { cents, direction: diff > 0n ? 'above' : 'below' };
}

/**
 * The ticket's price against fair value: "12.3¢ above fair", "4.0¢ below fair", "at fair"; null
 * without a price or a fair value (the ticket then shows why there is none).
 */
export function fairDistance(
  price: bigint | string | null,
  fair: string | null,
): { text: string; direction: 'above' | 'below' | 'at' } | null {
  if (price === null || fair === null) return null;
  const gap = fairGap(toBig(price) - BigInt(fair));
  return { text: gap.direction === 'at' ? 'at fair' : `${gap.cents} ${gap.direction} fair`, direction: gap.direction };
}

/**
 * The market list's Edge: fair − mid, signed ("+2.3¢": fair is above the market's mid, so Up is
 * cheap by this model). "—" without a fair value or without both sides quoted.
 */
export function formatEdge(
  fair: string | null,
  bid: string | null,
  ask: string | null,
): { text: string; tone: 'up' | 'down' | '' } {
  const [bestBid, bestAsk] = [priceOrNull(bid), priceOrNull(ask)];
  if (fair === null || bestBid === null || bestAsk === null) return { text: '—', tone: '' };
  // (2·fair − bid − ask) / 2: the mid may fall on half a tick, and stays exact in micro-dollars.
  const gap = fairGap((2n * BigInt(fair) - BigInt(bestBid) - BigInt(bestAsk)) / 2n);
  if (gap.direction === 'at') return { text: gap.cents, tone: '' };
  return gap.direction === 'above' ? { text: `+${gap.cents}`, tone: 'up' } : { text: `−${gap.cents}`, tone: 'down' };
}

/**
 * Milliseconds left → "4:05", "1:02:03", and in the last ten seconds with tenths, "0:04.9". Rounded
 * down, so it never shows more time than is left: "0:00.0" at the instant it ends, and once past.
 */
export function formatCountdown(ms: number): string {
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${Math.floor(left / 1000)}.${Math.floor((left % 1000) / 100)}`;
  const total = Math.floor(left / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The one short form of an address on screen: "0x1234…abcd" (the first and last four hex digits),
 * wherever one is shortened; the full address goes in its title or in the Keys table.
 */
export function formatAddress(address: string): string {
  return shortHex(address, 4);
}

/** "0x1234…abcd" for hashes in dense tables (addresses: formatAddress). */
export function shortHex(hex: string, keep = 4): string {
  return hex.length <= 2 + keep * 2 + 1 ? hex : `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)}`;
}

/** An ISO date as main's dialogs write it too: "2026-11-20T10:00:00.000Z" → "20 Nov 2026". */
export function formatDate(iso: string): string {
  return displayDate(iso);
}

/** Local HH:MM:SS of a unix-ms time, for tables. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Age of a timestamp: "0.4s", "12s", "3m". */
export function formatAge(ms: number | null, now: number): string {
  if (ms === null) return '—';
  const age = Math.max(0, now - ms);
  if (age < 10_000) return `${(Math.floor(age / 100) / 10).toFixed(1)}s`;
  if (age < 120_000) return `${Math.floor(age / 1000)}s`;
  return `${Math.floor(age / 60_000)}m`;
}

/**
 * "BTC 1m #3": the market as a trader names it, for every row, notice and claim. Symbol and
 * timeframe from the market list; an asset missing from it shows the start of its id.
 */
export function marketLabel(
  markets: readonly { assetId: string; symbol: string; timeframe: string }[],
  assetId: string,
  epoch: string,
): string {
  const m = markets.find((x) => x.assetId === assetId);
  return m ? `${m.symbol} ${m.timeframe} #${epoch}` : `${assetId.slice(0, 8)}… #${epoch}`;
}

/** 6-decimal contracts with their unit: "12 contracts", "1 contract", "0.5 contracts". */
export function formatContracts(size: Amount): string {
  return size === null || size === undefined ? '—' : displayContracts(toBig(size));
}

/**
 * The colour of a P&L from what is shown: "up" or "down" only when the amount rounds to at least a
 * cent, so a loss shown as "$0.00" is not red (and never "−$0.00").
 */
export function pnlTone(amount: Amount): 'up' | 'down' | '' {
  if (amount === null || amount === undefined) return '';
  const v = toBig(amount);
  const abs = v < 0n ? -v : v;
  if ((abs + 5_000n) / 10_000n === 0n) return '';
  return v < 0n ? 'down' : 'up';
}
