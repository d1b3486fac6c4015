/**
 * The position figures the account view shows, from the exchange's signed position: average entry
 * price from the cost basis, mark from the live top of book, unrealised P&L as the value at the mark
 * minus the cost basis (exact: no rounded average in between).
 */
import { PROTOCOL_SCALE } from '../../../shared/protocol';

/**
 * Average entry price from the collateral: a long Up holds size × p, a short size × (1 − p).
 * Exact for a single fill, the collateral-weighted mean for several (rounded down to a unit).
 */
export function averagePrice(contracts: bigint, margin: bigint, short: boolean): bigint | null {
  if (contracts <= 0n) return null;
  const perContract = (margin * PROTOCOL_SCALE) / contracts;
  return short ? PROTOCOL_SCALE - perContract : perContract;
}

/**
 * What closing at `mark` would realise: a long is worth contracts × mark, a short contracts × (1 − mark),
 * less the cost basis. Contracts come in lots of 10^4 units and prices in ticks of 10^3, so the value is
 * a whole number of units.
 */
export function unrealisedPnl(contracts: bigint, margin: bigint, mark: bigint, short: boolean): bigint {
  const value = (contracts * (short ? PROTOCOL_SCALE - mark : mark)) / PROTOCOL_SCALE;
  return value - margin;
}

/**
 * Mark = the mid of the best bid and ask. When a side is missing (quotes pulled before expiry) there
 * is no mark ("no quotes"): a stale last trade or a made-up 50¢ would misstate the position.
 */
export function markPrice(bestBid: bigint | null, bestAsk: bigint | null): bigint | null {
  return bestBid !== null && bestAsk !== null ? (bestBid + bestAsk) / 2n : null;
}
