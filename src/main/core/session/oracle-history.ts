/**
 * Recent oracle prices per symbol, for the chart and the fair value's volatility: a fixed-size ring
 * so memory stays flat.
 */
import type { OracleTick } from '../../../shared/bridge';

/**
 * Ticks kept per symbol: the fair value's 5-minute volatility window (docs/fair-value.md) at the
 * devnet's two prices a second is 600 ticks; a minute more to spare. A faster oracle fills the ring
 * sooner and the estimate then uses its last 720 ticks, still far more than it needs.
 */
export const ORACLE_HISTORY_TICKS = 720;

export class OracleHistory {
  readonly #rings = new Map<string, { ticks: OracleTick[]; next: number }>();
  constructor(private readonly capacity = ORACLE_HISTORY_TICKS) {}

  push(tick: OracleTick): void {
    let ring = this.#rings.get(tick.symbolId);
    if (!ring) this.#rings.set(tick.symbolId, (ring = { ticks: [], next: 0 }));
    if (ring.ticks.length < this.capacity) ring.ticks.push(tick);
    else ring.ticks[ring.next] = tick;
    ring.next = (ring.next + 1) % this.capacity;
  }

  /** Oldest first. */
  list(symbolId: string): OracleTick[] {
    const ring = this.#rings.get(symbolId);
    if (!ring) return [];
    return ring.ticks.length < this.capacity
      ? [...ring.ticks]
      : [...ring.ticks.slice(ring.next), ...ring.ticks.slice(0, ring.next)];
  }

  /** The newest tick, without copying the ring (asked per market on every market-list update). */
  latest(symbolId: string): OracleTick | null {
    const ring = this.#rings.get(symbolId);
    if (!ring || ring.ticks.length === 0) return null;
    return ring.ticks[(ring.next - 1 + ring.ticks.length) % ring.ticks.length] ?? null;
  }
}
