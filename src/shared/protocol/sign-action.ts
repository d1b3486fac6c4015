// Hash + sign + wrap: the few lines every caller (client, service tests, bots) would otherwise repeat.
import type { ExchangeDomain } from './domain';
import { hashActionBytes } from './hashing';
import { bytesToHex, type Hex } from './hex';
import { recoverDigestSigner } from './signing';
import type { ActionOf, CancelReplaceOrder, FillOrder, HashInputOf, PrimaryType } from './structs';
import {
  REQUEST_KINDS,
  type CancelReplaceSignedRequest,
  type SimpleRequestKind,
  type SimpleSignedRequest,
} from './wire';
import { STRUCTS } from './structs';

/** Anything that signs a 32-byte digest: a DigestSigner, or a vault-held key behind an interface. */
export interface DigestSigningKey {
  signBytes(digest: Uint8Array): Uint8Array;
}

export interface SignedDigest {
  orderHash: Hex;
  signature: Hex;
}

export function signAction<P extends PrimaryType>(
  primaryType: P,
  action: HashInputOf<P>,
  domain: ExchangeDomain,
  key: DigestSigningKey,
): SignedDigest {
  const digest = hashActionBytes(primaryType, action, domain);
  return { orderHash: bytesToHex(digest), signature: bytesToHex(key.signBytes(digest)) };
}

/** Sign an action and return the parsed-form request for `buildSignedRequest(kind, …)`. */
export function signRequest<K extends SimpleRequestKind>(
  kind: K,
  action: ActionOf<(typeof REQUEST_KINDS)[K]['primaryType']>,
  domain: ExchangeDomain,
  key: DigestSigningKey,
): SimpleSignedRequest<K> {
  const p = REQUEST_KINDS[kind].primaryType;
  const { orderHash, signature } = signAction(p, action as never, domain, key);
  return {
    [STRUCTS[p].jsonKey]: action,
    chainId: domain.chainId,
    orderHash,
    signature,
  } as unknown as SimpleSignedRequest<K>;
}

/**
 * Cancel-replace embedding (docs/protocol/signing.md#cancel-replace): hash and sign the replacement FillOrder, put its
 * digest into the CancelReplaceOrder, then hash and sign that.
 */
export function signCancelReplaceRequest(
  cancelReplace: Omit<CancelReplaceOrder, 'replacementOrderHash'>,
  replacement: FillOrder,
  domain: ExchangeDomain,
  key: DigestSigningKey,
): CancelReplaceSignedRequest {
  const rep = signAction('FillOrder', replacement, domain, key);
  const outer: CancelReplaceOrder = { ...cancelReplace, replacementOrderHash: rep.orderHash };
  const cr = signAction('CancelReplaceOrder', outer, domain, key);
  return {
    cancelReplace: outer,
    replacement,
    chainId: domain.chainId,
    orderHash: cr.orderHash,
    signature: cr.signature,
    replacementOrderHash: rep.orderHash,
    replacementSignature: rep.signature,
  };
}

export type SignatureCheck = 'ok' | 'hash_mismatch' | 'bad_signature' | 'signer_mismatch';

/**
 * The server-side check (docs/protocol/signing.md#server-side-check): recompute the digest, compare with `orderHash`,
 * recover the signer and compare (case-insensitively) with `expectedSigner` (normally the action's `signer`).
 */
export function checkSignedAction<P extends PrimaryType>(
  primaryType: P,
  action: HashInputOf<P>,
  domain: ExchangeDomain,
  orderHash: Hex,
  signature: Hex,
  expectedSigner: string,
): SignatureCheck {
  const digest = hashActionBytes(primaryType, action, domain);
  if (bytesToHex(digest) !== orderHash.toLowerCase()) return 'hash_mismatch';
  let recovered: string;
  try {
    recovered = recoverDigestSigner(digest, signature);
  } catch {
    return 'bad_signature';
  }
  return recovered.toLowerCase() === expectedSigner.toLowerCase() ? 'ok' : 'signer_mismatch';
}
