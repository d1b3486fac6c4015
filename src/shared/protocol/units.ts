// Human decimals ↔ protocol integers (docs/protocol/units.md). Exact string/bigint arithmetic; no Number ever.
import { MAX_AMOUNT, MAX_PRICE, MAX_SIZE, MIN_PRICE, MIN_SIZE, PRICE_TICK, PROTOCOL_SCALE } from './constants';
import { UnitsError, type UnitsErrorCode } from './errors';

const PRICE_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]))?$/;
const TWO_DEC_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;
// Integer parts longer than this are out of range for every unit; bounding keeps BigInt cheap.
const MAX_INT_DIGITS = 20;

const PRICE_RULE = 'Price must be between 0.1 and 99.9 cents with at most one decimal place.';
const SIZE_RULE = 'Size must be between 0.01 and 1000000000 contracts with at most two decimal places.';
const AMOUNT_RULE = 'Amount must be greater than 0 and at most 1000000000 tokens, with at most two decimal places.';

function reject(code: UnitsErrorCode, rule: string, input: unknown): never {
  const shown = typeof input === 'string' ? `"${input.length > 40 ? `${input.slice(0, 40)}…` : input}"` : typeof input;
  throw new UnitsError(code, `${rule} Got ${shown}.`);
}

/** Parse a decimal string with at most `decimals` places into value × 10^scaleDigits. */
function parseFixed(input: unknown, re: RegExp, scaleDigits: number, code: UnitsErrorCode, rule: string): bigint {
  if (typeof input !== 'string') reject(code, rule, input);
  const m = re.exec(input);
  if (!m || m[1]!.length > MAX_INT_DIGITS) reject(code, rule, input);
  const frac = (m[2] ?? '').padEnd(scaleDigits, '0');
  return BigInt(m[1]!) * 10n ** BigInt(scaleDigits) + BigInt(frac === '' ? '0' : frac);
}

/** Exact decimal rendering of value / 10^digits, trailing zeros trimmed. */
function formatFixed(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const int = value / scale;
  const frac = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac === '' ? int.toString() : `${int}.${frac}`;
}

function checkFormattable(value: unknown, code: UnitsErrorCode, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n) {
    throw new UnitsError(code, `${what} must be a non-negative bigint in protocol units.`);
  }
  return value;
}

/**
 * A decimal as people type it, in the protocol's canonical form: surrounding spaces and a unit
 * suffix (`unit`, e.g. CENTS_SUFFIX) dropped, trailing zeros after the point dropped ("62.50" →
 * "62.5", "10.00" → "10"), a missing leading zero supplied (".5" → "0.5"). Anything else is left for
 * the unit parser to refuse.
 */
export function canonicalDecimal(typed: string, unit: RegExp | null = null): string {
  let v = typed.trim();
  if (unit) v = v.replace(unit, '').trim();
  // ".5" as typed is 0.5 (a leading zero is never required); "." alone stays for the parser to refuse.
  const m = /^([0-9]*)\.([0-9]*)$/.exec(v);
  if (!m || m[1]! + m[2]! === '') return v;
  const whole = m[1] === '' ? '0' : m[1]!;
  const frac = m[2]!.replace(/0+$/, '');
  return frac === '' ? whole : `${whole}.${frac}`;
}

/** The cent sign a typed price may end with ("62.5¢", "62.5c"). */
export const CENTS_SUFFIX = /\s*[¢c]$/i;

/** "62.5" (cents) → 625000n. Canonical, at most one decimal, 0.1–99.9. */
export function parsePrice(cents: string): bigint {
  // cents × 10^4: one decimal of cents is a tenth-cent = 1000 units.
  const v = parseFixed(cents, PRICE_RE, 1, 'INVALID_PRICE', PRICE_RULE) * PRICE_TICK;
  if (v < MIN_PRICE || v > MAX_PRICE) reject('INVALID_PRICE', PRICE_RULE, cents);
  return v;
}

/** 625000n → "62.5"; 70000n → "7". Exact (off-tick values show more decimals). */
export function formatPrice(price: bigint): string {
  return formatFixed(checkFormattable(price, 'INVALID_PRICE', 'Price'), 4);
}

/** "12.5" contracts → 12500000n. At most two decimals, 0.01 – 10^9 contracts. */
export function parseSize(contracts: string): bigint {
  const v = parseFixed(contracts, TWO_DEC_RE, 6, 'INVALID_SIZE', SIZE_RULE);
  if (v < MIN_SIZE || v > MAX_SIZE) reject('INVALID_SIZE', SIZE_RULE, contracts);
  return v;
}

export function formatSize(size: bigint): string {
  return formatFixed(checkFormattable(size, 'INVALID_SIZE', 'Size'), 6);
}

/** "100.25" tokens → 100250000n. Strictly positive, at most two decimals, ≤ 10^15 units. */
export function parseAmount(tokens: string): bigint {
  const v = parseFixed(tokens, TWO_DEC_RE, 6, 'INVALID_AMOUNT', AMOUNT_RULE);
  if (v <= 0n || v > MAX_AMOUNT) reject('INVALID_AMOUNT', AMOUNT_RULE, tokens);
  return v;
}

export function formatAmount(amount: bigint): string {
  return formatFixed(checkFormattable(amount, 'INVALID_AMOUNT', 'Amount'), 6);
}

/**
 * Exchange dollars (6 decimals) exactly, with their unit, for sentences and confirmations:
 * 12500000n → "$12.50", 1234567890n → "$1,234.56789", -16110000n → "-$16.11". At least two
 * decimals, never rounded: what a confirmation shows is what is signed.
 */
export function formatDollars(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const [whole = '0', fraction = ''] = formatAmount(amount < 0n ? -amount : amount).split('.');
  return `${sign}$${groupThousands(whole)}.${fraction.padEnd(2, '0')}`;
}

/** "1234567" → "1,234,567". */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function checkMarginInputs(size: bigint, price: bigint): void {
  if (typeof size !== 'bigint' || size < 0n)
    throw new UnitsError('INVALID_SIZE', 'Size must be a non-negative bigint.');
  if (typeof price !== 'bigint' || price < 0n || price > PROTOCOL_SCALE) {
    throw new UnitsError('INVALID_PRICE', 'Price must be a bigint between 0 and 1000000.');
  }
}

/**
 * Collateral of a BUY: size × price / 10^6. Rounded up (never under-reserve); exact for
 * on-lot sizes and on-tick prices.
 */
export function buyMargin(size: bigint, price: bigint): bigint {
  checkMarginInputs(size, price);
  return ceilDiv(size * price, PROTOCOL_SCALE);
}

/** Collateral of a SELL: size × (10^6 − price) / 10^6, rounded up. */
export function sellMargin(size: bigint, price: bigint): bigint {
  checkMarginInputs(size, price);
  return ceilDiv(size * (PROTOCOL_SCALE - price), PROTOCOL_SCALE);
}

/** Margin for either side (`side`: false = BUY, true = SELL). */
export function orderMargin(side: boolean, size: bigint, price: bigint): bigint {
  return side ? sellMargin(size, price) : buyMargin(size, price);
}
