/**
 * A set of used digests that holds each 32-byte digest in 32 bytes (plus a 4-byte index slot at most
 * half full), where a Set of 66-character hex strings costs some 130 bytes each. The engine keeps every
 * processed digest of a live epoch (digests are single-use), so this is what a busy practice exchange's
 * memory grows with between resolutions (bench/practice.bench.ts's soak).
 *
 * Lowercase `0x` + 64 hex digits are packed; any other string (uppercase, another length: the engine
 * never makes one, but a Set<string> would keep it as it came) is kept as it came, in a plain Set, so
 * membership is exactly that of a Set<string>. Nothing is ever removed: a set is dropped whole (the
 * digests of a resolved epoch). The hash is keyed per set at random, so digests ground to collide in
 * the index of one set are no cheaper to find than any other; iteration order is not defined.
 */

/** Words of one digest. */
const WORDS = 8;
/** Digests per chunk at first, doubling to the largest, so a set of one epoch's few digests stays small. */
const FIRST_CHUNK = 16;
const LARGEST_CHUNK = 4_096;
const FIRST_INDEX = 32;

/** The value of a lowercase hex digit's char code, or -1. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[97 + c] = 10 + c;

const seedWord = (): number => (Math.random() * 0x1_0000_0000) >>> 0;

export class DigestSet implements Iterable<string> {
  /** Packed digests, in insertion order across chunks. */
  #chunks: Uint32Array[] = [];
  #count = 0;
  /** Digests the chunks have room for. */
  #room = 0;
  /** Open addressing with linear probing: entry number + 1, 0 when empty. */
  #index = new Uint32Array(FIRST_INDEX);
  #other: Set<string> | null = null;
  readonly #seedA = seedWord();
  readonly #seedB = seedWord();

  get size(): number {
    return this.#count + (this.#other?.size ?? 0);
  }

  /** Bytes of its packed digests' chunks and index (strings kept as they came are not counted). */
  bytesHeld(): number {
    return this.#chunks.reduce((sum, c) => sum + c.byteLength, this.#index.byteLength);
  }

  has(digest: string): boolean {
    const words = packDigest(digest);
    return words === null ? (this.#other?.has(digest) ?? false) : this.#find(words) >= 0;
  }

  /** has() for a digest packDigest() answered (several sets asked of one digest parse it once). */
  hasPacked(words: Uint32Array): boolean {
    return this.#find(words) >= 0;
  }

  add(digest: string): this {
    const words = packDigest(digest);
    if (words === null) {
      (this.#other ??= new Set()).add(digest);
      return this;
    }
    const slot = this.#find(words);
    if (slot >= 0) return this;
    this.#append(words);
    this.#index[~slot] = this.#count;
    if (this.#count * 2 > this.#index.length) this.#grow();
    return this;
  }

  *[Symbol.iterator](): IterableIterator<string> {
    let n = 0;
    for (const chunk of this.#chunks) {
      for (let at = 0; at < chunk.length && n < this.#count; at += WORDS, n++) yield hexOf(chunk, at);
    }
    if (this.#other) yield* this.#other;
  }

  #hash(words: Uint32Array): number {
    let h = Math.imul(words[0]! ^ this.#seedA, 0x85eb_ca6b) ^ Math.imul(words[5]! ^ this.#seedB, 0xc2b2_ae35);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b_3c6d);
    return (h ^ (h >>> 13)) >>> 0;
  }

  /** The slot holding `words`, or ~slot of the empty one where it would go. */
  #find(words: Uint32Array): number {
    const index = this.#index;
    const mask = index.length - 1;
    for (let slot = this.#hash(words) & mask; ; slot = (slot + 1) & mask) {
      const entry = index[slot]!;
      if (entry === 0) return ~slot;
      if (this.#equals(entry - 1, words)) return slot;
    }
  }

  #equals(n: number, words: Uint32Array): boolean {
    const [chunk, at] = this.#locate(n);
    for (let w = 0; w < WORDS; w++) if (chunk[at + w] !== words[w]) return false;
    return true;
  }

  /** Chunk sizes double from FIRST_CHUNK up to LARGEST_CHUNK digests. */
  #locate(n: number): [Uint32Array, number] {
    let c = 0;
    let size = FIRST_CHUNK;
    while (size < LARGEST_CHUNK && n >= size) {
      n -= size;
      c++;
      size *= 2;
    }
    if (size === LARGEST_CHUNK) {
      c += Math.floor(n / LARGEST_CHUNK);
      n %= LARGEST_CHUNK;
    }
    return [this.#chunks[c]!, n * WORDS];
  }

  /** Writes `words` as entry number #count and counts it. */
  #append(words: Uint32Array): void {
    const n = this.#count;
    if (n === this.#room) {
      const size = Math.min(LARGEST_CHUNK, FIRST_CHUNK * 2 ** this.#chunks.length);
      this.#chunks.push(new Uint32Array(size * WORDS));
      this.#room += size;
    }
    const [chunk, at] = this.#locate(n);
    chunk.set(words, at);
    this.#count = n + 1;
  }

  #grow(): void {
    const index = new Uint32Array(this.#index.length * 2);
    const mask = index.length - 1;
    const words = new Uint32Array(WORDS);
    for (let n = 0; n < this.#count; n++) {
      const [chunk, at] = this.#locate(n);
      for (let w = 0; w < WORDS; w++) words[w] = chunk[at + w]!;
      let slot = this.#hash(words) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = n + 1;
    }
    this.#index = index;
  }
}

/** Scratch for the digest being looked up (one thread, nothing awaited while it is used). */
const SCRATCH = new Uint32Array(WORDS);

/**
 * A canonical digest's words, in a scratch array good until the next call; null for any other string.
 * Hex digits are read by char code: no substring per word.
 */
export function packDigest(digest: string): Uint32Array | null {
  if (digest.length !== 66 || digest.charCodeAt(0) !== 48 || digest.charCodeAt(1) !== 120) return null;
  for (let w = 0, i = 2; w < WORDS; w++) {
    let word = 0;
    for (const end = i + 8; i < end; i++) {
      const c = digest.charCodeAt(i);
      const v = c < 128 ? HEX[c]! : -1;
      if (v < 0) return null;
      word = (word << 4) | v;
    }
    SCRATCH[w] = word >>> 0;
  }
  return SCRATCH;
}

function hexOf(chunk: Uint32Array, at: number): string {
  let s = '0x';
  for (let w = 0; w < WORDS; w++) s += chunk[at + w]!.toString(16).padStart(8, '0');
  return s;
}
