import { describe, expect, it } from 'vitest';
import { DigestSet, packDigest } from './digest-set';

/** A deterministic stream of canonical digests (xorshift words). */
function digests(count: number, seed = 1): string[] {
  let x = seed >>> 0 || 1;
  const word = (): string => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0).toString(16).padStart(8, '0');
  };
  return Array.from({ length: count }, () => `0x${Array.from({ length: 8 }, word).join('')}`);
}

describe('DigestSet', () => {
  it('answers membership exactly as a Set<string> over adds, repeats and lookups of absent digests', () => {
    const set = new DigestSet();
    const reference = new Set<string>();
    const all = digests(20_000);
    const absent = digests(2_000, 99);
    for (const [i, d] of all.entries()) {
      set.add(d);
      reference.add(d);
      if (i % 7 === 0) set.add(all[i >> 1]!); // a repeat changes nothing
      if (i % 997 === 0) for (const a of absent) expect(set.has(a)).toBe(false);
    }
    expect(set.size).toBe(reference.size);
    for (const d of all) expect(set.has(d)).toBe(true);
    expect([...set].sort()).toEqual([...reference].sort());
  });

  it('keeps a string that is not a lowercase digest as it came, apart from its lowercase twin', () => {
    const set = new DigestSet();
    const lower = digests(1)[0]!;
    const upper = `0x${lower.slice(2).toUpperCase()}`;
    set.add(upper).add('not a digest').add(`${lower}00`);
    expect(set.has(upper)).toBe(true);
    expect(set.has(lower)).toBe(false);
    expect(set.has('not a digest')).toBe(true);
    expect(set.size).toBe(3);
    set.add(lower);
    expect([...set].sort()).toEqual([lower, upper, `${lower}00`, 'not a digest'].sort());
  });

  it('holds the all-zero digest and one differing from a held digest in its last bit only', () => {
    const set = new DigestSet();
    const zero = `0x${'0'.repeat(64)}`;
    set.add(zero);
    expect(set.has(zero)).toBe(true);
    expect(set.has(`0x${'0'.repeat(63)}1`)).toBe(false);
    expect(set.size).toBe(1);
  });

  it('packs only canonical digests: 0x and 64 lowercase hex digits', () => {
    expect(packDigest(`0x${'ab'.repeat(32)}`)?.[0]).toBe(0xabababab);
    for (const bad of [
      '',
      '0x',
      `0X${'a'.repeat(64)}`,
      `0x${'g'.repeat(64)}`,
      `0x${'a'.repeat(63)}`,
      `0x${'é'.repeat(64)}`,
    ])
      expect(packDigest(bad)).toBeNull();
  });

  it('parses a digest asked again as it was, also after a string that failed part-way', () => {
    const [a, b] = digests(2, 5) as [string, string];
    const wordsOf = (d: string): number[] => [...(packDigest(d) ?? [])];
    const first = wordsOf(a);
    expect(wordsOf(b)).not.toEqual(first);
    expect(wordsOf(a)).toEqual(first);
    expect(packDigest(`${a.slice(0, 60)}zzzzzz`)).toBeNull(); // overwrote some words before failing
    expect(wordsOf(a)).toEqual(first);
    const set = new DigestSet().add(a);
    expect(set.has(`${a.slice(0, 60)}zzzzzz`)).toBe(false);
    expect(set.has(a)).toBe(true);
  });

  // Ids made by counting (bench/engine.bench.ts's `id()`) differ in a few bytes of one word; a hash that
  // skips that word puts them all on one slot and each lookup scans every earlier one.
  it.each([
    ['their last bytes', (n: number) => `0x01${n.toString(16).padStart(62, '0')}`],
    ['their first bytes', (n: number) => `0x${n.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`],
    ['a middle word', (n: number) => `0x${'cd'.repeat(12)}${n.toString(16).padStart(8, '0')}${'ef'.repeat(16)}`],
  ])('keeps lookups short for 50,000 digests that differ only in %s', (_, make) => {
    const set = new DigestSet();
    for (let n = 0; n < 50_000; n++) set.add(make(n));
    expect(set.size).toBe(50_000);
    for (let n = 0; n < 50_000; n += 97) expect(set.has(make(n))).toBe(true);
    expect(set.has(make(50_000))).toBe(false);
    // Linear probing at this load averages ~1.3 slots a lookup; the longest run seen over 300 sets was 29.
    const { average, longest } = set.probeStats();
    expect(average).toBeLessThan(2);
    expect(longest).toBeLessThan(64);
  });

  it('holds a digest in under 48 bytes once it holds many, where a Set of hex strings needs some 130', () => {
    const set = new DigestSet();
    for (const d of digests(50_000, 7)) set.add(d);
    expect(set.size).toBe(50_000);
    // 32 bytes each in chunks (the last one part empty) and a 4-byte index slot at most half full.
    expect(set.bytesHeld() / set.size).toBeGreaterThanOrEqual(32);
    expect(set.bytesHeld() / set.size).toBeLessThan(48);
    const few = new DigestSet().add(digests(1, 3)[0]!);
    expect(few.bytesHeld()).toBeLessThan(1_024); // an epoch with one order costs little
  });
});
