// The one check every carried signature passes before it is used: the protocol's form (v 27 or 28,
// low s: what every signer of it produces, so the body sent is the one the online builders send) and
// recovery to the expected signer. `what` names it in the sentence, e.g. "Signature 2".
import { SECP256K1_N, SigningError, recoverDigestSigner, type Address, type Hex } from '../../shared/protocol';
import { airgapError } from './errors';
import { sameAddress } from '../actions/inputs';

const HALF_N = SECP256K1_N >> 1n;

export function checkCarriedSignature(digest: Hex, signature: Hex, signer: Address, what: string): void {
  // r ‖ s ‖ v as 0x-hex: s is hex digits 66..130, v the last byte.
  const v = signature.slice(130).toLowerCase();
  if (v !== '1b' && v !== '1c') {
    throw airgapError(
      'AIRGAP_BAD_SIGNATURE',
      `${what} does not end in v = 27 or 28 as the protocol's signatures do; it is refused.`,
    );
  }
  if (BigInt(`0x${signature.slice(66, 130)}`) > HALF_N) {
    throw airgapError(
      'AIRGAP_HIGH_S',
      `${what} is not in the low-s form every signer of this protocol produces; it is refused.`,
    );
  }
  let recovered: Address;
  try {
    recovered = recoverDigestSigner(digest, signature);
  } catch (error) {
    if (error instanceof SigningError)
      throw airgapError('AIRGAP_BAD_SIGNATURE', `${what} is not a valid signature: ${error.message}`, error);
    throw error;
  }
  if (!sameAddress(recovered, signer)) {
    throw airgapError(
      'AIRGAP_WRONG_KEY',
      `${what} was made by ${recovered}, not by ${signer}: it was signed with another key and is refused.`,
    );
  }
}
