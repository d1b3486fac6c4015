import { describe, expect, it } from 'vitest';
import { ExchangeHttpError, ExchangeTimeoutError } from '../errors';
import { DEFAULT_RETRY, IntentLedger, isRateLimited, retryDelay } from './intents';
import type { SignedAction } from './signed-actions';

const limited = (retryAfterMs?: number) =>
  new ExchangeHttpError(429, 'RATE_LIMITED', 'Slow down.', {}, 'POST', '/orders', retryAfterMs);

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

describe('IntentLedger', () => {
  it('holds at most `limit` intents: the oldest whose outcome is unknown is forgotten first', async () => {
    const ledger = new IntentLedger(3);
    const signed = () => Promise.resolve({ kind: 'orders', bodyText: '{}' } as unknown as SignedAction<'orders'>);
    for (let i = 0; i < 10; i++) ledger.settle(await ledger.take(`k${i}`, signed), 'unknown');
    expect(ledger.unknown().map((i) => i.key)).toEqual(['k7', 'k8', 'k9']);
  });

  it('never forgets an intent in flight to stay within its bound', async () => {
    const ledger = new IntentLedger(2);
    const signed = () => Promise.resolve({ kind: 'orders', bodyText: '{}' } as unknown as SignedAction<'orders'>);
    const inFlight = [await ledger.take('a', signed), await ledger.take('b', signed), await ledger.take('c', signed)];
    ledger.settle(inFlight[0]!, 'unknown');
    // 'a' is unknown, 'b' and 'c' pending: the unknown one went when 'd' came.
    await ledger.take('d', signed);
    expect(ledger.unknown()).toEqual([]);
    ledger.settle(inFlight[1]!, 'unknown');
    expect(ledger.unknown().map((i) => i.key)).toEqual(['b']);
  });
});
