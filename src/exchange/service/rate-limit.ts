// Token buckets per account for the routes the protocol lets answer 429 (docs/protocol/endpoints.md#error-codes) (agent
// approval and revocation). Fed by the service's clock, so a test that drives time drives the refill too.

export interface RateLimit {
  /** Tokens added per second. */
  perSecond: number;
  /** Bucket size: requests that may arrive at once after a quiet spell. */
  burst: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/** Above this many tracked accounts, full (idle) buckets are dropped: they carry no state. */
const PRUNE_AT = 10_000;

export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly limit: RateLimit,
    private readonly nowMs: () => number,
  ) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1))
      throw new RangeError('A rate limit needs perSecond > 0 and burst ≥ 1.');
  }

  /** Accounts with a bucket in memory. */
  get tracked(): number {
    return this.#buckets.size;
  }

  /** Spends one token of `key`'s bucket, or says how long until one is there. */
  take(key: string): Take {
    const now = this.nowMs();
    const b = this.#buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    // A clock that steps back (tests, NTP) refills nothing rather than draining the bucket.
    b.tokens = Math.min(this.limit.burst, b.tokens + (Math.max(0, now - b.at) * this.limit.perSecond) / 1000);
    b.at = now;
    this.#buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      if (this.#buckets.size > PRUNE_AT) this.#prune(now);
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - b.tokens) * 1000) / this.limit.perSecond) };
  }

  #prune(now: number): void {
    for (const [k, b] of this.#buckets) {
      if (b.tokens + ((now - b.at) * this.limit.perSecond) / 1000 >= this.limit.burst) this.#buckets.delete(k);
    }
  }
}
