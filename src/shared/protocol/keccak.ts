// keccak256 helpers. noble's pure-JS keccak hashes until a faster engine is installed (keccak-wasm.ts,
// loaded by main and the devnet): an order digest is five keccak-f permutations, which noble makes
// most of the hashing time.
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { SigningError } from './errors';
import { bytesToHex, type Hex } from './hex';

export { utf8ToBytes };

/** keccak256 of `bytes` into a new 32-byte array; the input is left as it was. */
export type Keccak256 = (bytes: Uint8Array) => Uint8Array;

let engine: Keccak256 = nobleKeccak256;
let engineName = 'noble';

export function keccak_256(bytes: Uint8Array): Uint8Array {
  return engine(bytes);
}

// Lengths around the 136-byte rate (where the padding changes blocks) and a FillOrder's 416 bytes.
const SELF_TEST_LENGTHS = [0, 1, 32, 66, 135, 136, 137, 272, 416];

/**
 * Hash with `next` from now on, process-wide. It must first hash the self-test inputs exactly as
 * noble does, or it is refused and the current engine stays. Digests never change, only speed.
 */
export function useKeccakEngine(name: string, next: Keccak256): void {
  for (const length of SELF_TEST_LENGTHS) {
    const input = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
    let got: string;
    try {
      got = bytesToHex(next(input));
    } catch {
      got = 'a thrown error';
    }
    if (got !== bytesToHex(nobleKeccak256(input))) {
      throw new SigningError(
        'ENGINE_MISMATCH',
        `The ${name} keccak engine does not hash the self-test inputs like noble; it was not installed.`,
      );
    }
  }
  engine = next;
  engineName = name;
}

/** Name of the keccak engine that hashes now ('noble' until a faster one is installed). */
export function keccakEngineName(): string {
  return engineName;
}

export function keccakUtf8(s: string): Uint8Array {
  return keccak_256(utf8ToBytes(s));
}

export function keccakHex(bytes: Uint8Array): Hex {
  return bytesToHex(keccak_256(bytes));
}
