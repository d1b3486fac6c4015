/**
 * The fair value of one up/down market now: N(d2) from the oracle's newest price, the strike, the
 * time left by the exchange's clock and σ estimated from the oracle's own ticks (docs/fair-value.md).
 * When it cannot be had, it says why in a sentence a trader can act on.
 */
import { fairPrice } from './fair-value';
import {
  estimateVolatility,
  VOLATILITY_DEFAULTS,
  type PriceTick,
  type VolatilityEstimate,
  type VolatilityOptions,
} from './volatility';

export type FairValue =
  | {
      known: true;
      /** Micro-dollars 0..1,000,000: the N(d2) value, not snapped to the tick. */
      price: bigint;
      /** Annualised σ used (after the floor and cap). */
      sigma: number;
      /** Which bound σ was moved to, if any. */
      sigmaClamped: 'floor' | 'cap' | null;
      /** Oracle ticks σ was estimated from. */
      samples: number;
      /** The oracle's newest price (oracle scale), and the strike on the same scale. */
      spot: bigint;
      strike: bigint;
      /** Seconds to expiry by the exchange's clock. */
      secondsLeft: number;
      /** Oracle time of `spot`, ms. */
      at: number;
    }
  | { known: false; reason: string };

export interface FairValueInput {
  /** The symbol's oracle ticks, oldest first; the newest is the spot. */
  ticks: readonly PriceTick[];
  strike: bigint;
  /** When the epoch ends, unix ms. */
  expiryMs: number;
  /** Exchange time now, unix ms. */
  nowMs: number;
  /** The newest tick older than this means no fair value (default 10 s). */
  staleAfterMs?: number;
  /** The underlying as people name it, for the sentences ("BTC"). */
  symbol?: string;
  /** The estimator's window, floor, cap and minimum data (volatility.ts). */
  volatility?: Omit<VolatilityOptions, 'nowMs' | 'staleAfterMs'>;
}

export function fairValueOf(input: FairValueInput): FairValue {
  const spot = input.ticks.at(-1);
  return fairValueFrom({
    ...input,
    spot: spot ?? null,
    volatility: estimateVolatility(input.ticks, input.volatility),
    needs: input.volatility,
  });
}

export interface FairValueParts extends Omit<FairValueInput, 'ticks' | 'volatility'> {
  /** The oracle's newest tick, or null before the first. */
  spot: PriceTick | null;
  /** σ from `estimateVolatility` over the ticks up to `spot` (given without `nowMs`: staleness is judged here). */
  volatility: VolatilityEstimate;
  /** The minimums the estimate was made with, for the sentences (defaults otherwise). */
  needs?: Pick<VolatilityOptions, 'minTicks' | 'minSpanMs'> | undefined;
}

/**
 * The same from a volatility estimated beforehand: the estimate changes only when a tick arrives,
 * so a caller asked often (main's order gate, the market list) keeps it per symbol and pays here
 * only for the staleness check and one N(d2).
 */
export function fairValueFrom(input: FairValueParts): FairValue {
  const name = input.symbol ?? 'this market';
  const unknown = (reason: string): FairValue => ({ known: false, reason });
  const { spot, volatility: vol } = input;
  if (spot === null) return unknown(`No fair value yet: no oracle price for ${name} has arrived.`);
  if (input.strike <= 0n) return unknown(`No fair value: the exchange has not set this epoch's strike yet.`);
  const secondsLeft = (input.expiryMs - input.nowMs) / 1000;
  if (secondsLeft <= 0) return unknown(`No fair value: this epoch has ended, and its resolution price decides it.`);
  const staleAfterMs = input.staleAfterMs ?? VOLATILITY_DEFAULTS.staleAfterMs;
  const ageMs = input.nowMs - spot.at;
  // An estimate made with a clock may say stale too: either way, the sentence gives the older age.
  const estimateAge = vol.sigma === null && vol.reason === 'stale' ? (vol.ageMs ?? 0) : null;
  if (ageMs > staleAfterMs || estimateAge !== null) {
    const age = Math.max(ageMs, estimateAge ?? 0);
    return unknown(
      `No fair value: the last oracle price for ${name} is ${seconds(age)} old, over ${seconds(staleAfterMs)}.`,
    );
  }
  if (vol.sigma === null) {
    const needTicks = input.needs?.minTicks ?? VOLATILITY_DEFAULTS.minTicks;
    const needSpan = input.needs?.minSpanMs ?? VOLATILITY_DEFAULTS.minSpanMs;
    return vol.reason === 'too_few_ticks'
      ? unknown(
          `No fair value yet: the oracle has sent ${vol.samples} ${vol.samples === 1 ? 'price' : 'prices'} for ${name}, ${needTicks} are needed.`,
        )
      : unknown(
          `No fair value yet: the oracle's prices for ${name} span ${seconds(vol.spanMs)}, ${seconds(needSpan)} are needed.`,
        );
  }
  if (spot.price <= 0n) return unknown(`No fair value: the oracle's last price for ${name} is not positive.`);
  return {
    known: true,
    price: fairPrice({ spot: spot.price, strike: input.strike, secondsToExpiry: secondsLeft, sigma: vol.sigma }),
    sigma: vol.sigma,
    sigmaClamped: vol.clamped,
    samples: vol.samples,
    spot: spot.price,
    strike: input.strike,
    secondsLeft,
    at: spot.at,
  };
}

/** 42_400 → "42 s"; whole seconds, as the oracle stamps them. */
function seconds(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}
