import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, DigestSigner, keccakUtf8, recoverDigestSigner, SECP256K1_N } from '../../shared/protocol';
import { SignatureVerifier } from './signature-verifier';

const keys = Array.from({ length: 4 }, (_, i) => new DigestSigner(bytesToHex(keccakUtf8(`verifier key ${i}`))));

/** The reference answer: recover and compare. */
function reference(digest: Uint8Array, sig: string, signer: string): boolean {
  try {
    return recoverDigestSigner(digest, sig as `0x${string}`).toLowerCase() === signer.toLowerCase();
  } catch {
    return false;
  }
}

describe('SignatureVerifier', () => {
  it('agrees with recoverDigestSigner on valid, foreign and mutated signatures (cached and uncached keys)', () => {
    const v = new SignatureVerifier({ tablesAfter: 2, capacity: 2 });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(3), fc.nat(3), fc.integer({ min: -1, max: 129 }), fc.nat(15), (digest, signerIdx, claimIdx, flipAt, nibble) => {
        let sig: string = keys[signerIdx]!.sign(digest);
        if (flipAt >= 0) {
          const pos = 2 + flipAt;
          const c = ((parseInt(sig[pos]!, 16) ^ (nibble === 0 ? 1 : nibble)) & 15).toString(16);
          sig = sig.slice(0, pos) + c + sig.slice(pos + 1);
        }
        const claimed = keys[claimIdx]!.address;
        expect(v.verify(digest, sig, claimed)).toBe(reference(digest, sig, claimed));
      }),
      { numRuns: 300 },
    );
    expect(v.stats.fast).toBeGreaterThan(0);
    expect(v.stats.recovered).toBeGreaterThan(0);
  });

  it('refuses high-s twins, v outside 27/28/0/1 and malformed hex', () => {
    const v = new SignatureVerifier();
    const k = keys[0]!;
    const digest = keccakUtf8('payload');
    const sig = k.sign(digest);
    expect(v.verify(digest, sig, k.address)).toBe(true);
    expect(v.verify(digest, sig, k.address)).toBe(true); // cached path
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const highS = (SECP256K1_N - s).toString(16).padStart(64, '0');
    const flippedV = sig.endsWith('1b') ? '1c' : '1b';
    expect(v.verify(digest, `${sig.slice(0, 66)}${highS}${flippedV}`, k.address)).toBe(false);
    expect(v.verify(digest, `${sig.slice(0, 130)}1d`, k.address)).toBe(false);
    expect(v.verify(digest, `${sig.slice(0, 129)}g`, k.address)).toBe(false);
    expect(v.verify(digest, '0x1234', k.address)).toBe(false);
  });
});
