// secp256k1 signing of raw EIP-712 digests (docs/protocol/signing.md#signature-format): 65 bytes r‖s‖v, v 27/28, low-s,
// RFC 6979, no EIP-191 prefix. Keys are held only as bytes inside closures/private fields. noble signs until a faster
// engine is installed (libsecp256k1 in WebAssembly: secp256k1-wasm.ts, loaded by main and the devnet); noble always
// verifies, so signer and verifier stay two independent implementations.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { SigningError } from './errors';
import { bytesToHex, decodeHexInto, type Address, type Hex } from './hex';
import { keccak_256, utf8ToBytes } from './keccak';

const KEY_RE = /^0x[0-9a-fA-F]{64}$/;
const DIGEST_RE = KEY_RE;
const SIG_RE = /^0x[0-9a-fA-F]{130}$/;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

function keyBytes(privateKey: Hex | Uint8Array): Uint8Array {
  let out: Uint8Array;
  if (privateKey instanceof Uint8Array) {
    if (privateKey.length !== 32)
      throw new SigningError('INVALID_PRIVATE_KEY', 'A private key must be exactly 32 bytes.');
    out = privateKey.slice();
  } else {
    if (typeof privateKey !== 'string' || !KEY_RE.test(privateKey)) {
      throw new SigningError('INVALID_PRIVATE_KEY', 'A private key must be 0x followed by 64 hex digits.');
    }
    out = new Uint8Array(32);
    decodeHexInto(privateKey, out, 0);
  }
  if (!secp256k1.utils.isValidSecretKey(out)) {
    out.fill(0);
    throw new SigningError('INVALID_PRIVATE_KEY', 'The private key is outside the secp256k1 range.');
  }
  return out;
}

function digestBytes(digest: Hex | Uint8Array): Uint8Array {
  if (digest instanceof Uint8Array) {
    if (digest.length !== 32) throw new SigningError('INVALID_DIGEST', 'A digest must be exactly 32 bytes.');
    return digest;
  }
  if (typeof digest !== 'string' || !DIGEST_RE.test(digest)) {
    throw new SigningError('INVALID_DIGEST', 'A digest must be 0x followed by 64 hex digits.');
  }
  const out = new Uint8Array(32);
  decodeHexInto(digest, out, 0);
  return out;
}

/**
 * A secp256k1 implementation that signs for this module. It gets a 32-byte digest and a key already
 * checked to be in range, and returns r ‖ s ‖ v (65 bytes, v = 27 + recovery id) with low s and an
 * RFC 6979 nonce (no extra entropy): so every engine signs byte for byte alike.
 */
export interface SigningEngine {
  readonly name: string;
  sign(digest: Uint8Array, key: Uint8Array): Uint8Array;
}

const SIGN_OPTS = { prehash: false, lowS: true, format: 'recovered' } as const;

/** noble's pure-JS secp256k1: the engine wherever nothing faster is installed (the window, tests). */
export const nobleSigningEngine: SigningEngine = {
  name: 'noble',
  sign(digest, key) {
    // noble's 'recovered' layout is recovery ‖ r ‖ s; Ethereum wants r ‖ s ‖ (27 + recovery).
    const rec = secp256k1.sign(digest, key, SIGN_OPTS);
    const out = new Uint8Array(65);
    out.set(rec.subarray(1, 65), 0);
    out[64] = 27 + rec[0]!;
    return out;
  },
};

let engine: SigningEngine = nobleSigningEngine;

// Known answers an engine must reproduce before it signs anything (keys 1 and n − 1 included).
const SELF_TEST: readonly { key: Uint8Array; digest: Uint8Array }[] = [
  { key: keyFromBigint(1n), digest: new Uint8Array(32) },
  { key: keyFromBigint(N - 1n), digest: new Uint8Array(32).fill(0xff) },
  {
    key: keccak_256(utf8ToBytes('signing engine self-test key')),
    digest: keccak_256(utf8ToBytes('signing engine self-test digest')),
  },
];

function keyFromBigint(k: bigint): Uint8Array {
  const out = new Uint8Array(32);
  decodeHexInto(`0x${k.toString(16).padStart(64, '0')}`, out, 0);
  return out;
}

/**
 * Sign with `next` from now on, process-wide. It must first sign the self-test vectors exactly as
 * noble does, or it is refused and the current engine stays. Signatures never change, only speed.
 */
export function useSigningEngine(next: SigningEngine): void {
  for (const { key, digest } of SELF_TEST) {
    const want = bytesToHex(nobleSigningEngine.sign(digest, key));
    let got: string;
    try {
      got = bytesToHex(next.sign(digest, key));
    } catch {
      got = 'a thrown error';
    }
    if (got !== want) {
      throw new SigningError(
        'ENGINE_MISMATCH',
        `The ${next.name} signing engine does not sign the self-test vectors like noble; it was not installed.`,
      );
    }
  }
  engine = next;
}

