import { describe, expect, it } from 'vitest';
import { ExchangeHttpError, ExchangeTimeoutError } from '../errors';
import { DEFAULT_RETRY, isRateLimited, retryDelay } from './intents';

const limited = (retryAfterMs?: number) => new ExchangeHttpError(429, 'RATE_LIMITED', 'Slow down.', {}, 'POST', '/orders', retryAfterMs);

describe('retryDelay', () => {
  it('waits what the exchange asked for, capped by the policy, else backs off 1 s doubling', () => {
    expect(retryDelay(DEFAULT_RETRY, 1, limited(2_000))).toBe(2_000);
    expect(retryDelay(DEFAULT_RETRY, 3, limited(0))).toBe(0);
    expect(retryDelay(DEFAULT_RETRY, 1, limited(600_000))).toBe(30_000);
    expect(retryDelay(DEFAULT_RETRY, 3, limited())).toBe(4_000);
    expect(retryDelay(DEFAULT_RETRY, 2, new ExchangeTimeoutError('POST', '/orders', 30_000))).toBe(2_000);
  });

  it('treats only a 429 as rate limiting', () => {
    expect(isRateLimited(limited())).toBe(true);
    expect(isRateLimited(new ExchangeHttpError(503, 'UNAVAILABLE', 'Down.', {}, 'GET', '/health'))).toBe(false);
    expect(isRateLimited(new Error('429'))).toBe(false);
  });
});
