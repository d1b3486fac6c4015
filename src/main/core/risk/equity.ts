/**
 * Equity at fair value: what the daily loss limit measures (docs/risk-guards.md#the-invariant).
 * Free and locked balance count in full; each open position at the fair value of its market (a long
 * is worth contracts × fair, a short contracts × (1 − fair)), and one whose epoch has ended at what
 * its resolution pays (every contract of the winning side $1, the losing side nothing) once that is
 * known. A position with no price to value it by (no fair value yet, an unlisted market, the oracle
 * stale, a resolution not known yet) counts at the worst it can pay: a long is worth nothing, and a
 * short owes $1 a contract, exactly what its collateral covers, so it is worth nothing either. Never
 * at what it cost: that hid the loss of a position bought far from a fair value not yet known.
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

/** One position's value at fair `f` (null: no price, so the worst it can pay, which is nothing). */
export function positionValue(p: HeldPosition, f: bigint | null): bigint {
  if (p.inventory === 0n) return p.margin < 0n ? -p.margin : p.margin;
  if (f === null) return 0n;
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
