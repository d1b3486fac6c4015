// Server-side signature check (§2.1): "does this 65-byte r‖s‖v signature over `digest` come from
// `expectedSigner`?". Same answer as recoverDigestSigner(digest, sig) === signer, but faster for
// signers seen before: their public key is cached with precomputed multiplication tables, so the
// check is u1·G + u2·Q with both points precomputed instead of a full recovery (which must
// decompress R and multiply an unknown point). First-time signers take the recovery path.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeHexInto, publicKeyToAddress } from '../../shared/protocol';

const { Point } = secp256k1;
const Fn = Point.Fn;
const N = Fn.ORDER;
const HALF_N = N >> 1n;
const SIG_RE = /^0x[0-9a-fA-F]{130}$/;

type CurvePoint = InstanceType<typeof Point>;

interface CachedKey {
  point: CurvePoint;
  uses: number;
  tables: boolean;
}

export interface SignatureVerifierOptions {
  /** Signers whose keys are cached (least recently used dropped first). Default 256. */
  capacity?: number;
  /** wNAF window of the per-signer tables (memory ~ 2^(w-1) · 256/w points). Default 8. */
  windowSize?: number;
  /** Build tables on a signer's n-th verified signature (one-off signers never pay). Default 2. */
  tablesAfter?: number;
}

function bytesToBigint(b: Uint8Array, start: number, end: number): bigint {
  let hex = '0x';
  for (let i = start; i < end; i++) hex += (b[i]! < 16 ? '0' : '') + b[i]!.toString(16);
  return BigInt(hex);
}

export class SignatureVerifier {
  private readonly keys = new Map<string, CachedKey>();
  private readonly capacity: number;
  private readonly windowSize: number;
  private readonly tablesAfter: number;
  /** Counters for the benchmark's profile. */
  readonly stats = { fast: 0, recovered: 0 };

  constructor(opts: SignatureVerifierOptions = {}) {
    this.capacity = opts.capacity ?? 256;
    this.windowSize = opts.windowSize ?? 8;
    this.tablesAfter = opts.tablesAfter ?? 2;
  }

  /** true iff `signature` is a valid low-s r‖s‖v (v 27/28 or 0/1) signature of `digest` by `expectedSigner`. */
  verify(digest: Uint8Array, signature: string, expectedSigner: string): boolean {
    if (typeof signature !== 'string' || !SIG_RE.test(signature) || digest.length !== 32) return false;
    const sig = new Uint8Array(65);
    if (!decodeHexInto(signature, sig, 0)) return false;
    const v = sig[64]!;
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return false;
    const r = bytesToBigint(sig, 0, 32);
    const s = bytesToBigint(sig, 32, 64);
    if (r === 0n || r >= N || s === 0n || s > HALF_N) return false;
    const h = Fn.create(bytesToBigint(digest, 0, 32));
    const signer = expectedSigner.toLowerCase();
    const cached = this.keys.get(signer);
    if (cached !== undefined) {
      this.stats.fast++;
      this.touch(signer, cached);
      return this.check(cached.point, h, r, s, recovery);
    }
    this.stats.recovered++;
    let q: CurvePoint;
    try {
      const rec = new Uint8Array(65);
      rec[0] = recovery;
      rec.set(sig.subarray(0, 64), 1);
      q = secp256k1.Signature.fromBytes(rec, 'recovered').recoverPublicKey(digest);
    } catch {
      return false;
    }
    if (publicKeyToAddress(q.toBytes(false)).toLowerCase() !== signer) return false;
    this.remember(signer, q);
    return true;
  }

  /** R = h/s·G + r/s·Q must have x = r (no overflow: v is 27/28) and y parity = recovery. */
  private check(q: CurvePoint, h: bigint, r: bigint, s: bigint, recovery: number): boolean {
    const is = Fn.inv(s);
    const R = Point.BASE.multiplyUnsafe(Fn.create(h * is)).add(q.multiplyUnsafe(Fn.create(r * is)));
    if (R.is0()) return false;
    const a = R.toAffine();
    return a.x === r && Number(a.y & 1n) === recovery;
  }

  private touch(signer: string, k: CachedKey): void {
    k.uses++;
    if (!k.tables && k.uses >= this.tablesAfter) {
      k.point.precompute(this.windowSize, false);
      k.tables = true;
    }
    // Map order is the LRU order: move to the back.
    this.keys.delete(signer);
    this.keys.set(signer, k);
  }

  private remember(signer: string, point: CurvePoint): void {
    if (this.keys.size >= this.capacity) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    // A fresh instance: tables attach to the point object, so each cached key gets its own.
    const fresh = Point.fromAffine(point.toAffine());
    this.keys.set(signer, { point: fresh, uses: 1, tables: false });
    if (this.tablesAfter <= 1) this.touch(signer, this.keys.get(signer)!);
  }
}
