import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vectors } from '../../../test/protocol/vector-helpers';
import { NonceManager, makeNonce, nonceCounter, nonceTimestampMs } from './index';

describe('nonce vectors', () => {
  it.each(vectors.nonces.cases.map((c) => [c.nonce, c] as const))('%s', (_n, c) => {
    const n = makeNonce(BigInt(c.timestampMs), BigInt(c.counter));
    expect(n).toBe(BigInt(c.nonce));
    expect(`0x${n.toString(16).padStart(16, '0')}`).toBe(c.nonceHex);
    expect(nonceTimestampMs(n)).toBe(BigInt(c.timestampMs));
    expect(nonceCounter(n)).toBe(BigInt(c.counter));
  });
});

describe('NonceManager', () => {
  it('first nonce in the construction millisecond has counter 1; frozen clock gives 1, 2', () => {
    const m = new NonceManager(() => 1780300805250);
    expect(m.next()).toBe(116673793572864001n);
    expect(nonceCounter(m.next())).toBe(2n);
  });

  it('a new millisecond resets the counter to 0', () => {
    let t = 1780300805249;
    const m = new NonceManager(() => t);
    t = 1780300805250;
    expect(m.next()).toBe(116673793572864000n);
  });

  it('keeps the logical timestamp when the clock goes backwards', () => {
    let t = 1_000_000;
    const m = new NonceManager(() => t);
    const a = m.next();
    t = 999_000;
    const b = m.next();
    expect(b).toBe(a + 1n);
    expect(nonceTimestampMs(b)).toBe(1_000_000n);
  });

  it('counter overflow moves to the next millisecond with counter 0', () => {
    const m = new NonceManager(() => 1793491200000);
    let last = 0n;
    for (let i = 0; i < 65535; i++) last = m.next();
    expect(last).toBe(117538239283265535n);
    const next = m.next();
    expect(nonceTimestampMs(next)).toBe(1793491200001n);
    expect(nonceCounter(next)).toBe(0n);
  });

  it('is strictly increasing under any clock sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000_000 }), { minLength: 1, maxLength: 300 }), (times) => {
        let i = 0;
        const m = new NonceManager(() => times[Math.min(i++, times.length - 1)]!);
        let prev = -1n;
        for (let k = 0; k < times.length; k++) {
          const n = m.next();
          expect(n > prev).toBe(true);
          prev = n;
        }
      }),
    );
  });

  it('rejects a broken clock', () => {
    expect(() => new NonceManager(() => Number.NaN)).toThrow();
    expect(() => new NonceManager(() => -1)).toThrow();
  });
});
