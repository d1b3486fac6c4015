import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, DigestSigner, keccakUtf8, recoverDigestSigner, SECP256K1_N } from '../../shared/protocol';
import { accToAffine, FixedBaseTable, newAcc, SignatureVerifier } from './signature-verifier';

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
    // Half the runs claim the real signer and half leave the signature intact, so about a quarter
    // are valid: keys get cached (recovery) and then checked against the cache (fast path), with 4
    // keys in a 2-key cache evicting each other. Uniform flips and claims made a valid pair 1 run
    // in ~500, so a 300-run sample could miss the fast path entirely (a CI run did).
    const flip = fc.record({ at: fc.integer({ min: 0, max: 129 }), nibble: fc.integer({ min: 1, max: 15 }) });
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.nat(3),
        fc.option(fc.nat(3), { freq: 2 }),
        fc.option(flip, { freq: 2 }),
        (digest, signerIdx, otherClaim, mutation) => {
          let sig: string = keys[signerIdx]!.sign(digest);
          if (mutation !== null) {
            const pos = 2 + mutation.at;
            const c = ((parseInt(sig[pos]!, 16) ^ mutation.nibble) & 15).toString(16);
            sig = sig.slice(0, pos) + c + sig.slice(pos + 1);
          }
          const claimed = keys[otherClaim ?? signerIdx]!.address;
          expect(v.verify(digest, sig, claimed)).toBe(reference(digest, sig, claimed));
        },
      ),
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

describe('SignatureVerifier fixed-base path (u1·G + u2·Q from tables)', () => {
  const { Point } = secp256k1;
  const N = Point.Fn.ORDER;
  const HALF_N = N >> 1n;
  const hex64 = (x: bigint) => x.toString(16).padStart(64, '0');
  /** Same r, s' = n − s, other v: the high-s twin of a valid signature (recovers to the same key). */
  const highSTwin = (sig: string) =>
    `0x${sig.slice(2, 66)}${hex64(N - BigInt(`0x${sig.slice(66, 130)}`))}${sig.endsWith('1b') ? '1c' : '1b'}`;
  /** Same r, s, other parity: recovers to another key. */
  const otherV = (sig: string) => `${sig.slice(0, 130)}${sig.endsWith('1b') ? '1c' : '1b'}`;
  /** v 27/28 as 0/1 (accepted by both). */
  const rawV = (sig: string) => `${sig.slice(0, 130)}${sig.endsWith('1b') ? '00' : '01'}`;

  type Mutation = 'none' | 'highS' | 'otherV' | 'rawV' | 'randomS' | 'randomR' | 'rAtN' | 'sZero' | 'sHalfPlus1';
  const mutations: Mutation[] = [
    'none',
    'highS',
    'otherV',
    'rawV',
    'randomS',
    'randomR',
    'rAtN',
    'sZero',
    'sHalfPlus1',
  ];
  function mutate(sig: string, m: Mutation, rnd: bigint): string {
    const r = sig.slice(2, 66);
    const s = sig.slice(66, 130);
    const v = sig.slice(130);
    switch (m) {
      case 'none':
        return sig;
      case 'highS':
        return highSTwin(sig);
      case 'otherV':
        return otherV(sig);
      case 'rawV':
        return rawV(sig);
      case 'randomS':
        return `0x${r}${hex64(rnd % HALF_N)}${v}`;
      case 'randomR':
        return `0x${hex64(rnd % N)}${s}${v}`;
      case 'rAtN':
        return `0x${hex64(N)}${s}${v}`;
      case 'sZero':
        return `0x${r}${hex64(0n)}${v}`;
      case 'sHalfPlus1':
        return `0x${r}${hex64(HALF_N + 1n)}${v}`;
    }
  }

  for (const [label, opts] of [
    ['tables from the first use', { tablesAfter: 1, capacity: 3 }],
    ['cached key before its table', { tablesAfter: 1_000, capacity: 3 }],
    ['small windows', { tablesAfter: 1, windowSize: 3, generatorWindowSize: 5, capacity: 2 }],
  ] as const) {
    it(`agrees with recoverDigestSigner on low-s, v, wrong-signer and malformed cases (${label})`, () => {
      const v = new SignatureVerifier(opts);
      // Every key verified once so the fast path is the one under test from here on.
      for (const k of keys) expect(v.verify(keccakUtf8('seed'), k.sign(keccakUtf8('seed')), k.address)).toBe(true);
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.nat(3),
          fc.nat(3),
          fc.constantFrom(...mutations),
          fc.bigInt({ min: 1n, max: (1n << 256n) - 1n }),
          (digest, signerIdx, claimIdx, m, rnd) => {
            const sig = mutate(keys[signerIdx]!.sign(digest), m, rnd);
            const claimed = keys[claimIdx]!.address;
            expect(v.verify(digest, sig, claimed)).toBe(reference(digest, sig, claimed));
          },
        ),
        { numRuns: 250 },
      );
      expect(v.stats.fast).toBeGreaterThan(0);
    });
  }

  it('accepts exactly the valid signature among its twins on the fast path', () => {
    const v = new SignatureVerifier({ tablesAfter: 1 });
    const [k, other] = [keys[0]!, keys[1]!];
    const digest = keccakUtf8('order');
    const sig = k.sign(digest);
    expect(v.verify(digest, sig, k.address)).toBe(true); // recovery, caches k
    expect(v.verify(digest, sig, other.address)).toBe(false); // wrong signer (uncached claim)
    expect(v.verify(keccakUtf8('x'), other.sign(keccakUtf8('x')), other.address)).toBe(true);
    const before = v.stats.fast;
    expect(v.verify(digest, sig, k.address)).toBe(true);
    expect(v.verify(digest, rawV(sig), k.address)).toBe(true);
    expect(v.verify(digest, sig, other.address)).toBe(false); // wrong signer, cached claim
    expect(v.verify(digest, highSTwin(sig), k.address)).toBe(false);
    expect(v.verify(digest, otherV(sig), k.address)).toBe(false);
    expect(v.verify(keccakUtf8('order2'), sig, k.address)).toBe(false); // other digest
    expect(v.stats.fast - before).toBe(5); // the high-s twin is refused before any curve work
    // Digest 0 and digest ≡ 0 (mod n): u1 = 0, the G part contributes nothing.
    for (const d of [new Uint8Array(32), bigToBytes(N)]) {
      const s = k.sign(d);
      expect(v.verify(d, s, k.address)).toBe(reference(d, s, k.address));
      expect(v.verify(d, s, k.address)).toBe(true);
    }
  });
});

