// A short string two people can compare across two screens: 20 base32 letters (100 bits) of a keccak
// over the domain separator, the digests to be signed and the envelope's own facts (id, time,
// contracts, what a kit says it covers). Both machines compute it from the content, so anything
// altered on the way shows a different fingerprint and is refused when read.
import { domainSeparatorBytes, hexToBytes, keccakHex, type ExchangeDomain, type Hex } from '../../shared/protocol';

const TAG = 'exchange-terminal/airgap-fingerprint@1';
// RFC 4648 base32: no 0/1/8/9, so nothing is confused with O, I, B or g when read aloud.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const LETTERS = 20;

function base32(bytes: Uint8Array, letters: number): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < letters) {
      out += ALPHABET[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length === letters) break;
  }
  return out;
}

/**
 * "ABCD-EFGH-IJKL-MNOP-QRST" for a domain, the ordered digests a request or kit binds, and `facts`:
 * the envelope's other fields as one string (request.ts and kit.ts say which).
 */
export function fingerprintOf(domain: ExchangeDomain, digests: readonly Hex[], facts: string): string {
  const tag = new TextEncoder().encode(TAG);
  const text = new TextEncoder().encode(facts);
  const sep = domainSeparatorBytes(domain);
  const buf = new Uint8Array(tag.length + 32 + 32 * digests.length + text.length);
  buf.set(tag, 0);
  buf.set(sep, tag.length);
  digests.forEach((d, i) => buf.set(hexToBytes(d), tag.length + 32 + 32 * i));
  buf.set(text, tag.length + 32 + 32 * digests.length);
  const letters = base32(hexToBytes(keccakHex(buf)), LETTERS);
  return letters.match(/.{4}/g)!.join('-');
}
