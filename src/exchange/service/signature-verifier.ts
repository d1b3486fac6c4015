// Server-side signature check (docs/protocol/signing.md#server-side-check): "does this 65-byte r‖s‖v signature over
// `digest` come from `expectedSigner`?". Same answer as recoverDigestSigner(digest, sig) === signer, but faster for
// signers seen before. Recovery gives Q' = r⁻¹(s·R − h·G), where R is the curve point with x = r and
// y parity v; Q' equals the signer's key Q exactly when R = u1·G + u2·Q (u1 = h/s, u2 = r/s). So for a
// known Q we compute u1·G + u2·Q and compare it with R: no square root for R and no multiplication
// of an unknown point. Both multiplications use fixed-base tables (one for G built once per
// process, one per cached signer), variable-time, which is fine: every input here is public.
// First-time signers take noble's recovery path and are cached by address afterwards.
import { invert } from '@noble/curves/abstract/modular.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeHexInto, publicKeyToAddress } from '../../shared/protocol';

const { Point } = secp256k1;
const Fn = Point.Fn;
const N = Fn.ORDER;
const HALF_N = N >> 1n;
/** Field prime p of secp256k1 (a = 0, b = 7). */
const P = Point.Fp.ORDER;
const SIG_RE = /^0x[0-9a-fA-F]{130}$/;

type CurvePoint = InstanceType<typeof Point>;

/** Jacobian accumulator: affine (X/Z², Y/Z³); `inf` is the point at infinity. Coordinates in [0, p). */
export interface Acc {
  X: bigint;
  Y: bigint;
  Z: bigint;
  inf: boolean;
}

/** An accumulator holding the affine point (x, y), or infinity when none is given. */
export function newAcc(start?: { x: bigint; y: bigint }): Acc {
  return start === undefined ? { X: 0n, Y: 0n, Z: 1n, inf: true } : { X: start.x, Y: start.y, Z: 1n, inf: false };
}

/** Affine coordinates of the accumulator (one inversion), null for infinity. */
export function accToAffine(a: Acc): { x: bigint; y: bigint } | null {
  if (a.inf) return null;
  const zi = invert(a.Z, P);
  const zi2 = (zi * zi) % P;
  return { x: (a.X * zi2) % P, y: (((a.Y * zi2) % P) * zi) % P };
}

/** acc ← 2·acc (dbl-2009-l, a = 0). */
function accDouble(a: Acc): void {
  if (a.inf) return;
  if (a.Y === 0n) {
    a.inf = true; // never on secp256k1 (no 2-torsion), kept for completeness
    return;
  }
  const A = (a.X * a.X) % P;
  const B = (a.Y * a.Y) % P;
  const C = (B * B) % P;
  const xb = a.X + B;
  let D = (2n * (xb * xb - A - C)) % P;
  if (D < 0n) D += P;
  const E = 3n * A;
  let x3 = (E * E - 2n * D) % P;
  if (x3 < 0n) x3 += P;
  let y3 = (E * (D - x3) - 8n * C) % P;
  if (y3 < 0n) y3 += P;
  a.Z = (2n * a.Y * a.Z) % P;
  a.X = x3;
  a.Y = y3;
}

const MASK256 = (1n << 256n) - 1n;
/** p = 2^256 − C. */
const P_C = (1n << 256n) - P;
const P3 = 3n * P;
const PP = P * P;

/**
 * x mod p for 0 ≤ x < 2^514, using 2^256 ≡ C (mod p): two folds and one subtraction. About 1.4×
 * faster than bigint `%` (a division), and the curve additions are nearly all modular products.
 */
function red(x: bigint): bigint {
  let t = (x & MASK256) + (x >> 256n) * P_C;
  t = (t & MASK256) + (t >> 256n) * P_C; // < 2^256 + 2^67, so one subtraction suffices
  return t >= P ? t - P : t;
}

