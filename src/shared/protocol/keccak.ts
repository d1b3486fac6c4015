// keccak256 helpers over @noble/hashes.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { bytesToHex, type Hex } from './hex';

export { keccak_256, utf8ToBytes };

export function keccakUtf8(s: string): Uint8Array {
  return keccak_256(utf8ToBytes(s));
}

export function keccakHex(bytes: Uint8Array): Hex {
  return bytesToHex(keccak_256(bytes));
}
