/**
 * The risk limits as main uses them: the stored settings (typed text and numbers) parsed into
 * protocol units once, and the comparison that decides whether a change needs main's dialog
 * (looser) or takes effect at once (stricter).
 */
import type { RiskLimits } from '../../../shared/settings-schema';
import { formatCents, formatDollars, formatSize, parseAmount, parsePrice, parseSize } from '../../../shared/protocol';

export interface ParsedLimits {
  /** Price units (10^6 = $1). */
  band: bigint;
  /** Amount units (10^6 = $1). */
  maxOrderCost: bigint;
  /** Size units (10^6 = one contract). */
  maxPosition: bigint;
  maxOpenOrders: number;
  maxOrdersPerMinute: number;
  /** Basis points of the day's starting equity (10% = 1000): the limit when no fixed amount is set. */
  dailyLossBps: bigint;
  /** Amount units (10^6 = $1): the daily loss limit in place of the percentage; null when none is set. */
  dailyLossFixed: bigint | null;
}

export function parseLimits(l: RiskLimits): ParsedLimits {
  return {
    band: parsePrice(l.priceBandCents),
    maxOrderCost: parseAmount(l.maxOrderCost),
    maxPosition: parseSize(l.maxPositionContracts),
    maxOpenOrders: l.maxOpenOrders,
    maxOrdersPerMinute: l.maxOrdersPerMinute,
    dailyLossBps: BigInt(Math.round(l.dailyLossPercent * 100)),
    dailyLossFixed: l.dailyLossAmount === '' ? null : parseAmount(l.dailyLossAmount),
  };
}

type LimitKey = keyof RiskLimits;

/**
 * A fixed daily loss amount is looser when one is set where the percentage applied (the person swaps
 * a budget that moves with equity for a number: main's dialog asks, whatever the two come to today),
 * when it grows, and when it is cleared (the percentage applies again); stricter only when it shrinks.
 */
function fixedLooser(from: bigint | null, to: bigint | null): boolean {
  if (from === to) return false;
  if (from === null || to === null) return true;
  return to > from;
}

/** Every limit is "at most": a larger number is looser. */
const LOOSER: Readonly<Record<LimitKey, (from: ParsedLimits, to: ParsedLimits) => boolean>> = {
  priceBandCents: (a, b) => b.band > a.band,
  maxOrderCost: (a, b) => b.maxOrderCost > a.maxOrderCost,
  maxPositionContracts: (a, b) => b.maxPosition > a.maxPosition,
  maxOpenOrders: (a, b) => b.maxOpenOrders > a.maxOpenOrders,
  maxOrdersPerMinute: (a, b) => b.maxOrdersPerMinute > a.maxOrdersPerMinute,
  dailyLossPercent: (a, b) => b.dailyLossBps > a.dailyLossBps,
  dailyLossAmount: (a, b) => fixedLooser(a.dailyLossFixed, b.dailyLossFixed),
};

/** Our words for each limit, for dialogs and refusals. */
export const LIMIT_NAMES: Readonly<Record<LimitKey, string>> = {
  priceBandCents: 'Price band around fair value',
  maxOrderCost: 'Largest order cost',
  maxPositionContracts: 'Largest position per market',
  maxOpenOrders: 'Most open orders',
  maxOrdersPerMinute: 'Most orders a minute',
  dailyLossPercent: 'Daily loss limit',
  dailyLossAmount: 'Daily loss limit (fixed amount)',
};

export function limitText(key: LimitKey, l: RiskLimits): string {
  const p = parseLimits(l);
  switch (key) {
    case 'priceBandCents':
      return `${formatCents(p.band)} either side of fair value`;
    case 'maxOrderCost':
      return formatDollars(p.maxOrderCost);
    case 'maxPositionContracts':
      return `${formatSize(p.maxPosition)} contracts`;
    case 'maxOpenOrders':
      return `${l.maxOpenOrders} orders`;
    case 'maxOrdersPerMinute':
      return `${l.maxOrdersPerMinute} a minute`;
    case 'dailyLossPercent':
      return `${l.dailyLossPercent}% of the day's starting equity (when no fixed amount is set)`;
    case 'dailyLossAmount':
      return p.dailyLossFixed === null ? 'none: the percentage applies' : `${formatDollars(p.dailyLossFixed)} a day`;
  }
}

/** The limits a change makes looser, in table order; empty when it only tightens or keeps them. */
export function loosened(from: RiskLimits, to: RiskLimits): LimitKey[] {
  const a = parseLimits(from);
  const b = parseLimits(to);
  return (Object.keys(LOOSER) as LimitKey[]).filter((k) => LOOSER[k](a, b));
}
