/** mulberry32: a tiny seeded PRNG, identical on every platform, so bots, the oracle, chaos tests and benchmarks replay from a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value in [base − spread, base + spread], for jittered timers. */
export function jitter(random: () => number, base: number, spread: number): number {
  return Math.round(base - spread + random() * 2 * spread);
}
