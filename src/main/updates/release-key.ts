/**
 * Release keys: Ed25519 public keys whose signature on an update manifest this app accepts. A key is
 * known by its fingerprint, the first 128 bits of the SHA-256 of its 32 raw bytes in hex, in groups of
 * four (`7F3A 09C1 …`): what main's restart dialog, the README and `npm run release` print.
 */
import { createHash } from 'node:crypto';

export interface ReleaseKey {
  /** "7F3A 09C1 …": 8 groups of 4 uppercase hex digits. */
  readonly fingerprint: string;
  /** The 32 raw bytes of the Ed25519 public key. */
  readonly publicKey: Uint8Array;
}

export const ED25519_PUBLIC_KEY_BYTES = 32;

export function keyFingerprint(publicKey: Uint8Array): string {
  const hex = createHash('sha256').update(publicKey).digest('hex').slice(0, 32).toUpperCase();
  return hex.match(/.{4}/g)!.join(' ');
}

/** A fingerprint as written anywhere (spaces, case) in the one form this app compares. */
export function normalFingerprint(text: string): string | null {
  const hex = text.replace(/\s+/g, '').toUpperCase();
  return /^[0-9A-F]{32}$/.test(hex) ? hex.match(/.{4}/g)!.join(' ') : null;
}

/** A key from its base64 raw bytes; throws when the text is not 32 bytes of base64. */
export function releaseKeyFromBase64(base64: string): ReleaseKey {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== ED25519_PUBLIC_KEY_BYTES || bytes.toString('base64') !== base64) {
    throw new Error('a release key must be the 32 raw bytes of an Ed25519 public key, in base64');
  }
  const publicKey = new Uint8Array(bytes);
  return { fingerprint: keyFingerprint(publicKey), publicKey };
}
