// The `secp256k1` package (v5) ships no types. Its `bindings` entry is the native binding only
// (no JavaScript fallback), which is what the signing bench wants as its floor.
declare module 'secp256k1/bindings.js' {
  const native: {
    ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number };
  };
  export default native;
}
