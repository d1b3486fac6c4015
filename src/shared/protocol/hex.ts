// Hex string types and allocation-light hex codecs used by hashing and signing.

/** 0x-prefixed hex string (any even length unless a narrower check says otherwise). */
export type Hex = `0x${string}`;
/** 0x + 40 hex digits, any letter case. */
export type Address = `0x${string}`;
/** 0x + 64 hex digits. */
export type Bytes32 = `0x${string}`;

export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
export const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/;
export const EVEN_HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
export const SIGNATURE_RE = /^0x[0-9a-fA-F]{130}$/;

export function isAddress(v: unknown): v is Address {
  return typeof v === 'string' && ADDRESS_RE.test(v);
}
export function isBytes32(v: unknown): v is Bytes32 {
  return typeof v === 'string' && BYTES32_RE.test(v);
}
export function isEvenHex(v: unknown): v is Hex {
  return typeof v === 'string' && EVEN_HEX_RE.test(v);
}

// char code → nibble, 255 for non-hex.
const NIBBLE = new Uint8Array(128).fill(255);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[65 + i] = 10 + i;
  NIBBLE[97 + i] = 10 + i;
}

/**
 * Decode the hex digits of `hex` after its "0x" into `out` at `offset`.
 * Returns false (leaving `out` partly written) on a non-hex digit. Caller checks lengths.
 */
export function decodeHexInto(hex: string, out: Uint8Array, offset: number): boolean {
  const n = (hex.length - 2) >> 1;
  for (let i = 0, j = 2; i < n; i++, j += 2) {
    const hi = NIBBLE[hex.charCodeAt(j) & 127]!;
    const lo = NIBBLE[hex.charCodeAt(j + 1) & 127]!;
    if (hi === 255 || lo === 255 || hex.charCodeAt(j) > 127 || hex.charCodeAt(j + 1) > 127) return false;
    out[offset + i] = (hi << 4) | lo;
  }
  return true;
}

/** Decode a 0x-prefixed even-length hex string; throws TypeError on bad input. */
export function hexToBytes(hex: string): Uint8Array {
  if (!EVEN_HEX_RE.test(hex)) throw new TypeError('Expected 0x-prefixed hex of even length.');
  const out = new Uint8Array((hex.length - 2) >> 1);
  decodeHexInto(hex, out, 0);
  return out;
}

const HEX_PAIRS: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase 0x-hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): Hex {
  let s = '0x';
  for (let i = 0; i < bytes.length; i++) s += HEX_PAIRS[bytes[i]!]!;
  return s as Hex;
}
