/** The vault as the exchange client's ActionSigner: digests go in, signatures come out, keys stay in the vault. */
import { toChecksumAddress, type Address, type Hex } from '../../../shared/protocol';
import type { ActionSigner } from '../../../client';
import type { Vault } from '../../vault';

export function vaultSigner(vault: Pick<Vault, 'signDigest'>, address: string): ActionSigner {
  const checksummed: Address = toChecksumAddress(address);
  return {
    address: checksummed,
    signDigest: (digest: Hex) => vault.signDigest(checksummed, digest),
  };
}