/** acc ← acc + (x2, y2) with an affine point (madd-2007-bl, 8M + 3S). */
function accAddAffine(a: Acc, x2: bigint, y2: bigint): void {
  if (a.inf) {
    a.X = x2;
    a.Y = y2;
    a.Z = 1n;
    a.inf = false;
    return;
  }
  const z1z1 = red(a.Z * a.Z);
  const u2 = red(x2 * z1z1);
  const s2 = red(red(y2 * a.Z) * z1z1);
  let h = u2 - a.X;
  if (h < 0n) h += P;
  let r = s2 - a.Y;
  if (r < 0n) r += P;
  if (h === 0n) {
    // Same x: either the same point (double) or its negation (sum is infinity).
    if (r === 0n) accDouble(a);
    else a.inf = true;
    return;
  }
  const hh = red(h * h);
  const hhh = red(h * hh);
  const v = red(a.X * hh);
  // + 3p and + p² keep the operands of red() non-negative (hhh + 2v < 3p, Y·hhh < p²).
  const x3 = red(r * r + P3 - hhh - 2n * v);
  let d = v - x3;
  if (d < 0n) d += P;
  const y3 = red(r * d + PP - a.Y * hhh);
  a.Z = red(a.Z * h);
  a.X = x3;
  a.Y = y3;
}

/**
 * Signed fixed-window table of one point B: for window w the affine multiples j·2^(w·W)·B,
 * j = 1 … 2^(W−1). k·B is then one affine addition per non-zero signed digit of k, no doublings.
 * Lookups index the table directly (variable-time): only for public scalars and points.
 */
export class FixedBaseTable {
  readonly windows: number;
  private readonly half: number;
  private readonly mask: bigint;
  private readonly shift: bigint;
  private readonly xs: bigint[];
  private readonly ys: bigint[];

  constructor(
    point: CurvePoint,
    readonly windowSize: number,
  ) {
    if (!Number.isInteger(windowSize) || windowSize < 2 || windowSize > 16)
      throw new RangeError('windowSize must be an integer in 2..16.');
    if (point.is0()) throw new RangeError('A table of the point at infinity is useless.');
    // One window more than 256/W: signed recoding can carry out of the top window.
    this.windows = Math.ceil(256 / windowSize) + 1;
    this.half = 2 ** (windowSize - 1);
    this.mask = (1n << BigInt(windowSize)) - 1n;
    this.shift = BigInt(windowSize);
    const proj: CurvePoint[] = [];
    let base = point;
    for (let w = 0; w < this.windows; w++) {
      let acc = base;
      for (let j = 1; j <= this.half; j++) {
        proj.push(acc);
        if (j < this.half) acc = acc.add(base);
      }
      base = acc.double(); // 2 · 2^(W−1) · base = next window's base
    }
    // Batch affine conversion (one inversion for the whole table, Montgomery's trick).
    const zs = proj.map((p) => p.Z);
    const prefix: bigint[] = new Array<bigint>(zs.length);
    let run = 1n;
    for (let i = 0; i < zs.length; i++) {
      prefix[i] = run;
      run = (run * zs[i]!) % P;
    }
    let inv = invert(run, P);
    this.xs = new Array<bigint>(zs.length);
    this.ys = new Array<bigint>(zs.length);
    for (let i = zs.length - 1; i >= 0; i--) {
      const zi = (inv * prefix[i]!) % P; // 1/Z_i
      inv = (inv * zs[i]!) % P;
      // noble's points are homogeneous projective: x = X/Z, y = Y/Z.
      this.xs[i] = (proj[i]!.X * zi) % P;
      this.ys[i] = (proj[i]!.Y * zi) % P;
    }
  }

  /** acc ← acc + k·B for 0 ≤ k < 2^256. */
  addMultiple(acc: Acc, k: bigint): void {
    const { half, mask, shift, xs, ys } = this;
    const full = half * 2;
    // Windows of a multiple of 4 bits are read from the hex string: one conversion instead of a
    // bigint shift and mask (two allocations) per window.
    const hexWindow = this.windowSize % 4 === 0 ? this.windowSize / 4 : 0;
    const hex = hexWindow > 0 ? k.toString(16) : '';
    let carry = 0;
    for (let w = 0; w < this.windows && ((hexWindow > 0 ? w * hexWindow < hex.length : k !== 0n) || carry !== 0); w++) {
      let d: number;
      if (hexWindow > 0) {
        const end = hex.length - w * hexWindow;
        d = (end > 0 ? parseInt(hex.slice(Math.max(0, end - hexWindow), end), 16) : 0) + carry;
      } else {
        d = Number(k & mask) + carry;
        k >>= shift;
      }
      if (d > half) {
        d -= full;
        carry = 1;
      } else carry = 0;
      if (d === 0) continue;
      const i = w * half + (d < 0 ? -d : d) - 1;
      const y = ys[i]!;
      accAddAffine(acc, xs[i]!, d < 0 ? P - y : y);
    }
  }
}

