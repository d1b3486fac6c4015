// 429 end to end: the exchange service limits agent approvals and revocations per master (a token
// bucket on the exchange's clock) and answers 429 RATE_LIMITED with Retry-After; the client sends
// the same bytes again after that wait, and says so in a sentence when it runs out of attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError, type Timers } from '../../src/client';
import { DigestSigner, hexToBytes } from '../../src/shared/protocol';
import { KEYS, startDevnet, type Devnet } from './helpers';

let net: Devnet;
/** Every wait the client asks for, and the exchange clock moved on by it (so the bucket refills). */
const waits: number[] = [];
const timers: Timers = {
  setTimeout: (fn, ms) => {
    waits.push(ms);
    net.time.now += ms;
    return setTimeout(fn, 0);
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
const AGENT = new DigestSigner(KEYS.agent).address;

beforeAll(async () => {
  net = await startDevnet({ agentRateLimit: { perSecond: 1, burst: 2 } });
});
afterAll(async () => {
  await net?.svc.stop();
});

describe('agent routes under a rate limit', () => {
  it("retries a 429 after the exchange's Retry-After with the same signed bytes, and succeeds", async () => {
    const statuses: unknown[] = [];
    const master = net.client(KEYS.master, {
      timers,
      onResponse: (r) =>
        statuses.push((r.body as { error?: string; status?: string }).error ?? (r.body as { status?: string }).status),
    });
    const nowSec = () => BigInt(Math.floor(net.time.now / 1000));
    await master.getBalance(AGENT); // a body `ts` teaches the client the exchange's clock (hand-driven here)
    statuses.length = 0;
    // Two approvals spend the burst; the third is turned away once, waits 1 s and goes through.
    for (let i = 0; i < 3; i++) {
      expect(await master.approveAgent({ agent: AGENT, approvalNonce: nowSec() + 150n + BigInt(i) })).toMatchObject({
        status: 'SUCCESS',
      });
    }
    expect(statuses).toEqual(['SUCCESS', 'SUCCESS', 'RATE_LIMITED', 'SUCCESS']);
    expect(waits).toEqual([1000]);
    master.http.close();
  });

  it("gives up after the policy's attempts with the code, the wait asked for and a sentence", async () => {
    const master = net.client(KEYS.master, {
      timers,
      retry: { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 30_000 },
    });
    await master.getBalance(AGENT);
    // The bucket is empty again after the last test's third approval; revocations share it.
    const err = await master.revokeAgent().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExchangeHttpError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 1000 });
    expect((err as Error).message).toMatch(/Too many agent approvals or revocations/);
    // After the wait the same master may revoke.
    net.time.now += 1000;
    expect(await master.revokeAgent()).toMatchObject({ status: 'SUCCESS' });
    master.http.close();
  });

  it("spends a master's budget only on requests it really signed, never on replays, and never another master's", async () => {
    const master = net.client(KEYS.master);
    await master.getBalance(AGENT);
    const post = async (bodyText: string) => {
      const res = await fetch(`${net.svc.httpUrl}/agents/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bodyText,
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { error?: string; status?: string },
      };
    };
    net.time.now += 1000; // one token
    const signed = await master.buildSignedApproveAgent({
      agent: AGENT,
      approvalNonce: BigInt(Math.floor(net.time.now / 1000)) + 200n,
    });
    // Someone else's signature over the master's approval is refused as such, before any limit.
    const forged = {
      ...(JSON.parse(signed.bodyText) as Record<string, unknown>),
      signature: new DigestSigner(KEYS.other).sign(hexToBytes(signed.orderHash)),
    };
    expect(await post(JSON.stringify(forged))).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE' } });
    // So the token is still there for the real request; its replay is a replay, not a 429.
    expect(await post(signed.bodyText)).toMatchObject({ status: 202, body: { status: 'SUCCESS' } });
    expect(await post(signed.bodyText)).toMatchObject({ status: 404, body: { error: 'ENTRY_PROCESSED' } });
    // The next real one finds the bucket empty: 429 with the wait in whole seconds.
    const next = await master.buildSignedApproveAgent({
      agent: AGENT,
      approvalNonce: BigInt(Math.floor(net.time.now / 1000)) + 201n,
    });
    expect(await post(next.bodyText)).toMatchObject({ status: 429, retryAfter: '1', body: { error: 'RATE_LIMITED' } });
    // Another master has a budget of its own.
    const other = net.client(KEYS.other);
    await other.getBalance(AGENT);
    expect(
      await other.approveAgent({ agent: AGENT, approvalNonce: BigInt(Math.floor(net.time.now / 1000)) + 150n }),
    ).toMatchObject({ status: 'SUCCESS' });
    other.http.close();
    master.http.close();
  });
});
