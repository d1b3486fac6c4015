import { SigningKey, Wallet, keccak256, toUtf8Bytes } from 'ethers';
import fc from 'fast-check';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  DigestSigner,
  SECP256K1_N,
  SigningError,
  bytesToHex,
  privateKeyToAddress,
  recoverDigestSigner,
  signDigest,
  toChecksumAddress,
} from './index';

const keyArb = fc
  .bigInt({ min: 1n, max: SECP256K1_N - 1n })
  .map((k): `0x${string}` => `0x${k.toString(16).padStart(64, '0')}`);
const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b));

describe('signDigest', () => {
  it('equals ethers SigningKey.sign (RFC 6979, low-s, v 27/28) and recovers', () => {
    fc.assert(
      fc.property(keyArb, digestArb, (k, d) => {
        const sig = signDigest(d, k);
        expect(sig).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
        expect(sig).toBe(new SigningKey(k).sign(d).serialized);
        expect(BigInt(`0x${sig.slice(66, 130)}`) <= SECP256K1_N / 2n).toBe(true);
        expect(recoverDigestSigner(d, sig)).toBe(new Wallet(k).address);
      }),
      { numRuns: 40 },
    );
  });

  it('signs the raw digest, not an EIP-191 message', () => {
    const k = `0x${'11'.repeat(32)}` as const;
    const d = keccak256(toUtf8Bytes('x')) as `0x${string}`;
    expect(signDigest(d, k)).not.toBe(new Wallet(k).signMessageSync(d));
  });

  it('rejects bad keys without echoing them', () => {
    for (const bad of ['0x00', `0x${'00'.repeat(32)}`, `0x${SECP256K1_N.toString(16)}`, 'deadbeef']) {
      try {
        signDigest(`0x${'00'.repeat(32)}`, bad as `0x${string}`);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(SigningError);
        expect((e as SigningError).code).toBe('INVALID_PRIVATE_KEY');
        expect((e as Error).message).not.toContain(bad.slice(2));
      }
    }
  });

  it('refuses high-s and malformed signatures', () => {
    const k = `0x${'22'.repeat(32)}` as const;
    const d = `0x${'33'.repeat(32)}` as const;
    const sig = signDigest(d, k);
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const highS =
      `${sig.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${sig.endsWith('1b') ? '1c' : '1b'}` as `0x${string}`;
    expect(() => recoverDigestSigner(d, highS)).toThrow(SigningError);
    expect(() => recoverDigestSigner(d, `${sig.slice(0, 130)}1d` as `0x${string}`)).toThrow(SigningError);
    expect(() => recoverDigestSigner(d, '0x1234')).toThrow(SigningError);
  });
});

describe('DigestSigner', () => {
  const key = `0x${'5a'.repeat(32)}` as const;

  it('signs like signDigest and knows its address', () => {
    const s = new DigestSigner(key);
    expect(s.address).toBe(new Wallet(key).address);
    expect(privateKeyToAddress(key)).toBe(s.address);
    const d = `0x${'44'.repeat(32)}` as const;
    expect(s.sign(d)).toBe(signDigest(d, key));
  });

  it('never exposes the key through toString, JSON, inspect or enumeration', () => {
    const s = new DigestSigner(key);
    const raw = key.slice(2);
    const seen = [
      String(s),
      JSON.stringify(s),
      inspect(s, { showHidden: true, depth: 5 }),
      JSON.stringify(Object.entries(s)),
      Object.getOwnPropertyNames(s).join(),
    ];
    for (const text of seen) {
      expect(text.toLowerCase()).not.toContain(raw);
      expect(text).not.toContain('90,90,90'); // bytes 0x5a as a list
    }
  });

  it('destroy zeroes and disables the key', () => {
    const s = new DigestSigner(key);
    s.destroy();
    expect(s.destroyed).toBe(true);
    expect(() => s.sign(`0x${'44'.repeat(32)}`)).toThrow(SigningError);
  });

  it('copies a Uint8Array key so the caller can wipe theirs', () => {
    const bytes = new Uint8Array(32).fill(0x5a);
    const s = new DigestSigner(bytes);
    bytes.fill(0);
    expect(s.address).toBe(new Wallet(key).address);
    expect(s.sign(`0x${'44'.repeat(32)}`)).toBe(signDigest(`0x${'44'.repeat(32)}`, key));
  });
});

describe('toChecksumAddress', () => {
  it('matches EIP-55', () => {
    expect(toChecksumAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3')).toBe(
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    );
  });
});
