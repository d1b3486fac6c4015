/**
 * A gas limit with headroom over an `eth_estimateGas` answer.
 *
 * Why: ethers sends with the bare estimate as the limit. The estimate holds only for the state it
 * was made on; if another transaction lands first in the same block and turns a storage slot from
 * zero to non-zero (a deposit sweep beside a deposit, say), the same call needs ~17k more gas, runs
 * out and is mined as reverted, costing the user gas for nothing. A fifth more plus a fixed 25,000
 * covers such shifts; unused gas is not charged.
 */
export function gasWithMargin(estimate: bigint): bigint {
  if (estimate < 0n) throw new RangeError('A gas estimate cannot be negative.');
  return estimate + estimate / 5n + 25_000n;
}
