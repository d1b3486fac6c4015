import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import { fillOrder, signedBody } from '../../../test/support/exchange/testkit';

let fx: Fixture;
type Body = Record<string, unknown>;

beforeAll(async () => {
  fx = await startFixture({ bodyLimit: 4096 });
  await fx.svc.credit(fx.keys.alice.address, 10_000_000n);
});
afterAll(() => fx.close());

function goodOrderBody(): Body {
  const k = fx.keys.alice;
  return signedBody(
    'orders',
    fillOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 100_000n, size: 1_000_000n }),
    fx.svc.domain,
    k,
  );
}

describe('malformed input never changes state', () => {
  it('answers each bad request with a 4xx code and a sentence', async () => {
    const before = fx.svc.stateHash();
    const seqBefore = fx.svc.lastSeqId();
    const good = goodOrderBody();
    const order = good['order'] as Body;
    const cases: [string, () => Promise<{ status: number; body: unknown }>, number, string][] = [
      ['malformed JSON', () => fx.http.postRaw('/orders', '{"order":'), 400, 'INVALID_JSON'],
      ['array body', () => fx.http.post('/orders', []), 400, 'INVALID_REQUEST'],
      [
        'number instead of string',
        () => fx.http.post('/orders', { ...good, order: { ...order, size: 1000000 } }),
        400,
        'INVALID_ORDER_PARAMETERS',
      ],
      [
        'over-wide integer',
        () => fx.http.post('/orders', { ...good, order: { ...order, price: '16777216' } }),
        400,
        'INVALID_ORDER_PARAMETERS',
      ],
      [
        'leading zero',
        () => fx.http.post('/orders', { ...good, order: { ...order, epoch: '00' } }),
        400,
        'INVALID_ORDER_PARAMETERS',
      ],
      [
        'unknown action field',
        () => fx.http.post('/orders', { ...good, order: { ...order, extra: '1' } }),
        400,
        'INVALID_ORDER_PARAMETERS',
      ],
      ['unknown top-level field', () => fx.http.post('/orders', { ...good, extra: '1' }), 400, 'INVALID_REQUEST'],
      [
        'invalid address',
        () => fx.http.post('/orders', { ...good, order: { ...order, signer: '0x123' } }),
        400,
        'INVALID_AUTH_PARAMETERS',
      ],
      [
        'bad time in force',
        () => fx.http.post('/orders', { ...good, order: { ...order, timeInForce: '4' } }),
        400,
        'INVALID_TIME_IN_FORCE',
      ],
      [
        'missing signature',
        () => fx.http.post('/orders', { order, chainId: '31337', orderHash: good['orderHash'] }),
        400,
        'MISSING_ORDER_OR_SIGNATURE',
      ],
      [
        'missing action',
        () =>
          fx.http.post('/cancels', { chainId: '31337', orderHash: good['orderHash'], signature: good['signature'] }),
        400,
        'MISSING_CANCEL_OR_SIGNATURE',
      ],
      ['short signature', () => fx.http.post('/orders', { ...good, signature: '0x1234' }), 400, 'INVALID_REQUEST'],
      ['chainId as number', () => fx.http.post('/orders', { ...good, chainId: 31337 }), 400, 'INVALID_REQUEST'],
      [
        'oversized body',
        () => fx.http.postRaw('/orders', JSON.stringify({ ...good, pad: 'x'.repeat(10_000) })),
        413,
        'BODY_TOO_LARGE',
      ],
      ['unknown route', () => fx.http.get('/nope'), 404, 'ROUTE_NOT_FOUND'],
      ['wrong method', () => fx.http.request('DELETE', '/orders'), 405, 'METHOD_NOT_ALLOWED'],
      ['GET on a POST route', () => fx.http.get('/orders'), 405, 'METHOD_NOT_ALLOWED'],
      ['bad percent-encoding', () => fx.http.get('/balance/%E0%A4%A'), 400, 'INVALID_PATH'],
    ];
    for (const [name, call, status, code] of cases) {
      const res = await call();
      expect([name, res.status]).toEqual([name, status]);
      expect(res.body).toEqual(
        expect.objectContaining({ error: code, message: expect.stringMatching(/\w+/) as unknown }),
      );
    }
    const wrongType = await fx.http.request('POST', '/orders', undefined, 'x');
    expect(wrongType.status).toBe(400);
    expect(fx.svc.stateHash()).toBe(before);
    expect(fx.svc.lastSeqId()).toBe(seqBefore);
    // Field issues carry the codes and paths of docs/protocol/endpoints.md#validation-issue-codes.
    const issues = (await fx.http.post<Body>('/orders', { ...good, order: { ...order, size: 1000000 } })).body[
      'issues'
    ];
    expect(issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: '$.order.size' })]);
    // The service still works afterwards.
    expect((await fx.http.post('/orders', goodOrderBody())).status).toBe(202);
  });

  it('rejects a body far over the limit without reading it all', async () => {
    const res = await fetch(`${fx.svc.httpUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1_000_000),
    }).catch((e: unknown) => e);
    // Either the 413 arrives or the server closed the connection mid-upload; it must not crash.
    if (res instanceof Response) expect(res.status).toBe(413);
    expect((await fx.http.get('/health')).status).toBe(200);
  });
});
