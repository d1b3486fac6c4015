// Protocol integers (and dates) as people read them in tables: rounded to what a column shows, grouped, with
// their unit. Exact renderings (confirmations, sentences: what is signed) are in units.ts.
import { PROTOCOL_SCALE } from './constants';
import { formatPrice, groupThousands } from './units';

/**
 * `raw / 10^decimals` shown with `shown` fraction digits, rounded half away from zero; a negative
 * value that rounds to zero shows no sign. `trim` drops trailing fraction zeros (down to `minShown`).
 */
export function roundedDecimal(
  raw: bigint,
  decimals: number,
  shown: number,
  { trim = false, minShown = 0, thousands = false } = {},
): string {
  const negative = raw < 0n;
  const abs = negative ? -raw : raw;
  const drop = 10n ** BigInt(decimals - shown);
  const rounded = decimals > shown ? (abs + drop / 2n) / drop : abs * 10n ** BigInt(shown - decimals);
  const unit = 10n ** BigInt(shown);
  const whole = (rounded / unit).toString();
  let fraction = shown > 0 ? (rounded % unit).toString().padStart(shown, '0') : '';
  if (trim) {
    let end = fraction.length;
    while (end > minShown && fraction[end - 1] === '0') end -= 1;
    fraction = fraction.slice(0, end);
  }
  const wholeText = thousands ? groupThousands(whole) : whole;
  const sign = negative && rounded !== 0n ? '−' : '';
  return sign + wholeText + (fraction ? `.${fraction}` : '');
}

/** A price exactly, in cents, for sentences: 625000n → "62.5¢", 620000n → "62¢". */
export function formatCents(price: bigint): string {
  return `${formatPrice(price)}¢`;
}

/** A price in a table column: one decimal of cents, always (prices tick in tenths): 500000n → "50.0¢". */
export function displayPrice(price: bigint): string {
  return `${roundedDecimal(price, 4, 1)}¢`;
}

/** Contracts in a table: up to two decimals, grouped: 1234500000n → "1,234.5". */
export function displaySize(size: bigint): string {
  return roundedDecimal(size, 6, 2, { trim: true, thousands: true });
}

/** Contracts with their unit: "12 contracts", "1 contract", "0.5 contracts". */
export function displayContracts(size: bigint): string {
  const n = displaySize(size);
  return `${n} ${n === '1' ? 'contract' : 'contracts'}`;
}

/** Exchange dollars to the cent: 1234567890n → "$1,234.57"; negative → "−$1.00". */
export function displayUsd(amount: bigint): string {
  const text = roundedDecimal(amount, 6, 2, { thousands: true });
  return text.startsWith('−') ? `−$${text.slice(1)}` : `$${text}`;
}

/** Money with an explicit sign, for P&L: "+$1.20", "−$0.40", "$0.00". */
export function displaySignedUsd(amount: bigint): string {
  const text = displayUsd(amount);
  return amount > 0n && text !== '$0.00' ? `+${text}` : text;
}

/** An oracle price (USD × 10^6): 2 decimals from $1, 4 below it. */
export function displayOracle(price: bigint): string {
  const abs = price < 0n ? -price : price;
  return `$${roundedDecimal(price, 6, abs >= PROTOCOL_SCALE ? 2 : 4, { thousands: true })}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar date as people read it, the same in main's dialogs and the window: "20 Nov 2026" (UTC,
 * as release dates are stamped; month as a word, so no day/month order to guess). Text that is not
 * an ISO date comes back as it is.
 */
export function displayDate(iso: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(iso) ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return iso;
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
