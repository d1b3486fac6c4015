// The libsecp256k1 (WebAssembly) engine signs exactly like noble (wasm-crypto.test.ts runs the
// signing and vector suites on it too).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DigestSigner,
  SECP256K1_N,
  SigningError,
  bytesToHex,
  nobleSigningEngine,
  signingEngineName,
  useSigningEngine,
  type SigningEngine,
} from './index';
import { useWasmSigning, wasmSigningEngine } from './secp256k1-wasm';

useWasmSigning();

const keyArb = fc.bigInt({ min: 1n, max: SECP256K1_N - 1n }).map((k) => hexBytes(k.toString(16).padStart(64, '0')));
const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
}

describe('libsecp256k1 (WebAssembly) signing engine', () => {
  it('is the engine DigestSigner signs with once installed', () => {
    expect(signingEngineName()).toBe('libsecp256k1-wasm');
    expect(new DigestSigner(`0x${'11'.repeat(32)}`).sign(`0x${'22'.repeat(32)}`)).toBe(
      bytesToHex(nobleSigningEngine.sign(hexBytes('22'.repeat(32)), hexBytes('11'.repeat(32)))),
    );
  });

  it('signs random digests with random keys byte for byte like noble', () => {
    fc.assert(
      fc.property(keyArb, digestArb, (key, digest) => {
        expect(bytesToHex(wasmSigningEngine.sign(digest, key))).toBe(bytesToHex(nobleSigningEngine.sign(digest, key)));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves the caller's key and digest as they were", () => {
    const key = hexBytes('42'.repeat(32));
    const digest = hexBytes('07'.repeat(32));
    wasmSigningEngine.sign(digest, key);
    expect(bytesToHex(key)).toBe(`0x${'42'.repeat(32)}`);
    expect(bytesToHex(digest)).toBe(`0x${'07'.repeat(32)}`);
  });

  it('refuses to install an engine that does not sign like noble, and keeps the current one', () => {
    const highS: SigningEngine = {
      name: 'high-s',
      sign(digest, key) {
        const sig = nobleSigningEngine.sign(digest, key);
        // s → n − s and the other recovery id: a valid signature, but not the low-s one.
        const s = SECP256K1_N - BigInt(bytesToHex(sig.subarray(32, 64)));
        sig.set(hexBytes(s.toString(16).padStart(64, '0')), 32);
        sig[64] = sig[64] === 27 ? 28 : 27;
        return sig;
      },
    };
    const throws: SigningEngine = {
      name: 'broken',
      sign() {
        throw new Error('no');
      },
    };
    for (const bad of [highS, throws]) {
      expect(() => useSigningEngine(bad)).toThrow(SigningError);
      expect(signingEngineName()).toBe('libsecp256k1-wasm');
    }
    try {
      useSigningEngine(highS);
    } catch (e) {
      expect((e as SigningError).code).toBe('ENGINE_MISMATCH');
    }
  });
});
