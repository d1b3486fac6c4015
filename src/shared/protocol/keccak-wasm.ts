// keccak256 in WebAssembly (hash-wasm) as the keccak engine of keccak.ts: about ten times noble's
// speed on an order's 416 bytes. Not exported from the protocol index, like secp256k1-wasm.ts: the
// window hashes nothing, so only main, the devnet, tests and benches load it.
import { createKeccak } from 'hash-wasm';
import { useKeccakEngine, type Keccak256 } from './keccak';

/** Compile the WASM keccak (asynchronous, once) and return a synchronous keccak256. */
export async function loadWasmKeccak(): Promise<Keccak256> {
  const hasher = await createKeccak(256);
  // One instance for the process: hashing is synchronous, so no two calls interleave.
  return (bytes) => {
    hasher.init();
    hasher.update(bytes);
    return hasher.digest('binary');
  };
}

/** Hash with the WASM keccak from now on, process-wide (after its self-test against noble). */
export async function useWasmKeccak(): Promise<void> {
  useKeccakEngine('hash-wasm', await loadWasmKeccak());
}
