/**
 * The vault as the exchange client's ActionSigner: digests go in, signatures come out, keys stay in
 * the vault. It signs only a digest it has just reviewed with its struct and domain (recomputed
 * here, so the digest is what the struct says), and a FillOrder only with a clearance from the
 * order gate (risk/clearances.ts): no path in main can sign an order the gate did not pass. The
 * domain also says the world (practice or real) whose keys alone may sign it (vault.signDigest).
 */
import { hashAction, toChecksumAddress, type Address, type Hex, type PrimaryType } from '../../../shared/protocol';
import type { ActionSigner, SignRequestInfo } from '../../../client';
import type { Vault } from '../../vault';
import { BridgeFailure } from '../bridge-runtime';
import type { Clearances } from '../risk/clearances';
import { signingWorldOf } from '../practice/practice-domain';
import type { SigningWorld } from '../../vault';

/** The struct types that carry an order (a cancel-replace signs its replacement as a FillOrder first). */
const ORDER_TYPES: ReadonlySet<PrimaryType> = new Set<PrimaryType>(['FillOrder']);

function unreviewed(): BridgeFailure {
  return new BridgeFailure(
    'signing.unreviewed',
    'Not signed: the app signs only what it has read in full first, and this was not.',
  );
}

export function vaultSigner(
  vault: Pick<Vault, 'signDigest'>,
  address: string,
  clearances: Pick<Clearances, 'take'>,
): ActionSigner {
  const checksummed: Address = toChecksumAddress(address);
  // Each reviewed digest with the world of its domain: the vault signs it only with a key of that world.
  const reviewed = new Map<string, SigningWorld>();
  return {
    address: checksummed,
    review: (info: SignRequestInfo) => {
      let digest: string;
      try {
        digest = hashAction(info.primaryType, info.action as never, info.domain).toLowerCase();
      } catch {
        throw unreviewed();
      }
      if (digest !== info.digest.toLowerCase()) throw unreviewed();
      if (ORDER_TYPES.has(info.primaryType)) {
        const a = info.action;
        clearances.take({
          signer: String(a['signer']),
          sender: String(a['sender']),
          assetId: a['assetId'] as bigint,
          epoch: a['epoch'] as bigint,
          sell: a['side'] === true,
          price: a['price'] as bigint,
          size: a['size'] as bigint,
        });
      }
      reviewed.set(digest, signingWorldOf(info.domain));
    },
    signDigest: (digest: Hex) => {
      // One signature per review: a digest never read with its struct is never signed.
      const world = reviewed.get(digest.toLowerCase());
      if (world === undefined) return Promise.reject(unreviewed());
      reviewed.delete(digest.toLowerCase());
      return vault.signDigest(checksummed, digest, world);
    },
  };
}
