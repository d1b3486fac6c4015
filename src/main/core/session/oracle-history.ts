/** Recent oracle prices per symbol, for the chart: a fixed-size ring so memory stays flat. */
import type { OracleTick } from '../../../shared/bridge';

export class OracleHistory {
  readonly #rings = new Map<string, { ticks: OracleTick[]; next: number }>();
  constructor(private readonly capacity = 600) {}

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

  latest(symbolId: string): OracleTick | null {
    const ticks = this.list(symbolId);
    return ticks[ticks.length - 1] ?? null;
  }
}
