// The WASM keccak hashes exactly like noble (wasm-crypto.test.ts runs the hashing and vector suites
// on it too).
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, SigningError } from './index';
import { keccak_256, keccakEngineName, useKeccakEngine } from './keccak';
import { loadWasmKeccak, useWasmKeccak } from './keccak-wasm';

const wasmKeccak = await loadWasmKeccak();

describe('WASM keccak engine', () => {
  it('hashes random inputs of every length up to four blocks like noble', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4 * 136 + 1 }), (bytes) => {
        const copy = bytes.slice();
        expect(bytesToHex(wasmKeccak(bytes))).toBe(bytesToHex(nobleKeccak256(bytes)));
        expect(bytes).toEqual(copy);
      }),
      { numRuns: 500 },
    );
  });

  it('returns a new array each time (callers keep digests)', () => {
    const a = wasmKeccak(new Uint8Array([1]));
    const b = wasmKeccak(new Uint8Array([2]));
    expect(a).not.toBe(b);
    expect(bytesToHex(a)).toBe(bytesToHex(nobleKeccak256(new Uint8Array([1]))));
  });

  it('is installed behind keccak_256, and a wrong engine is refused with the current one kept', async () => {
    await useWasmKeccak();
    expect(keccakEngineName()).toBe('hash-wasm');
    expect(bytesToHex(keccak_256(new Uint8Array()))).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    // SHA3-256 pads differently from Ethereum's keccak: the self-test must catch it.
    const { sha3_256 } = await import('@noble/hashes/sha3.js');
    expect(() => useKeccakEngine('sha3', sha3_256)).toThrow(SigningError);
    expect(() => useKeccakEngine('sha3', sha3_256)).toThrow(
      /sha3 keccak engine does not hash the self-test inputs like noble/,
    );
    expect(keccakEngineName()).toBe('hash-wasm');
  });
});
