/**
 * Seeded, deterministic oracle price paths for the devnet.
 *
 * Each symbol follows a geometric Brownian motion sampled on a fixed step grid. The path is a
 * pure function of (seed, symbolId, step index), so a restarted devnet reproduces the same
 * prices and tests can predict them. Floats exist only inside the random walk; every price
 * that leaves this module is an exact integer on the oracle scale (USD × 10^6).
 */
import { seededRandom } from '../prng';

export interface PriceProcessConfig {
  /** Base asset id, also the oracle symbolId. */
  symbolId: bigint;
  /** Price at step 0, oracle scale (USD × 10^6). */
  initialPrice: bigint;
  /** Annualised volatility, e.g. 0.6 for 60 %. */
  volatility: number;
  /** Grid step in milliseconds. */
  stepMs: number;
  /** Unix ms of step 0. */
  originMs: number;
  /** Seed shared by the whole devnet. */
  seed: number;
}

const MS_PER_YEAR = 365 * 24 * 3600 * 1000;
/** Prices never fall below one cent, so a path can never reach zero or go negative. */
const FLOOR = 10_000n;

function mixSeed(seed: number, symbolId: bigint): number {
  // Fold the 64-bit symbol id into the 32-bit seed so each symbol gets its own stream.
  const lo = Number(symbolId & 0xffffffffn);
  const hi = Number((symbolId >> 32n) & 0xffffffffn);
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(lo, 0xc2b2ae35) ^ hi) >>> 0;
}

export class PriceProcess {
  readonly config: PriceProcessConfig;
  private readonly random: () => number;
  private readonly stepSigma: number;
  private logPrice: number;
  private step = 0;
  private current: bigint;

  constructor(config: PriceProcessConfig) {
    if (config.initialPrice <= 0n) throw new RangeError('initialPrice must be positive');
    if (!(config.stepMs > 0)) throw new RangeError('stepMs must be positive');
    if (!(config.volatility >= 0)) throw new RangeError('volatility must be non-negative');
    this.config = config;
    this.random = seededRandom(mixSeed(config.seed, config.symbolId));
    this.stepSigma = config.volatility * Math.sqrt(config.stepMs / MS_PER_YEAR);
    this.logPrice = Math.log(Number(config.initialPrice));
    this.current = config.initialPrice;
  }

  /** Index of the grid step that contains `timeMs` (never before step 0). */
  stepAt(timeMs: number): number {
    return Math.max(0, Math.floor((timeMs - this.config.originMs) / this.config.stepMs));
  }

  /** Price in force at `timeMs`. Time only moves forward: earlier times return the latest price. */
  priceAt(timeMs: number): bigint {
    const target = this.stepAt(timeMs);
    while (this.step < target) this.advance();
    return this.current;
  }

  get lastStep(): number {
    return this.step;
  }

  private advance(): void {
    // Box–Muller for one standard normal; drift −σ²/2 keeps the expected price constant.
    const u1 = Math.max(this.random(), Number.EPSILON);
    const u2 = this.random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    this.logPrice += -0.5 * this.stepSigma * this.stepSigma + this.stepSigma * z;
    this.step += 1;
    const next = BigInt(Math.round(Math.exp(this.logPrice)));
    this.current = next < FLOOR ? FLOOR : next;
  }
}
