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
/** Chunks before they reach LARGEST_CHUNK, and the digests those hold. */
const DOUBLING_CHUNKS = Math.log2(LARGEST_CHUNK / FIRST_CHUNK);
const DOUBLING_END = FIRST_CHUNK * (2 ** DOUBLING_CHUNKS - 1);

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

  /**
   * Every word counts: ids that differ only in a few bytes of any word (counters at the end, tags at the
   * front) must spread over the index, or linear probing turns into a scan of every earlier digest. Each
   * word goes through a multiply and xorshift on top of the running state, which starts at this set's
   * random key, so how two digests' differences cancel depends on the key: a collision found for one set
   * (or offline) is no collision in another. murmur3's finaliser then spreads the last word's low bits.
   * `words` from `at` on: a lookup's scratch, or a held entry in its chunk.
   */
  #hash(words: Uint32Array, at: number): number {
    let h = this.#seedA;
    for (let w = 0; w < WORDS; w++) {
      h = Math.imul(h ^ words[at + w]!, 0x85eb_ca6b);
      h ^= h >>> 13;
    }
    h ^= this.#seedB;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85eb_ca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2_ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  /**
   * Slots visited to find each held digest, over all of them (a diagnostic for tests: a good hash keeps
   * the average under 2 at this load). Read off the index, so lookups pay nothing for it.
   */
  probeStats(): { average: number; longest: number } {
    const index = this.#index;
    const mask = index.length - 1;
    let total = 0;
    let longest = 0;
    for (let slot = 0; slot < index.length; slot++) {
      const entry = index[slot]!;
      if (entry === 0) continue;
      const probes = ((slot - this.#hashOf(entry - 1)) & mask) + 1;
      total += probes;
      longest = Math.max(longest, probes);
    }
    return { average: this.#count === 0 ? 0 : total / this.#count, longest };
  }

  /** The slot holding `words`, or ~slot of the empty one where it would go. */
  #find(words: Uint32Array): number {
    const index = this.#index;
    const mask = index.length - 1;
    for (let slot = this.#hash(words, 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = index[slot]!;
      if (entry === 0) return ~slot;
      if (this.#equals(entry - 1, words)) return slot;
    }
  }

  #equals(n: number, words: Uint32Array): boolean {
    const c = chunkOf(n);
    const chunk = this.#chunks[c]!;
    const at = (n - chunkStart(c)) * WORDS;
    for (let w = 0; w < WORDS; w++) if (chunk[at + w] !== words[w]) return false;
    return true;
  }

  /** The hash of entry number `n`, read where it is held (growing rehashes every entry). */
  #hashOf(n: number): number {
    const c = chunkOf(n);
    return this.#hash(this.#chunks[c]!, (n - chunkStart(c)) * WORDS);
  }

  /** Writes `words` as entry number #count and counts it. */
  #append(words: Uint32Array): void {
    const n = this.#count;
    if (n === this.#room) {
      const size = Math.min(LARGEST_CHUNK, FIRST_CHUNK * 2 ** this.#chunks.length);
      this.#chunks.push(new Uint32Array(size * WORDS));
      this.#room += size;
    }
    const c = chunkOf(n);
    this.#chunks[c]!.set(words, (n - chunkStart(c)) * WORDS);
    this.#count = n + 1;
  }

  #grow(): void {
    const index = new Uint32Array(this.#index.length * 2);
    const mask = index.length - 1;
    for (let n = 0; n < this.#count; n++) {
      let slot = this.#hashOf(n) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = n + 1;
    }
    this.#index = index;
  }
}

/**
 * Chunk sizes double from FIRST_CHUNK up to LARGEST_CHUNK digests; entry number `n` is in chunk
 * chunkOf(n), which starts at entry chunkStart(c). Arithmetic, not a walk: every probe's compare asks.
 */
function chunkOf(n: number): number {
  return n < DOUBLING_END
    ? 31 - Math.clz32(Math.floor(n / FIRST_CHUNK) + 1)
    : DOUBLING_CHUNKS + Math.floor((n - DOUBLING_END) / LARGEST_CHUNK);
}

function chunkStart(c: number): number {
  return c < DOUBLING_CHUNKS ? FIRST_CHUNK * (2 ** c - 1) : DOUBLING_END + (c - DOUBLING_CHUNKS) * LARGEST_CHUNK;
}

/** Scratch for the digest being looked up (one thread, nothing awaited while it is used). */
const SCRATCH = new Uint32Array(WORDS);
/**
 * The string SCRATCH holds the words of, or null. The engine asks has() of a digest and then add()s it
 * (engine.ts: used(), then consume()); parsing 64 hex digits is most of a lookup, so it is done once.
 */
let scratchOf: string | null = null;

/**
 * A canonical digest's words, in a scratch array good until the next call (read it, never write it: a
 * repeat call with the same string returns it unparsed); null for any other string. Hex digits are read
 * by char code: no substring per word.
 */
export function packDigest(digest: string): Uint32Array | null {
  if (digest === scratchOf) return SCRATCH;
  scratchOf = null;
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
  scratchOf = digest;
  return SCRATCH;
}

function hexOf(chunk: Uint32Array, at: number): string {
  let s = '0x';
  for (let w = 0; w < WORDS; w++) s += chunk[at + w]!.toString(16).padStart(8, '0');
  return s;
}
