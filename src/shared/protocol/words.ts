// Writers of one 32-byte ABI word into a buffer, with the width checks of
// docs/protocol/units.md#json-integers-and-widths. They throw ProtocolValidationError naming the field, never encode a
// wrong value silently.
import { UINT_MAX, type UintType } from './constants';
import { validationError } from './errors';
import { decodeHexInto, ADDRESS_RE, BYTES32_RE, EVEN_HEX_RE } from './hex';
import { keccak_256 } from './keccak';

const HEX = '0123456789abcdef';
const EMPTY_TAIL = new Uint8Array(32);

/** Write unsigned `v` (already range-checked) big-endian into buf[off..off+32). */
export function writeUint(buf: Uint8Array, off: number, v: bigint): void {
  buf.set(EMPTY_TAIL, off);
  if (v < 0x20000000000000n) {
    // Fast path: Number arithmetic for values below 2^53.
    let n = Number(v);
    for (let i = off + 31; n > 0; i--) {
      buf[i] = n % 256;
      n = Math.floor(n / 256);
    }
    return;
  }
  const s = v.toString(16);
  // Right-align the hex digits in the word.
  let i = off + 32 - Math.ceil(s.length / 2);
  let j = 0;
  if (s.length & 1) {
    buf[i++] = HEX.indexOf(s[0]!);
    j = 1;
  }
  for (; j < s.length; j += 2) buf[i++] = (HEX.indexOf(s[j]!) << 4) | HEX.indexOf(s[j + 1]!);
}

export function checkUint(v: unknown, type: UintType, path: string): bigint {
  if (typeof v !== 'bigint') {
    throw validationError('invalid_type', path, `Expected a bigint for this ${type} field.`);
  }
  if (v < 0n || v > UINT_MAX[type]) {
    throw validationError('integer_out_of_range', path, `Value must be between 0 and ${UINT_MAX[type]} (${type}).`);
  }
  return v;
}

export function writeBool(buf: Uint8Array, off: number, v: unknown, path: string): void {
  if (typeof v !== 'boolean') throw validationError('invalid_type', path, 'Expected a boolean.');
  buf.set(EMPTY_TAIL, off);
  buf[off + 31] = v ? 1 : 0;
}

export function writeAddress(buf: Uint8Array, off: number, v: unknown, path: string): void {
  if (typeof v !== 'string' || !ADDRESS_RE.test(v)) {
    throw validationError('invalid_value', path, 'Expected an address: 0x followed by 40 hex digits.');
  }
  buf.fill(0, off, off + 12);
  decodeHexInto(v, buf, off + 12);
}

export function writeBytes32(buf: Uint8Array, off: number, v: unknown, path: string): void {
  if (typeof v !== 'string' || !BYTES32_RE.test(v)) {
    throw validationError('invalid_value', path, 'Expected a bytes32 value: 0x followed by 64 hex digits.');
  }
  decodeHexInto(v, buf, off);
}

/** Hashed-bytes slot: keccak256 of the raw bytes given as even-length hex. */
export function writeKeccakOfBytes(buf: Uint8Array, off: number, v: unknown, path: string): void {
  if (typeof v !== 'string' || !EVEN_HEX_RE.test(v)) {
    throw validationError('invalid_value', path, 'Expected raw bytes as 0x-prefixed hex of even length.');
  }
  const raw = new Uint8Array((v.length - 2) >> 1);
  decodeHexInto(v, raw, 0);
  buf.set(keccak_256(raw), off);
}
