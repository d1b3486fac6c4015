import { Contract, Interface, type ContractRunner } from 'ethers';
import { ARTIFACTS } from './artifacts';
import type { ContractName } from './artifacts-schema';
import { CONTRACT_NAMES } from './artifacts-schema';
import { findRevertData } from '../../shared/revert-data';

/** ethers Contract bound to a devnet contract's committed ABI. */
export function devnetContract(name: ContractName, address: string, runner: ContractRunner): Contract {
  return new Contract(address, ARTIFACTS.contracts[name].abi, runner);
}

export function devnetInterface(name: ContractName): Interface {
  return new Interface(ARTIFACTS.contracts[name].abi);
}

/** Every custom error of every devnet contract, for decoding revert data. */
const ALL_ERRORS = new Interface(
  CONTRACT_NAMES.flatMap((n) => ARTIFACTS.contracts[n].abi.filter((f) => f.type === 'error')),
);

/** Name and arguments of a devnet custom error found in `err`, if any. */
export function decodeDevnetRevert(err: unknown): { name: string; args: readonly unknown[] } | undefined {
  const data = findRevertData(err);
  if (data === undefined) return undefined;
  const parsed = ALL_ERRORS.parseError(data);
  return parsed ? { name: parsed.name, args: [...parsed.args] } : undefined;
}
