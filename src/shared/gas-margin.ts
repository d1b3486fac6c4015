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

/** A contract method as ethers gives it (`contract.getFunction(name)`), seen structurally. */
export interface GasEstimatingMethod<R> {
  estimateGas(...args: unknown[]): Promise<bigint>;
  send(...args: unknown[]): Promise<R>;
}

/** Estimates `method(...args)`, then sends it with gasWithMargin of that estimate as the limit. */
export async function sendWithGasMargin<R>(method: GasEstimatingMethod<R>, ...args: unknown[]): Promise<R> {
  const gasLimit = gasWithMargin(await method.estimateGas(...args));
  return method.send(...args, { gasLimit });
}
