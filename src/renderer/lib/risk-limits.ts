/**
 * The risk limits as the window shows and edits them (docs/risk-guards.md): each limit's name,
 * unit and why; what a typed value means, checked here in people's words before main sees it (main
 * checks again and decides); whether a change loosens a limit (main asks in its dialog) or tightens
 * it (saved at once); and today's loss budget as a meter reads it. Exact: bigint units, no floats.
 */
import type { RiskStatus } from '../../shared/bridge';
import { displaySize, displayUsd } from '../../shared/protocol/display';
import { parseAmount, parsePrice, parseSize } from '../../shared/protocol/units';
import type { RiskLimits } from '../../shared/settings-schema';

export type LimitKey = keyof RiskLimits;

export interface LimitRow {
  key: LimitKey;
  name: string;
  /** Written before the field ("$"), or null. */
  prefix: string | null;
  /** Written after the field ("¢", "contracts"). */
  unit: string;
  /** One line: what it stops. */
  why: string;
}

/** In the order a trader reads them: the price, the size, the count, the day. */
export const LIMIT_ROWS: readonly LimitRow[] = [
  {
    key: 'priceBandCents',
    name: 'Price band around fair value',
    prefix: null,
    unit: '¢ either side',
    why: 'A buy above fair value plus the band, or a sell below it minus the band, is refused: nobody sells you at 99¢ what is worth 50¢.',
  },
  {
    key: 'maxOrderCost',
    name: 'Largest order cost',
    prefix: '$',
    unit: 'per order',
    why: 'The most one order may put at stake, so a mistyped size cannot stake the whole account.',
  },
  {
    key: 'maxPositionContracts',
    name: 'Largest position per market',
    prefix: null,
    unit: 'contracts',
    why: 'Counts your open orders on the same side as if filled: no single market can take over the account.',
  },
  {
    key: 'maxOpenOrders',
    name: 'Most open orders',
    prefix: null,
    unit: 'orders',
    why: 'Across all markets: a runaway script or hotkey cannot fill the books with your orders.',
  },
  {
    key: 'maxOrdersPerMinute',
    name: 'Most orders per minute',
    prefix: null,
    unit: 'a minute',
    why: 'Stops a loop from churning round trips faster than you can see them.',
  },
  {
    key: 'dailyLossPercent',
    name: 'Daily loss limit',
    prefix: null,
    unit: '% of the day’s starting equity',
    why: 'Realised plus unrealised loss at fair value since 00:00 UTC; at the limit only orders that reduce a position go. Applies when no fixed amount is set below.',
  },
  {
    key: 'dailyLossAmount',
    name: 'Daily loss limit, fixed amount',
    prefix: '$',
    unit: 'a day · empty: the percentage above applies',
    why: 'The same limit in dollars, in place of the percentage: for an account funded after its day started, or if you think in dollars.',
  },
];

export type LimitInput = { ok: true; change: Partial<RiskLimits> } | { ok: false; message: string };

/** A typed decimal without its unit and thousands separators: "1,000.50" → ["1000", "5"]; null if not a plain number. */
function decimalParts(typed: string, strip: RegExp): { whole: string; fraction: string } | null {
  const m = /^([0-9]+)(?:\.([0-9]*))?$/.exec(typed.trim().replace(strip, '').replace(/,/g, '').trim());
  if (!m) return null;
  return { whole: m[1]!.replace(/^0+(?=[0-9])/, ''), fraction: (m[2] ?? '').replace(/0+$/, '') };
}

const joined = (p: { whole: string; fraction: string }): string =>
  p.fraction === '' ? p.whole : `${p.whole}.${p.fraction}`;

const fail = (message: string): LimitInput => ({ ok: false, message });

function parseBand(typed: string): LimitInput {
  const p = decimalParts(typed, /\s*[¢c]\s*$/i);
  if (!p) return fail('Type the band in cents, such as 15 or 2.5.');
  if (p.fraction.length > 1) return fail('Use at most one decimal place, such as 2.5.');
  if (p.whole.length > 2 || joined(p) === '0') return fail('The band must be between 0.1¢ and 99.9¢.');
  return { ok: true, change: { priceBandCents: joined(p) } };
}

function parseDollars(typed: string): LimitInput {
  const p = decimalParts(typed, /^\s*\$/);
  if (!p) return fail('Type an amount in dollars, such as 250.');
  if (p.fraction.length > 2) return fail('Use at most two decimal places (whole cents).');
  if (joined(p) === '0') return fail('The largest order cost must be more than $0.');
  if (p.whole.length > 9) return fail('The largest order cost can be at most $999,999,999.99.');
  return { ok: true, change: { maxOrderCost: joined(p) } };
}

