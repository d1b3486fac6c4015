// libsecp256k1 (Bitcoin Core's constant-time C library) compiled to WebAssembly, through
// tiny-secp256k1, as the signing engine of signing.ts. Deliberately not exported from the protocol
// index: the package's node build reads its 1.2 MB .wasm from disk and compiles it when imported,
// and the window never signs. Only main, the devnet, tests and benches import this module; the
// renderer build refuses it (electron.vite.config.ts).
import { signRecoverable } from 'tiny-secp256k1';
import { useSigningEngine, type SigningEngine } from './signing';

export const wasmSigningEngine: SigningEngine = {
  name: 'libsecp256k1-wasm',
  sign(digest, key) {
    // No extra data: libsecp256k1's RFC 6979 nonce, and its signatures are always low-s. The
    // package copies the key into WASM memory and zeroes that copy before returning.
    const { signature, recoveryId } = signRecoverable(digest, key);
    const out = new Uint8Array(65);
    out.set(signature, 0);
    out[64] = 27 + recoveryId;
    return out;
  },
};

/** Sign with libsecp256k1 from now on, process-wide (after its self-test against noble). */
export function useWasmSigning(): void {
  useSigningEngine(wasmSigningEngine);
}
