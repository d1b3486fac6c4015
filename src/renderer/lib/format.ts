/**
 * Display formatting for protocol integers that cross the bridge as decimal strings.
 * Exact integer arithmetic only (BigInt): money, prices and sizes never touch floats.
 * Units (docs/protocol/units.md): prices 1,000..999,000 per $1 contract; sizes, money and oracle prices 6 decimals.
 */

export const PRICE_TICK = 1000n;
export const PRICE_MIN = 1000n;
export const PRICE_MAX = 999_000n;
const SCALE = 1_000_000n;

function toBig(value: string | bigint): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `raw / 10^decimals` shown with `shown` fraction digits, rounded half away from zero.
 * `trim` drops trailing fraction zeros (down to `minShown`).
 */
export function fixed(raw: bigint, decimals: number, shown: number, { trim = false, minShown = 0, thousands = false } = {}): string {
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

/** A top-of-book price, or null when there is none (the core may send "0" for an empty side). */
export function priceOrNull(price: string | null | undefined): string | null {
  return price === null || price === undefined || price === '0' ? null : price;
}

/** 625000 → "62.5¢" (one decimal, always: prices tick in tenths of a cent); 0 is no price. */
export function formatPrice(price: string | bigint | null | undefined): string {
  if (price === null || price === undefined || price === '0' || price === 0n) return '—';
  return `${fixed(toBig(price), 4, 1)}¢`;
}

/** 625000 → "62.5", 620000 → "62": what a user would type in the ticket's cents field. */
export function priceToCentsInput(price: string | bigint): string {
  return fixed(toBig(price), 4, 1, { trim: true });
}

/** "62.5" → 625000n; null when it is not a valid cents price on the tick. */
export function centsInputToPrice(input: string): bigint | null {
  const match = /^\s*(\d{1,2})(?:\.(\d))?\s*$/.exec(input);
  if (!match) return null;
  const price = (BigInt(match[1] ?? '0') * 10n + BigInt(match[2] ?? '0')) * PRICE_TICK;
  return price >= PRICE_MIN && price <= PRICE_MAX ? price : null;
}

/** Moves a price by whole ticks and keeps it inside the tradable range. */
export function stepPrice(price: bigint, ticks: number): bigint {
  const moved = price + BigInt(ticks) * PRICE_TICK;
  return moved < PRICE_MIN ? PRICE_MIN : moved > PRICE_MAX ? PRICE_MAX : moved;
}

/** 6-decimal contracts with up to 2 decimals: 10250000 → "10.25", 5000000 → "5". */
export function formatSize(size: string | bigint | null | undefined): string {
  if (size === null || size === undefined) return '—';
  return fixed(toBig(size), 6, 2, { trim: true, thousands: true });
}

/** 6-decimal contracts as ticket input (no thousands separators). */
export function sizeToInput(size: string | bigint): string {
  return fixed(toBig(size), 6, 2, { trim: true });
}

/** 6-decimal USD: 1234567890 → "$1,234.57"; negative → "−$1.00". */
export function formatUsd(amount: string | bigint | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const text = fixed(toBig(amount), 6, 2, { thousands: true });
  return text.startsWith('−') ? `−$${text.slice(1)}` : `$${text}`;
}

/** Signed money with an explicit sign, for P&L: "+$1.20", "−$0.40", "$0.00". */
export function formatSignedUsd(amount: string | bigint | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const value = toBig(amount);
  const text = formatUsd(value);
  return value > 0n && text !== '$0.00' ? `+${text}` : text;
}

/** Oracle (USD × 10^6): 2 decimals from $1, 4 below it. */
export function formatOracle(price: string | bigint | null | undefined): string {
  if (price === null || price === undefined) return '—';
  const value = toBig(price);
  const abs = value < 0n ? -value : value;
  return `$${fixed(value, 6, abs >= SCALE ? 2 : 4, { thousands: true })}`;
}

/** Oracle minus strike as money and percent of strike: "+$12.40 (+0.02%)", with ▲/▼ for colour-blind users. */
export function formatDistance(oracle: string | null, strike: string): { text: string; direction: 'up' | 'down' | 'flat' } {
  if (oracle === null) return { text: '—', direction: 'flat' };
  const diff = BigInt(oracle) - BigInt(strike);
  const strikeValue = BigInt(strike);
  const direction = diff > 0n ? 'up' : diff < 0n ? 'down' : 'flat';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '·';
  const money = formatOracle(diff < 0n ? -diff : diff);
  const percent = strikeValue === 0n ? '' : ` ${fixed((diff < 0n ? -diff : diff) * 1_000_000n / strikeValue, 4, 2)}%`;
  return { text: `${arrow} ${money}${percent}`, direction };
}

/**
 * The market's implied probability that Up wins: the mid of best bid and ask. With a side missing
 * (quotes pulled before expiry) it is "no quotes", not one side's price or a stale last trade.
 */
export function impliedProbability(bid: string | null, ask: string | null): string {
  const [bestBid, bestAsk] = [priceOrNull(bid), priceOrNull(ask)];
  if (bestBid === null || bestAsk === null) return 'no quotes';
  return `${fixed((BigInt(bestBid) + BigInt(bestAsk)) / 2n, 4, 1)}%`;
}

/** Milliseconds left → "4:05", "1:02:03"; "0:00" once past. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "0x1234…abcd" for addresses and hashes in dense tables. */
export function shortHex(hex: string, keep = 4): string {
  return hex.length <= 2 + keep * 2 + 1 ? hex : `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)}`;
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
export function marketLabel(markets: readonly { assetId: string; symbol: string; timeframe: string }[], assetId: string, epoch: string): string {
  const m = markets.find((x) => x.assetId === assetId);
  return m ? `${m.symbol} ${m.timeframe} #${epoch}` : `${assetId.slice(0, 8)}… #${epoch}`;
}

/** 6-decimal contracts with their unit: "12 contracts", "1 contract", "0.5 contracts". */
export function formatContracts(size: string | bigint | null | undefined): string {
  const n = formatSize(size);
  return n === '—' ? n : `${n} ${n === '1' ? 'contract' : 'contracts'}`;
}

/**
 * The colour of a P&L from what is shown: "up" or "down" only when the amount rounds to at least a
 * cent, so a loss shown as "$0.00" is not red (and never "−$0.00").
 */
export function pnlTone(amount: string | bigint | null | undefined): 'up' | 'down' | '' {
  if (amount === null || amount === undefined) return '';
  const v = toBig(amount);
  const abs = v < 0n ? -v : v;
  if ((abs + 5_000n) / 10_000n === 0n) return '';
  return v < 0n ? 'down' : 'up';
}
