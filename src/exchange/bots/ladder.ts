/**
 * The two-sided quote ladder around a fair price. Pure: prices and sizes are protocol bigints,
 * snapped to the tick (1000) and lot (10,000) and clamped to 1000..999000.
 */

export const TICK = 1_000n;
export const LOT = 10_000n;
export const MIN_PRICE = 1_000n;
export const MAX_PRICE = 999_000n;

export interface LadderConfig {
  /** Levels per side. */
  levels: number;
  /** Ticks from fair to the first level on each side (≥ 1). */
  halfSpreadTicks: number;
  /** Ticks between consecutive levels. */
  stepTicks: number;
  /** Size of the first level, in lots. */
  baseLots: bigint;
  /** Extra lots added per level further out. */
  lotsPerLevel: bigint;
}

export interface Quote {
  /** false = BUY (bid), true = SELL (ask): the protocol's `side`. */
  side: boolean;
  /** 0 = closest to fair. */
  level: number;
  price: bigint;
  size: bigint;
}

const clamp = (p: bigint): bigint => (p < MIN_PRICE ? MIN_PRICE : p > MAX_PRICE ? MAX_PRICE : p);
const floorTick = (p: bigint): bigint => (p / TICK) * TICK;
const ceilTick = (p: bigint): bigint => ((p + TICK - 1n) / TICK) * TICK;

/**
 * Bids below fair and asks above it. Levels that collapse onto a clamped edge are dropped, so
 * no price is quoted twice on a side and a bid never meets an ask.
 */
export function buildLadder(fair: bigint, cfg: LadderConfig): Quote[] {
  if (cfg.halfSpreadTicks < 1 || cfg.stepTicks < 1 || cfg.levels < 1)
    throw new RangeError('ladder needs ≥ 1 level, spread and step');
  const quotes: Quote[] = [];
  for (const side of [false, true]) {
    const seen = new Set<bigint>();
    for (let level = 0; level < cfg.levels; level++) {
      const offset = BigInt(cfg.halfSpreadTicks + level * cfg.stepTicks) * TICK;
      const raw = side ? ceilTick(fair + offset) : floorTick(fair - offset);
      const price = clamp(raw);
      // A level pushed past the edge would sit on the edge price: quote it once at most.
      if (seen.has(price) || (raw !== price && seen.size > 0)) continue;
      seen.add(price);
      quotes.push({ side, level, price, size: (cfg.baseLots + cfg.lotsPerLevel * BigInt(level)) * LOT });
    }
  }
  const bestAsk = quotes.filter((q) => q.side).reduce((m, q) => (q.price < m ? q.price : m), MAX_PRICE + 1n);
  return quotes.filter((q) => q.side || q.price < bestAsk);
}

/** Drop quotes an ALO order would cross with: bids at/above the best ask, asks at/below the best bid. */
export function dropCrossing(quotes: Quote[], top: { bestBid?: bigint; bestAsk?: bigint }): Quote[] {
  return quotes.filter((q) =>
    q.side ? top.bestBid === undefined || q.price > top.bestBid : top.bestAsk === undefined || q.price < top.bestAsk,
  );
}

/** True when fair moved by more than `ticks` ticks (default one) since the ladder was last quoted. */
export function fairMoved(previous: bigint | undefined, next: bigint, ticks = 1): boolean {
  if (previous === undefined) return true;
  const d = next - previous;
  const band = BigInt(ticks) * TICK;
  return d > band || d < -band;
}
