/**
 * Fair value of an up/down binary: the Black–Scholes digital-call price N(d2) with zero rates.
 * Floats live only here and in the volatility estimate; the result leaves as a protocol price
 * (bigint, micro-dollars). Used by the terminal (market-fair-value.ts) and the devnet's bots alike.
 */

const SECONDS_PER_YEAR = 365 * 24 * 3600;
const SCALE = 1_000_000;

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 erf, |error| < 1.5e-7: far below one tick). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

export interface DigitalInput {
  /** Oracle price, oracle scale. */
  spot: bigint;
  /** Strike, same scale as spot. */
  strike: bigint;
  /** Seconds until expiry; ≤ 0 means the outcome is already known from spot. */
  secondsToExpiry: number;
  /** Annualised volatility, e.g. 0.6. */
  sigma: number;
}

/** Probability (0..1) that the market resolves Up (price ≥ strike at expiry). */
export function digitalProbability({ spot, strike, secondsToExpiry, sigma }: DigitalInput): number {
  if (spot <= 0n || strike <= 0n) throw new RangeError('spot and strike must be positive');
  const t = secondsToExpiry / SECONDS_PER_YEAR;
  const vol = sigma * Math.sqrt(Math.max(t, 0));
  if (!(vol > 0)) return spot >= strike ? 1 : 0;
  // ln(S/K) from the ratio of two bigints: exact enough for any realistic scale.
  const logMoneyness = Math.log(Number(spot) / Number(strike));
  const d2 = (logMoneyness - 0.5 * vol * vol) / vol;
  return normalCdf(d2);
}

/** N(d2) as a protocol price (0..1,000,000 micro-dollars, not yet snapped to a tick). */
export function fairPrice(input: DigitalInput): bigint {
  return BigInt(Math.round(digitalProbability(input) * SCALE));
}
