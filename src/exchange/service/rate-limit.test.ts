import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('lets a burst through, then one per refill interval, per key, and says how long to wait', () => {
    const clock = { now: 1_000_000 };
    const limiter = new RateLimiter({ perSecond: 2, burst: 3 }, () => clock.now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 500 });
    expect(limiter.take('b')).toEqual({ ok: true }); // another key has its own bucket
    clock.now += 300;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 200 }); // 0.6 of a token so far
    clock.now += 200;
    expect(limiter.take('a')).toEqual({ ok: true });
    // A long quiet spell refills to the burst, no further.
    clock.now += 60_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });

  it('refills nothing when the clock steps back, and refuses a limit that admits nothing', () => {
    const clock = { now: 5_000 };
    const limiter = new RateLimiter({ perSecond: 1, burst: 1 }, () => clock.now);
    expect(limiter.take('a').ok).toBe(true);
    clock.now -= 10_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(() => new RateLimiter({ perSecond: 0, burst: 1 }, () => 0)).toThrow(RangeError);
    expect(() => new RateLimiter({ perSecond: 1, burst: 0 }, () => 0)).toThrow(RangeError);
  });

  it('forgets idle accounts once it tracks many, keeping the ones still refilling', () => {
    const clock = { now: 0 };
    const limiter = new RateLimiter({ perSecond: 1, burst: 1 }, () => clock.now);
    expect(limiter.take('busy').ok).toBe(true);
    for (let i = 0; i < 9_999; i++) limiter.take(`idle ${i}`);
    expect(limiter.tracked).toBe(10_000);
    clock.now += 1000; // every bucket so far is full again
    expect(limiter.take('live').ok).toBe(true); // the 10,001st account: a prune drops the full ones
    expect(limiter.tracked).toBe(1);
    expect(limiter.take('live')).toEqual({ ok: false, retryAfterMs: 1000 }); // the live key kept its state
  });
});