function bigToBytes(x: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

describe('FixedBaseTable', () => {
  const { Point } = secp256k1;
  const N = Point.Fn.ORDER;
  const mul = (t: FixedBaseTable, k: bigint, start?: { x: bigint; y: bigint }) => {
    const acc = newAcc(start);
    t.addMultiple(acc, k);
    return accToAffine(acc);
  };
  const B = Point.BASE.multiply(0xc0ffeen);

  it('computes k·B like noble for random and boundary scalars', () => {
    // 4, 8 and 12 read windows from the hex string, the others by shifting.
    for (const w of [2, 4, 5, 8, 12]) {
      const t = new FixedBaseTable(B, w);
      const half = 1n << BigInt(w - 1);
      const edge = [
        1n,
        2n,
        half,
        half + 1n,
        (1n << BigInt(w)) - 1n,
        half << BigInt(w),
        N - 1n,
        N - half,
        (1n << 255n) + 12345n,
        N,
        (1n << 256n) - 1n,
      ];
      for (const k of edge)
        expect([w, k, mul(t, k)]).toEqual([w, k, k % N === 0n ? null : B.multiply(k % N).toAffine()]);
      expect(mul(t, 0n)).toBeNull();
      fc.assert(
        fc.property(fc.bigInt({ min: 1n, max: N - 1n }), (k) => {
          expect(mul(t, k)).toEqual(B.multiply(k).toAffine());
        }),
        { numRuns: 40 },
      );
    }
  });

  it('handles the doubling and cancelling additions of the accumulator', () => {
    const t = new FixedBaseTable(B, 4);
    const b = B.toAffine();
    // B + 1·B: the added point equals the accumulator → doubling branch.
    expect(mul(t, 1n, b)).toEqual(B.double().toAffine());
    // −B + 1·B: cancels to infinity; then the next addition restarts from the added point.
    const negB = B.negate().toAffine();
    expect(mul(t, 1n, negB)).toBeNull();
    expect(mul(t, 17n, negB)).toEqual(B.multiply(16n).toAffine());
  });
});
