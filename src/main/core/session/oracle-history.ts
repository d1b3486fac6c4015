/**
 * Recent oracle prices per symbol, for the chart and the fair value's volatility: a fixed-size ring
 * so memory stays flat.
 */
import type { PriceTick } from '../../../client';
import type { OracleTick } from '../../../shared/bridge';

/**
 * Ticks kept per symbol: the fair value's 5-minute volatility window (docs/fair-value.md) at the
 * devnet's two prices a second is 600 ticks; a minute more to spare. A faster oracle fills the ring
 * sooner and the estimate then uses its last 720 ticks, still far more than it needs.
 */
export const ORACLE_HISTORY_TICKS = 720;

/** A kept tick: as the bridge sends it, and its price as a number for the volatility estimate. */
interface Kept {
  readonly tick: OracleTick;
  readonly price: PriceTick;
}

export class OracleHistory {
  readonly #rings = new Map<string, { kept: Kept[]; next: number }>();
  constructor(private readonly capacity = ORACLE_HISTORY_TICKS) {}

  /** `price` is the tick's price as the feed parsed it (parsing 720 decimal strings again per estimate costs ~0.1 ms). */
  push(tick: OracleTick, price: bigint = BigInt(tick.price)): void {
    let ring = this.#rings.get(tick.symbolId);
    if (!ring) this.#rings.set(tick.symbolId, (ring = { kept: [], next: 0 }));
    const entry = { tick, price: { price, at: tick.at } };
    if (ring.kept.length < this.capacity) ring.kept.push(entry);
    else ring.kept[ring.next] = entry;
    ring.next = (ring.next + 1) % this.capacity;
  }

  /** Oldest first. */
  list(symbolId: string): OracleTick[] {
    return this.#ordered(symbolId).map((k) => k.tick);
  }

  /** The same ticks as prices and times, oldest first, for `estimateVolatility`. */
  prices(symbolId: string): PriceTick[] {
    return this.#ordered(symbolId).map((k) => k.price);
  }

  /** The newest tick, without copying the ring (asked per market on every market-list update). */
  latest(symbolId: string): OracleTick | null {
    return this.#newest(symbolId)?.tick ?? null;
  }

  /** The newest price and time, without copying the ring (asked with every fair value). */
  latestPrice(symbolId: string): PriceTick | null {
    return this.#newest(symbolId)?.price ?? null;
  }

  #newest(symbolId: string): Kept | undefined {
    const ring = this.#rings.get(symbolId);
    if (!ring || ring.kept.length === 0) return undefined;
    return ring.kept[(ring.next - 1 + ring.kept.length) % ring.kept.length];
  }

  #ordered(symbolId: string): Kept[] {
    const ring = this.#rings.get(symbolId);
    if (!ring) return [];
    return ring.kept.length < this.capacity
      ? ring.kept
      : [...ring.kept.slice(ring.next), ...ring.kept.slice(0, ring.next)];
  }
}