/** Name of the engine that signs now ('noble' until a faster one is installed). */
export function signingEngineName(): string {
  return engine.name;
}

function signWith(digest: Uint8Array, key: Uint8Array): Uint8Array {
  return engine.sign(digest, key);
}

/** Sign a 32-byte digest; returns the 65-byte signature as lowercase 0x-hex. */
export function signDigest(digest: Hex | Uint8Array, privateKey: Hex | Uint8Array): Hex {
  const key = keyBytes(privateKey);
  try {
    return bytesToHex(signWith(digestBytes(digest), key));
  } finally {
    key.fill(0);
  }
}

/** EIP-55 checksummed address of an uncompressed public key (65 bytes, 0x04 prefix). */
export function publicKeyToAddress(uncompressed: Uint8Array): Address {
  const hash = keccak_256(uncompressed.subarray(1));
  return toChecksumAddress(bytesToHex(hash.subarray(12)));
}

/** EIP-55 checksum of a 0x + 40 hex address. */
export function toChecksumAddress(address: string): Address {
  const lower = address.toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(lower)) throw new SigningError('INVALID_SIGNATURE', 'Expected a 20-byte address.');
  const hex = lower.slice(2);
  const h = keccak_256(utf8ToBytes(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (h[i >> 1]! >> (i & 1 ? 0 : 4)) & 0xf;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out as Address;
}

/** Address (checksummed) of a private key. */
export function privateKeyToAddress(privateKey: Hex | Uint8Array): Address {
  const key = keyBytes(privateKey);
  try {
    return publicKeyToAddress(secp256k1.getPublicKey(key, false));
  } finally {
    key.fill(0);
  }
}

/**
 * Recover the signer of a digest from a 65-byte r‖s‖v signature (v 27/28, or 0/1).
 * High-s signatures are refused: the protocol's signers are low-s and accepting both would make
 * every signature malleable.
 */
export function recoverDigestSigner(digest: Hex | Uint8Array, signature: Hex | Uint8Array): Address {
  let sig: Uint8Array;
  if (signature instanceof Uint8Array) sig = signature;
  else {
    if (typeof signature !== 'string' || !SIG_RE.test(signature)) {
      throw new SigningError('INVALID_SIGNATURE', 'A signature must be 0x followed by 130 hex digits (65 bytes).');
    }
    sig = new Uint8Array(65);
    decodeHexInto(signature, sig, 0);
  }
  if (sig.length !== 65) throw new SigningError('INVALID_SIGNATURE', 'A signature must be 65 bytes.');
  const v = sig[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) throw new SigningError('INVALID_SIGNATURE', 'Signature v must be 27 or 28.');
  const rec = new Uint8Array(65);
  rec[0] = recovery;
  rec.set(sig.subarray(0, 64), 1);
  try {
    const parsed = secp256k1.Signature.fromBytes(rec, 'recovered');
    if (parsed.r === 0n || parsed.s === 0n) throw new Error('zero');
    if (parsed.s > HALF_N)
      throw new SigningError('INVALID_SIGNATURE', 'Signature s is not in the lower half of the curve order.');
    const point = parsed.recoverPublicKey(digestBytes(digest));
    return publicKeyToAddress(point.toBytes(false));
  } catch (e) {
    if (e instanceof SigningError) throw e;
    throw new SigningError('INVALID_SIGNATURE', 'The signature does not recover to a public key.');
  }
}

/**
 * Holds one parsed private key for repeated signing. The key lives in a private field and is
 * never exposed by toString, JSON, inspection or structured clone of the public surface.
 */
export class DigestSigner {
  #key: Uint8Array | null;
  readonly address: Address;

  constructor(privateKey: Hex | Uint8Array) {
    this.#key = keyBytes(privateKey);
    this.address = publicKeyToAddress(secp256k1.getPublicKey(this.#key, false));
  }

  /** Sign a digest; returns 65-byte r‖s‖v lowercase hex. */
  sign(digest: Hex | Uint8Array): Hex {
    return bytesToHex(this.signBytes(digest));
  }

  signBytes(digest: Hex | Uint8Array): Uint8Array {
    if (this.#key === null) throw new SigningError('INVALID_PRIVATE_KEY', 'This signer has been destroyed.');
    return signWith(digestBytes(digest), this.#key);
  }

  /** Zero the key; later sign calls fail. */
  destroy(): void {
    this.#key?.fill(0);
    this.#key = null;
  }

  get destroyed(): boolean {
    return this.#key === null;
  }

  toString(): string {
    return `DigestSigner(${this.address})`;
  }

  toJSON(): { address: Address } {
    return { address: this.address };
  }

  // Node's inspector (console.log) shows only the address.
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

export { N as SECP256K1_N };