/** G tables are shared by every verifier of the process (built once per window size). */
const generatorTables = new Map<number, FixedBaseTable>();
function generatorTable(windowSize: number): FixedBaseTable {
  let t = generatorTables.get(windowSize);
  if (t === undefined) {
    t = new FixedBaseTable(Point.BASE, windowSize);
    generatorTables.set(windowSize, t);
  }
  return t;
}

interface CachedKey {
  point: CurvePoint;
  uses: number;
  table: FixedBaseTable | null;
}

export interface SignatureVerifierOptions {
  /** Signers whose keys are cached (least recently used dropped first). Default 256. */
  capacity?: number;
  /** Window of the per-signer tables: ⌈256/w⌉+1 additions per check, 2^(w−1)·(⌈256/w⌉+1) points kept. Default 8 (~0.5 MB). */
  windowSize?: number;
  /** Window of the generator table, built once per process at construction. Default 12 (~6 MB, ~0.3 s). */
  generatorWindowSize?: number;
  /** Build a signer's table on its n-th verified signature (one-off signers never pay). Default 2. */
  tablesAfter?: number;
}

/** One signature to check: the same inputs as `SignatureVerifier.verify`. */
export interface SignatureToCheck {
  digest: Uint8Array;
  signature: string;
  signer: string;
}

/**
 * Inverses of non-zero values mod m with one modular inversion (Montgomery's trick: 3 multiplications
 * per value). An inversion costs ~50 µs in bigint, two per signature check, so batching them matters.
 */
export function batchInvert(values: readonly bigint[], m: bigint): bigint[] {
  const out = new Array<bigint>(values.length);
  let run = 1n;
  for (let i = 0; i < values.length; i++) {
    out[i] = run;
    run = (run * values[i]!) % m;
  }
  let inv = invert(run, m);
  for (let i = values.length - 1; i >= 0; i--) {
    out[i] = (inv * out[i]!) % m;
    inv = (inv * values[i]!) % m;
  }
  return out;
}

interface Pending {
  index: number;
  key: CachedKey;
  h: bigint;
  r: bigint;
  s: bigint;
  recovery: number;
  acc?: Acc;
}

const hexDigits: string[] = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));
function digestToBigint(b: Uint8Array): bigint {
  let hex = '0x';
  for (let i = 0; i < 32; i++) hex += hexDigits[b[i]!]!;
  return BigInt(hex);
}

export class SignatureVerifier {
  private readonly keys = new Map<string, CachedKey>();
  private readonly capacity: number;
  private readonly windowSize: number;
  private readonly tablesAfter: number;
  private readonly g: FixedBaseTable;
  /** Counters for the benchmark's profile: checks against a cached key vs full recoveries. */
  readonly stats = { fast: 0, recovered: 0 };

  constructor(opts: SignatureVerifierOptions = {}) {
    this.capacity = opts.capacity ?? 256;
    this.windowSize = opts.windowSize ?? 8;
    this.tablesAfter = opts.tablesAfter ?? 2;
    // Built here, i.e. at service start, so no request pays for it.
    this.g = generatorTable(opts.generatorWindowSize ?? 12);
  }

  /** true iff `signature` is a valid low-s r‖s‖v (v 27/28 or 0/1) signature of `digest` by `expectedSigner`. */
  verify(digest: Uint8Array, signature: string, expectedSigner: string): boolean {
    if (
      typeof signature !== 'string' ||
      !SIG_RE.test(signature) ||
      digest.length !== 32 ||
      typeof expectedSigner !== 'string'
    )
      return false;
    const v = parseInt(signature.slice(130, 132), 16);
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return false;
    const r = BigInt(`0x${signature.slice(2, 66)}`);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    if (r === 0n || r >= N || s === 0n || s > HALF_N) return false;
    const signer = expectedSigner.toLowerCase();
    const cached = this.keys.get(signer);
    if (cached !== undefined) {
      this.stats.fast++;
      this.touch(signer, cached);
      return this.check(cached, digestToBigint(digest) % N, r, s, recovery);
    }
    this.stats.recovered++;
    let q: CurvePoint;
    try {
      // noble's 'recovered' layout is recovery ‖ r ‖ s: decode r‖s‖v one byte in, then overwrite v's slot.
      const buf = new Uint8Array(66);
      decodeHexInto(signature, buf, 1);
      buf[0] = recovery;
      q = secp256k1.Signature.fromBytes(buf.subarray(0, 65), 'recovered').recoverPublicKey(digest);
    } catch {
      return false;
    }
    if (publicKeyToAddress(q.toBytes(false)).toLowerCase() !== signer) return false;
    this.remember(signer, q);
    return true;
  }

