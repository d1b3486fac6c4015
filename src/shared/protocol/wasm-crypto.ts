// One call that moves this process's signing and hashing onto WebAssembly: libsecp256k1 for
// signatures, hash-wasm for keccak. Signatures and digests stay byte for byte the same (each engine
// passes a self-test against noble first), only faster. Main runs it after the first unlock,
// off the calling path; the devnet and the benches at start. Never imported by the window.
import { useWasmKeccak } from './keccak-wasm';
import { useWasmSigning } from './secp256k1-wasm';

export async function useWasmCrypto(): Promise<void> {
  useWasmSigning();
  await useWasmKeccak();
}