/** A fixed daily loss amount ("250", "$250", "250 a day"), or an empty field: the percentage applies. */
function parseDailyAmount(typed: string): LimitInput {
  if (typed.trim() === '') return { ok: true, change: { dailyLossAmount: '' } };
  const p = decimalParts(typed, /^\s*\$|\s*(a|per)\s+day\s*$/gi);
  if (!p) return fail('Type an amount in dollars, such as 250, or leave the field empty to use the percentage.');
  if (p.fraction.length > 2) return fail('Use at most two decimal places (whole cents).');
  if (joined(p) === '0')
    return fail('A fixed daily loss limit must be more than $0; leave the field empty to use the percentage.');
  if (p.whole.length > 9) return fail('A fixed daily loss limit can be at most $999,999,999.99.');
  return { ok: true, change: { dailyLossAmount: joined(p) } };
}

function parseContracts(typed: string): LimitInput {
  const p = decimalParts(typed, /\s*contracts?\s*$/i);
  if (!p) return fail('Type a number of contracts, such as 2000.');
  if (p.fraction.length > 2) return fail('Use at most two decimal places, such as 12.5.');
  const text = joined(p);
  try {
    parseSize(text);
  } catch {
    return fail('The largest position must be between 0.01 and 1,000,000,000 contracts.');
  }
  return { ok: true, change: { maxPositionContracts: text } };
}

function parseCount(
  key: 'maxOpenOrders' | 'maxOrdersPerMinute',
  typed: string,
  max: number,
  example: number,
): LimitInput {
  const p = decimalParts(typed, /\s*(orders?|a minute|\/\s*min(ute)?)\s*$/i);
  if (!p || p.fraction !== '') return fail(`Type a whole number of orders, such as ${example}.`);
  const n = BigInt(p.whole);
  if (n < 1n || n > BigInt(max)) return fail(`Type a whole number from 1 to ${max.toLocaleString('en-US')}.`);
  return { ok: true, change: { [key]: Number(n) } };
}

function parsePercent(typed: string): LimitInput {
  const p = decimalParts(typed, /\s*%\s*$/);
  if (!p) return fail('Type a percentage, such as 10 or 2.5.');
  if (p.fraction.length > 2) return fail('Use at most two decimal places, such as 2.5.');
  const bps = BigInt(p.whole) * 100n + BigInt(p.fraction.padEnd(2, '0'));
  if (bps < 10n || bps > 10_000n) return fail('The daily loss limit must be between 0.1% and 100%.');
  return { ok: true, change: { dailyLossPercent: Number(bps) / 100 } };
}

/** What the user typed for one limit, as the change to send, or why it is not a limit. */
export function parseLimitInput(key: LimitKey, typed: string): LimitInput {
  switch (key) {
    case 'priceBandCents':
      return parseBand(typed);
    case 'maxOrderCost':
      return parseDollars(typed);
    case 'maxPositionContracts':
      return parseContracts(typed);
    case 'maxOpenOrders':
      return parseCount(key, typed, 1000, 50);
    case 'maxOrdersPerMinute':
      return parseCount(key, typed, 6000, 120);
    case 'dailyLossPercent':
      return parsePercent(typed);
    case 'dailyLossAmount':
      return parseDailyAmount(typed);
  }
}

/** The fixed daily loss amount in amount units, or null when the percentage applies. */
function dailyFixed(l: Pick<RiskLimits, 'dailyLossAmount'>): bigint | null {
  return l.dailyLossAmount === '' ? null : parseAmount(l.dailyLossAmount);
}

/** One limit in comparable units (price, amount or size units; counts; basis points). */
function magnitude(key: Exclude<LimitKey, 'dailyLossAmount'>, l: Pick<RiskLimits, LimitKey>): bigint {
  switch (key) {
    case 'priceBandCents':
      return parsePrice(l.priceBandCents);
    case 'maxOrderCost':
      return parseAmount(l.maxOrderCost);
    case 'maxPositionContracts':
      return parseSize(l.maxPositionContracts);
    case 'maxOpenOrders':
      return BigInt(l.maxOpenOrders);
    case 'maxOrdersPerMinute':
      return BigInt(l.maxOrdersPerMinute);
    case 'dailyLossPercent':
      return BigInt(Math.round(l.dailyLossPercent * 100));
  }
}

/**
 * How a change compares with the limits in force: every limit is "at most", so larger is looser.
 * Setting a fixed daily loss amount where the percentage applied, or clearing it, is looser too
 * (main asks, as it does).
 */
