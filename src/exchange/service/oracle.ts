// Oracle prices for the service: one seeded PriceProcess per symbol (src/exchange/oracle), with
// random access in time. A PriceProcess only moves forward, so a query earlier than the last one
// restarts that symbol's path from its origin (rare: the scheduler queries in time order).
import { PriceProcess } from '../oracle/price-process';
import type { OracleSymbol } from '../markets';

export interface OracleConfig {
  seed: number;
  stepMs: number;
  /** Unix ms of step 0 (from the journal's genesis, so paths survive restarts). */
  originMs: number;
}

/** How a test moves the live feed (devnet only): an offset on the path's price, or no prices at all. */
export interface OracleSteer {
  offset?: bigint;
  silent?: boolean;
}

export class OraclePriceLog {
  private readonly paths = new Map<bigint, { process: PriceProcess; lastMs: number }>();
  private readonly steers = new Map<bigint, Required<OracleSteer>>();

  constructor(
    private readonly symbols: ReadonlyMap<bigint, OracleSymbol>,
    private readonly config: OracleConfig,
  ) {}

  has(symbolId: bigint): boolean {
    return this.symbols.has(symbolId);
  }

  /**
   * Tests only (never over HTTP): moves this log's prices by an offset, or silences the symbol (a
   * stale spell). Set on the live feed's log only; resolutions read their own, unsteered path.
   */
  steer(symbolId: bigint, steer: OracleSteer): void {
    const now = this.steers.get(symbolId) ?? { offset: 0n, silent: false };
    this.steers.set(symbolId, { offset: steer.offset ?? now.offset, silent: steer.silent ?? now.silent });
  }

  silent(symbolId: bigint): boolean {
    return this.steers.get(symbolId)?.silent ?? false;
  }

  /** Oracle price (USD × 10^6) in force at `timeMs`. */
  priceAt(symbolId: bigint, timeMs: number): bigint {
    let p = this.paths.get(symbolId);
    if (p === undefined || timeMs < p.lastMs) {
      const s = this.symbols.get(symbolId);
      if (s === undefined) throw new RangeError(`Unknown oracle symbol ${symbolId}.`);
      p = {
        process: new PriceProcess({
          symbolId,
          initialPrice: s.initialPrice,
          volatility: s.volatility,
          stepMs: this.config.stepMs,
          originMs: this.config.originMs,
          seed: this.config.seed,
        }),
        lastMs: timeMs,
      };
      this.paths.set(symbolId, p);
    }
    p.lastMs = timeMs;
    const price = p.process.priceAt(timeMs) + (this.steers.get(symbolId)?.offset ?? 0n);
    return price > 10_000n ? price : 10_000n;
  }
}
