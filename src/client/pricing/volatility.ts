/**
 * Annualised volatility of an underlying, estimated from the oracle's own ticks (docs/fair-value.md).
 *
 * Estimator: realised variance over a trailing window, pooled over time. For the ticks inside the
 * window, σ² = Σ ln(pᵢ/pᵢ₋₁)² / (t_last − t_first), in years. Pooled rather than averaged per return
 * (mean of rᵢ²/Δtᵢ) because oracle timestamps may be whole seconds (the devnet's are): two ticks in
 * one second have Δt = 0, and a per-return ratio would divide by it, while the pooled sum only needs
 * the window's two end stamps. A repeated price adds a zero return and its time, which is right: the
 * variance of the move shows up in the next return that carries it. No drift is removed (at minutes
 * it is orders of magnitude below the noise), so the estimate is the root of the mean square.
 *
 * Defaults (VOLATILITY_DEFAULTS, reasons in the doc): a 5-minute window ending at the newest tick;
 * no estimate under 60 ticks (`too_few_ticks`) or under 30 s of them (`too_short`); σ floored at 10 %
 * and capped at 500 % a year (`clamped` says which); given a clock, a newest tick over 10 s old gives
 * no estimate (`stale`). Relative standard error ≈ 1/√(2n) for n returns.
 *
 * Floats live only here and in fair-value.ts; nothing computed from them is ever signed.
 */

/** One oracle observation: a price on the oracle scale and the oracle's time of it (unix ms). */
export interface PriceTick {
  readonly price: bigint;
  readonly at: number;
}

export interface VolatilityOptions {
  /** Only ticks this recent count: the window ends at the newest tick (default 5 min). */
  windowMs?: number;
  /** Fewer ticks in the window than this and there is no estimate (default 60). */
  minTicks?: number;
  /** A window spanning less time than this has no estimate either (default 30 s). */
  minSpanMs?: number;
  /** Lowest σ returned (default 0.10): a flat or stuck feed must not make N(d2) a step. */
  floor?: number;
  /** Highest σ returned (default 5.00): bounds what one bad print does for a window's length. */
  cap?: number;
  /** Exchange time now (ms). With it, a newest tick older than `staleAfterMs` gives no estimate. */
  nowMs?: number;
  /** Default 10 s. */
  staleAfterMs?: number;
}

export const VOLATILITY_DEFAULTS = {
  windowMs: 5 * 60_000,
  minTicks: 60,
  minSpanMs: 30_000,
  floor: 0.1,
  cap: 5,
  staleAfterMs: 10_000,
} as const satisfies Required<Omit<VolatilityOptions, 'nowMs'>>;

export type VolatilityEstimate =
  | {
      /** Annualised σ after the floor and cap (0.6 = 60 %). */
      sigma: number;
      /** σ as measured, before the floor and cap. */
      raw: number;
      /** Ticks in the window. */
      samples: number;
      /** Time the window's ticks span, ms. */
      spanMs: number;
      /** Which bound σ was moved to, if any. */
      clamped: 'floor' | 'cap' | null;
    }
  | {
      sigma: null;
      /** too_few_ticks: under `minTicks`; too_short: under `minSpanMs`; stale: the newest tick is too old. */
      reason: 'too_few_ticks' | 'too_short' | 'stale';
      samples: number;
      spanMs: number;
      /** For `stale`: the newest tick's age, ms. */
      ageMs?: number;
    };

const MS_PER_YEAR = 365 * 24 * 3600 * 1000;

/** Estimates σ from `ticks` (oldest first; out-of-order stamps count as no time passing). */
export function estimateVolatility(ticks: readonly PriceTick[], options: VolatilityOptions = {}): VolatilityEstimate {
  const o = { ...VOLATILITY_DEFAULTS, ...options };
  const newest = ticks.at(-1);
  if (newest !== undefined && o.nowMs !== undefined && o.nowMs - newest.at > o.staleAfterMs) {
    return { sigma: null, reason: 'stale', samples: 0, spanMs: 0, ageMs: o.nowMs - newest.at };
  }
  // Walk back from the newest tick to the window's start; only positive prices have a logarithm.
  const from = newest === undefined ? 0 : newest.at - o.windowMs;
  let first = ticks.length;
  while (first > 0 && ticks[first - 1]!.at >= from) first--;
  let samples = 0;
  let sumSquares = 0;
  let previous: number | null = null;
  let startAt = 0;
  let endAt = 0;
  for (let i = first; i < ticks.length; i++) {
    const t = ticks[i]!;
    if (t.price <= 0n) continue;
    const log = Math.log(Number(t.price));
    if (previous === null) startAt = t.at;
    else sumSquares += (log - previous) ** 2;
    previous = log;
    endAt = Math.max(endAt, t.at);
    samples++;
  }
  const spanMs = samples === 0 ? 0 : endAt - startAt;
  if (samples < o.minTicks) return { sigma: null, reason: 'too_few_ticks', samples, spanMs };
  if (spanMs < o.minSpanMs) return { sigma: null, reason: 'too_short', samples, spanMs };
  const raw = Math.sqrt(sumSquares / (spanMs / MS_PER_YEAR));
  if (raw < o.floor) return { sigma: o.floor, raw, samples, spanMs, clamped: 'floor' };
  if (raw > o.cap) return { sigma: o.cap, raw, samples, spanMs, clamped: 'cap' };
  return { sigma: raw, raw, samples, spanMs, clamped: null };
}
