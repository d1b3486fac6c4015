// The configuration main and the devnet run in: signing and hashing on WebAssembly. The hashing,
// signing and vector suites are imported below, unchanged, and run again in this file on it.
import { describe, expect, it } from 'vitest';
import { signingEngineName } from './index';
import { keccakEngineName } from './keccak';
import { useWasmCrypto } from './wasm-crypto';
import './hashing.test';
import './signing.test';
import './vectors.test';

await useWasmCrypto();

describe('useWasmCrypto', () => {
  it('moves signing and hashing onto WebAssembly for the suites in this file', () => {
    expect(signingEngineName()).toBe('libsecp256k1-wasm');
    expect(keccakEngineName()).toBe('hash-wasm');
  });
});
