/**
 * Equity at fair value: what the daily loss limit measures (docs/risk-guards.md#daily-loss-limit).
 * Free and locked balance count in full; each open position at the fair value of its market (a long
 * is worth contracts × fair, a short contracts × (1 − fair)); a position whose market has no fair
 * value right now counts at what it cost (no gain, no loss), and one whose epoch has ended at what
 * its resolution pays (every contract of the winning side $1, the losing side nothing) once that
 * is known, at what it cost until then.
 */
import { PROTOCOL_SCALE } from '../../../shared/protocol';

export interface HeldPosition {
  assetId: bigint;
  epoch: bigint;
  /** Signed contracts (size units): positive long Up, negative short. */
  inventory: bigint;
  /** Collateral held for it (its cost basis). */
  margin: bigint;
}

export interface EquityInputs {
  available: bigint;
  locked: bigint;
  positions: Iterable<HeldPosition>;
  /** The fair price of a live market's epoch, or null when there is none now. */
  fair(assetId: bigint, epoch: bigint): bigint | null;
  /** For an epoch that has ended: its settled price (10^6 if Up won, else 0), null while not known. Null for a live epoch. */
  ended(assetId: bigint, epoch: bigint): { resolvedFair: bigint | null } | null;
}

/** One position's value at fair `f` (null: at its cost). */
export function positionValue(p: HeldPosition, f: bigint | null): bigint {
  const margin = p.margin < 0n ? -p.margin : p.margin;
  if (f === null || p.inventory === 0n) return margin;
  const short = p.inventory < 0n;
  const contracts = short ? -p.inventory : p.inventory;
  return (contracts * (short ? PROTOCOL_SCALE - f : f)) / PROTOCOL_SCALE;
}

export function equityAtFair(i: EquityInputs): bigint {
  let total = i.available + i.locked;
  for (const p of i.positions) {
    const ended = i.ended(p.assetId, p.epoch);
    if (ended) total += positionValue(p, ended.resolvedFair);
    else total += positionValue(p, i.fair(p.assetId, p.epoch));
  }
  return total;
}