  /**
   * The answers of `verify` for each item, in order, with the same counters. Signers that have a
   * table share two modular inversions across the batch (s⁻¹ mod n and the final Z⁻¹ mod p);
   * everything else goes through `verify` one by one. Every item is checked on its own inputs.
   */
  verifyBatch(items: readonly SignatureToCheck[]): boolean[] {
    const out = new Array<boolean>(items.length).fill(false);
    const pend: Pending[] = [];
    for (let i = 0; i < items.length; i++) {
      const { digest, signature, signer: expected } = items[i]!;
      const signer = typeof expected === 'string' ? expected.toLowerCase() : '';
      const cached = this.keys.get(signer);
      if (
        cached === undefined ||
        cached.table === null ||
        typeof signature !== 'string' ||
        !SIG_RE.test(signature) ||
        digest.length !== 32
      ) {
        out[i] = this.verify(digest, signature, expected);
        continue;
      }
      const v = parseInt(signature.slice(130, 132), 16);
      const recovery = v >= 27 ? v - 27 : v;
      if (recovery !== 0 && recovery !== 1) continue;
      const r = BigInt(`0x${signature.slice(2, 66)}`);
      const s = BigInt(`0x${signature.slice(66, 130)}`);
      if (r === 0n || r >= N || s === 0n || s > HALF_N) continue;
      this.stats.fast++;
      this.touch(signer, cached);
      // `cached` stays usable even if a later recovery in this batch evicts it from the cache.
      pend.push({ index: i, key: cached, h: digestToBigint(digest) % N, r, s, recovery });
    }
    if (pend.length === 0) return out;
    const sInv = batchInvert(
      pend.map((p) => p.s),
      N,
    );
    const hits: Pending[] = [];
    for (let j = 0; j < pend.length; j++) {
      const p = pend[j]!;
      const acc = newAcc();
      this.g.addMultiple(acc, (p.h * sInv[j]!) % N);
      p.key.table!.addMultiple(acc, (p.r * sInv[j]!) % N);
      // x = X/Z² = r without an inversion; only the survivors need affine y.
      if (acc.inf || acc.X !== (p.r * ((acc.Z * acc.Z) % P)) % P) continue;
      p.acc = acc;
      hits.push(p);
    }
    if (hits.length === 0) return out;
    const zInv = batchInvert(
      hits.map((p) => p.acc!.Z),
      P,
    );
    for (let j = 0; j < hits.length; j++) {
      const p = hits[j]!;
      const zi = zInv[j]!;
      const y = (((p.acc!.Y * ((zi * zi) % P)) % P) * zi) % P;
      out[p.index] = Number(y & 1n) === p.recovery;
    }
    return out;
  }

  /** R' = u1·G + u2·Q must be the point with x = r (no overflow: v is 27/28) and y parity = recovery. */
  private check(k: CachedKey, h: bigint, r: bigint, s: bigint, recovery: number): boolean {
    const is = invert(s, N);
    const u1 = (h * is) % N;
    const u2 = (r * is) % N;
    const acc = newAcc();
    this.g.addMultiple(acc, u1);
    if (k.table !== null) k.table.addMultiple(acc, u2);
    else {
      // Key cached but no table yet: one plain multiplication, added as an affine point.
      const qa = k.point.multiplyUnsafe(u2).toAffine();
      accAddAffine(acc, qa.x, qa.y);
    }
    if (acc.inf) return false;
    // x = X/Z² = r, checked without an inversion (most forgeries stop here).
    if (acc.X !== (r * ((acc.Z * acc.Z) % P)) % P) return false;
    return Number(accToAffine(acc)!.y & 1n) === recovery;
  }

  private touch(signer: string, k: CachedKey): void {
    k.uses++;
    if (k.table === null && k.uses >= this.tablesAfter) k.table = new FixedBaseTable(k.point, this.windowSize);
    // Map order is the LRU order: move to the back.
    this.keys.delete(signer);
    this.keys.set(signer, k);
  }

  private remember(signer: string, point: CurvePoint): void {
    if (this.keys.size >= this.capacity) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    const k: CachedKey = { point, uses: 1, table: null };
    this.keys.set(signer, k);
    if (this.tablesAfter <= 1) k.table = new FixedBaseTable(point, this.windowSize);
  }
}