export function changeKind(
  key: LimitKey,
  inForce: RiskLimits,
  change: Partial<RiskLimits>,
): 'same' | 'stricter' | 'looser' {
  if (key === 'dailyLossAmount') {
    const was = dailyFixed(inForce);
    const next = dailyFixed({ ...inForce, ...change });
    if (was === next) return 'same';
    return was !== null && next !== null && next < was ? 'stricter' : 'looser';
  }
  const from = magnitude(key, inForce);
  const to = magnitude(key, { ...inForce, ...change });
  return to === from ? 'same' : to < from ? 'stricter' : 'looser';
}

/** The value in force as the field shows it. */
export function fieldText(key: LimitKey, l: RiskLimits): string {
  return String(l[key]);
}

/** The value in force in a sentence: "15¢", "$500.00", "2,000 contracts", "10%", "$250.00 a day". */
export function inForceText(key: LimitKey, l: RiskLimits): string {
  switch (key) {
    case 'priceBandCents':
      return `${l.priceBandCents}¢`;
    case 'maxOrderCost':
      return displayUsd(parseAmount(l.maxOrderCost));
    case 'maxPositionContracts':
      return `${displaySize(parseSize(l.maxPositionContracts))} contracts`;
    case 'maxOpenOrders':
      return `${l.maxOpenOrders} orders`;
    case 'maxOrdersPerMinute':
      return `${l.maxOrdersPerMinute} orders a minute`;
    case 'dailyLossPercent':
      return `${l.dailyLossPercent}%`;
    case 'dailyLossAmount': {
      const fixed = dailyFixed(l);
      return fixed === null ? 'the percentage (no fixed amount)' : `${displayUsd(fixed)} a day`;
    }
  }
}

/** A line under a limit that is not in force now, or null: the percentage while a fixed amount is set. */
export function notInForce(key: LimitKey, l: RiskLimits): string | null {
  return key === 'dailyLossPercent' && l.dailyLossAmount !== ''
    ? `Not in force now: the fixed amount of ${inForceText('dailyLossAmount', l)} applies.`
    : null;
}

export interface BudgetView {
  /** False when main could not measure it (no account, balance not read): `note` says why. */
  known: boolean;
  /** "$12.40" and "$100.00". */
  used: string;
  limit: string;
  /** "$12.40 of $100.00 used today". */
  summary: string;
  /** Share of the limit used, 0 to 1 (1 once spent), for the bar. */
  fraction: number;
  /**
   * The most open orders could still lose if taken stale ("$40.00"), null when nothing rests; and its
   * share of the limit beside `fraction` (together at most 1), for the bar's second part.
   */
  held: string | null;
  heldFraction: number;
  /** Spent: only orders that reduce a position go. Near: 80% or more used. */
  level: 'ok' | 'near' | 'spent';
  note: string | null;
}

/** Today's loss budget from main's risk.status, for the meters and the banner. */
export function budgetView(status: RiskStatus | null): BudgetView {
  if (!status || status.lossToday === null || status.lossLimit === null) {
    return {
      known: false,
      used: '—',
      limit: '—',
      summary: 'Not measured yet',
      fraction: 0,
      held: null,
      heldFraction: 0,
      level: 'ok',
      note: status?.note ?? null,
    };
  }
  const loss = BigInt(status.lossToday);
  const limit = BigInt(status.lossLimit);
  const permille = limit > 0n ? (loss >= limit ? 1000n : (loss * 1000n) / limit) : 1000n;
  const level = status.spent ? 'spent' : permille >= 800n ? 'near' : 'ok';
  const open = status.openWorst === null ? 0n : BigInt(status.openWorst);
  const heldPermille = open > 0n && limit > 0n ? (open * 1000n) / limit : 0n;
  return {
    known: true,
    used: displayUsd(loss),
    limit: displayUsd(limit),
    summary: `${displayUsd(loss)} of ${displayUsd(limit)} used today`,
    fraction: Number(permille) / 1000,
    held: open > 0n ? displayUsd(open) : null,
    heldFraction: Number(heldPermille > 1000n - permille ? 1000n - permille : heldPermille) / 1000,
    level,
    note: status.note,
  };
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * At most one run per `intervalMs`: the first request runs at once, requests during the interval
 * are folded into one run at its end (so the last change is always read).
 */
export function throttle(
  run: () => void,
  intervalMs: number,
  timers: Timers = realTimers,
): { request(): void; cancel(): void } {
  let last = -Infinity;
  let pending: unknown = null;
  const fire = (): void => {
    pending = null;
    last = timers.now();
    run();
  };
  return {
    request() {
      if (pending !== null) return;
      // Capped: a wall clock set back never holds the next run longer than one interval.
      const wait = Math.min(intervalMs, last + intervalMs - timers.now());
      if (wait <= 0) fire();
      else pending = timers.setTimeout(fire, wait);
    },
    cancel() {
      if (pending !== null) timers.clearTimeout(pending);
      pending = null;
    },
  };
}
