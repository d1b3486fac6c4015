import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeExchangeDomain, ZERO_HASH, type Address, type DigestSigner, type Hex } from '../../shared/protocol';
import { EXCHANGE, LEDGER, startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import {
  cancelOrder,
  cancelReplaceBody,
  cancelReplaceOrder,
  claimOrder,
  fillOrder,
  invalidateOrder,
  pauseOrder,
  resolutionOrder,
  signedBody,
  withdrawalOrder,
} from '../../../test/support/exchange/testkit';

let fx: Fixture;
const C = 1_000_000n; // one contract / one token

beforeAll(async () => {
  fx = await startFixture();
  await fx.svc.credit(fx.keys.alice.address, 1_000n * C);
  await fx.svc.credit(fx.keys.bob.address, 1_000n * C);
  await fx.svc.credit(fx.keys.carol.address, 5n * C);
});
afterAll(() => fx.close());
afterEach(() => {
  expect(fx.svc.checkInvariants()).toEqual([]);
});

const domain = () => fx.svc.domain;
type Body = Record<string, unknown>;

async function placeOrder(
  key: DigestSigner,
  side: boolean,
  price: bigint,
  size: bigint,
  more: { tif?: bigint; assetId?: bigint; epoch?: bigint } = {},
) {
  const order = fillOrder(
    { key },
    {
      assetId: more.assetId ?? fx.btc.assetId,
      epoch: more.epoch ?? 0n,
      side,
      price,
      size,
      timeInForce: more.tif ?? 0n,
    },
  );
  const body = signedBody('orders', order, domain(), key);
  const res = await fx.http.post<Body>('/orders', body);
  return { res, order, body, orderHash: body['orderHash'] as Hex };
}

describe('read routes', () => {
  it('serves health, chain config, domain and the asset', async () => {
    expect(await fx.http.get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await fx.http.get('/config/chains/31337')).toEqual({
      status: 200,
      body: { chainId: '31337', contracts: { exchange: EXCHANGE, ledger: LEDGER } },
    });
    expect((await fx.http.get('/config/chains/1')).status).toBe(404);
    expect((await fx.http.get('/config/domain/31337')).body).toEqual({
      chainId: '31337',
      name: 'Service Exchange',
      version: '2',
      verifyingContract: EXCHANGE,
    });
    const asset = await fx.http.get<Body>(`/asset/${fx.btc.assetId}`);
    expect(asset.status).toBe(200);
    expect(asset.body).toMatchObject({
      assetId: fx.btc.assetId.toString(),
      epoch: '0',
      registered: true,
      assetType: '2',
      isResolved: false,
      resolutionPrice: '0',
      ledger: LEDGER,
    });
    expect(asset.body['expiration']).toBe((fx.btc.startTime + 60n).toString());
    // Oracle strike: the price at the epoch start, a positive integer on the USD × 10^6 scale.
    expect(BigInt(asset.body['strikePrice'] as string)).toBeGreaterThan(0n);
    expect((await fx.http.get<Body>(`/asset/${fx.eth.assetId}/0`)).body['strikePrice']).toBe('3200000000');
    expect((await fx.http.get(`/asset/${fx.eth.assetId}/7`)).body).toMatchObject({ error: 'ASSET_EPOCH_NOT_FOUND' });
    const mark = await fx.http.get<Body>(`/resolve/mark/${fx.btc.assetId}`);
    expect(mark.body).toMatchObject({ assetId: fx.btc.assetId.toString(), id: 1 });
    expect(mark.body['price']).toMatch(/^[1-9][0-9]*$/);
  });

  it('answers zero balances for unknown accounts and validates path parameters', async () => {
    const acct = '0x' + '12'.repeat(20);
    expect((await fx.http.get<Body>(`/balance/${acct}`)).body).toMatchObject({
      account: acct,
      balance: '0',
      pending: '0',
    });
    expect(await fx.http.get('/balance/0x1234')).toMatchObject({ status: 404, body: { error: 'INVALID_ACCOUNT' } });
    expect(await fx.http.get('/asset/01')).toMatchObject({ status: 404, body: { error: 'INVALID_ASSET_ID' } });
    expect(await fx.http.get('/asset/123')).toMatchObject({ status: 404, body: { error: 'ASSET_ID_NOT_REGISTERED' } });
    expect(await fx.http.get(`/book/${fx.btc.assetId}/x`)).toMatchObject({
      status: 404,
      body: { error: 'INVALID_EPOCH' },
    });
    expect(await fx.http.get('/agents/status/nope')).toMatchObject({ status: 400, body: { error: 'INVALID_MASTER' } });
    for (const d of ['0', '5001', 'abc', '1.5', '-1']) {
      expect(await fx.http.get(`/book/${fx.btc.assetId}/0?depth=${d}`)).toMatchObject({
        status: 400,
        body: { error: 'INVALID_DEPTH' },
      });
    }
    expect((await fx.http.get(`/book/${fx.btc.assetId}/0?depth=5000`)).status).toBe(200);
  });
});

describe('orders, book and positions', () => {
  it('rests, matches and reports through every book route', async () => {
    const a = await placeOrder(fx.keys.alice, false, 400_000n, 10n * C);
    expect(a.res).toEqual({
      status: 202,
      body: {
        orderId: a.orderHash,
        filled: '0',
        remaining: String(10n * C),
        cancelled: '0',
        status: 'ACCEPTED',
        reason: '',
      },
    });
    const b = await placeOrder(fx.keys.bob, true, 400_000n, 4n * C, { tif: 2n });
    expect(b.res.body).toMatchObject({ status: 'FILLED', filled: String(4n * C), remaining: '0' });

    const book = await fx.http.get<Body>(`/book/${fx.btc.assetId}/0`);
    expect(book.status).toBe(200);
    expect(book.body['bids']).toEqual([
      {
        price: '400000',
        size: String(6n * C),
        orderCount: 1,
        orders: [
          expect.objectContaining({
            id: a.orderHash,
            size: String(6n * C),
            price: '400000',
            account: fx.keys.alice.address.toLowerCase(),
          }),
        ],
      },
    ]);
    expect(book.body['asks']).toEqual([]);
    expect(typeof book.body['seqId']).toBe('number');

    const top = await fx.http.get<Body>(`/book/market/top/${fx.btc.assetId}/0`);
    expect(top.body).toMatchObject({
      bid: { price: '400000', orderCount: 1 },
      ask: { price: '0', size: '0', orderCount: 0 },
      last: '400000',
    });
    const mine = await fx.http.get<Body>(`/book/${fx.btc.assetId}/0/${fx.keys.alice.address}`);
    expect((mine.body['buys'] as Body[]).map((o) => o['id'])).toEqual([a.orderHash]);
    const pos = await fx.http.get<Body>(`/position/${fx.keys.alice.address}/${fx.btc.assetId}/0`);
    expect(pos.body).toMatchObject({ size: String(4n * C), bSide: false, margin: String(1_600_000n) });
    const short = await fx.http.get<Body>(`/position/${fx.keys.bob.address}/${fx.btc.assetId}/0`);
    expect(short.body).toMatchObject({ size: String(4n * C), bSide: true });
    const bal = await fx.http.get<Body>(`/balance/${fx.keys.alice.address}`);
    expect(bal.body).toMatchObject({
      pending: String(2_400_000n),
      balance: String(1_000n * C - 1_600_000n - 2_400_000n),
    });
    const ledgerOrders = await fx.http.get<Body>(`/ledger/orders/${fx.btc.assetId}/0`);
    expect(ledgerOrders.body['orders']).toEqual([
      expect.objectContaining({
        id: a.orderHash,
        signature: a.body['signature'],
        remaining: String(6n * C),
        filled: String(4n * C),
      }),
    ]);
  });

  it('answers margin, ALO and value problems', async () => {
    expect((await placeOrder(fx.keys.carol, false, 500_000n, 100n * C)).res.body).toMatchObject({
      status: 'REJECTED',
      reason: 'MARGIN',
    });
    expect((await placeOrder(fx.keys.bob, true, 300_000n, C, { tif: 3n })).res.body).toMatchObject({
      status: 'REJECTED',
      reason: 'ALO',
    });
    expect((await placeOrder(fx.keys.bob, true, 300_500n, C)).res).toMatchObject({
      status: 400,
      body: { error: 'INVALID_PRICE' },
    });
    expect((await placeOrder(fx.keys.bob, true, 300_000n, 5_000n)).res).toMatchObject({
      status: 400,
      body: { error: 'INVALID_SIZE' },
    });
    expect((await placeOrder(fx.keys.bob, true, 300_000n, C, { epoch: 9n })).res).toMatchObject({
      status: 404,
      body: { error: 'INVALID_EPOCH' },
    });
    expect((await placeOrder(fx.keys.bob, true, 300_000n, C, { assetId: 77n })).res).toMatchObject({
      status: 400,
      body: { error: 'ASSET_ID_NOT_AVAILABLE' },
    });
  });
});

describe('authentication', () => {
  it('rejects a digest mismatch on every signed route with its own code', async () => {
    const k = fx.keys.alice;
    const wrong = `0x${'ab'.repeat(32)}`;
    const cases: [string, Body, string][] = [
      [
        '/orders',
        signedBody(
          'orders',
          fillOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 1000n, size: C }),
          domain(),
          k,
        ),
        'ORDER_HASH_MISMATCH',
      ],
      [
        '/cancels',
        signedBody(
          'cancels',
          cancelOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, orderHash: ZERO_HASH as Hex }),
          domain(),
          k,
        ),
        'CANCEL_ORDER_HASH_MISMATCH',
      ],
      [
        '/claim',
        signedBody('claim', claimOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n }), domain(), k),
        'ORDER_HASH_MISMATCH',
      ],
      [
        '/withdrawals',
        signedBody('withdrawals', withdrawalOrder({ key: k }, { amount: C, ledger: LEDGER }), domain(), k),
        'WITHDRAWAL_ORDER_HASH_MISMATCH',
      ],
      [
        '/agents/revoke',
        signedBody(
          'agentsRevoke',
          { typ: 62n, nonce: 1n, signer: k.address, signatureType: 0n, sender: k.address },
          domain(),
          k,
        ),
        'REVOKE_ORDER_HASH_MISMATCH',
      ],
      [
        '/cancel-replace',
        cancelReplaceBody(
          cancelReplaceOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, cancelOrderHash: wrong as Hex }),
          fillOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 1000n, size: C }),
          domain(),
          k,
        ),
        'CANCEL_REPLACE_ORDER_HASH_MISMATCH',
      ],
      [
        '/resolve',
        signedBody(
          'resolve',
          resolutionOrder(
            { key: fx.keys.resolverSigner, sender: fx.resolverAccount },
            { assetId: fx.btc.assetId, epoch: 0n, price: 1n },
          ),
          domain(),
          fx.keys.resolverSigner,
        ),
        'RESOLVE_ORDER_HASH_MISMATCH',
      ],
    ];
    const before = fx.svc.stateHash();
    for (const [path, body, code] of cases) {
      const res = await fx.http.post(path, { ...body, orderHash: wrong });
      expect([path, res.status, res.body]).toEqual([path, 401, expect.objectContaining({ error: code })]);
    }
    expect(fx.svc.stateHash()).toBe(before);
  });

  it('rejects a foreign signature, a wrong chain id and a wrong verifying contract', async () => {
    const order = fillOrder(
      { key: fx.keys.alice },
      { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 1000n, size: C },
    );
    const byBob = signedBody('orders', order, domain(), fx.keys.bob);
    expect(await fx.http.post('/orders', byBob)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE' } });
    const good = signedBody('orders', order, domain(), fx.keys.alice);
    expect(await fx.http.post('/orders', { ...good, chainId: '1' })).toMatchObject({
      status: 401,
      body: { error: 'WRONG_CHAIN_ID' },
    });
    const otherDomain = makeExchangeDomain({ chainId: 31337n, verifyingContract: LEDGER });
    expect(await fx.http.post('/orders', signedBody('orders', order, otherDomain, fx.keys.alice))).toMatchObject({
      status: 401,
      body: { error: 'ORDER_HASH_MISMATCH' },
    });
    const renamed = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE, name: 'Other Exchange' });
    expect(await fx.http.post('/orders', signedBody('orders', order, renamed, fx.keys.alice))).toMatchObject({
      status: 401,
      body: { error: 'ORDER_HASH_MISMATCH' },
    });
  });

  it('answers ENTRY_PROCESSED to a replayed digest and does not execute it twice', async () => {
    const { body, res } = await placeOrder(fx.keys.alice, false, 2_000n, C);
    expect(res.status).toBe(202);
    const hash = fx.svc.stateHash();
    expect(await fx.http.post('/orders', body)).toMatchObject({ status: 404, body: { error: 'ENTRY_PROCESSED' } });
    expect(fx.svc.stateHash()).toBe(hash);
  });

  it('enforces the signature-type rules', async () => {
    const k = fx.keys.alice;
    const base = fillOrder({ key: k }, { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 1000n, size: C });
    const post = (o: typeof base, key = k) => fx.http.post('/orders', signedBody('orders', o, domain(), key));
    expect(await post({ ...base, signatureType: 1n })).toMatchObject({
      status: 400,
      body: { error: 'UNSUPPORTED_SIGNATURE_TYPE' },
    });
    expect(await post({ ...base, signatureType: 4n, approvalNonce: 1_790_000_100n })).toMatchObject({
      status: 400,
      body: { error: 'SIGNATURE_TYPE_MISMATCH' },
    });
    expect(await post({ ...base, approvalNonce: 5n })).toMatchObject({
      status: 400,
      body: { error: 'APPROVAL_NONCE_MISMATCH' },
    });
    expect(await post({ ...base, sender: fx.keys.bob.address })).toMatchObject({
      status: 400,
      body: { error: 'EOA_SIGNER_AND_SENDER_MUST_MATCH' },
    });
    const w = withdrawalOrder({ key: fx.keys.agent, sender: k.address }, { amount: C, ledger: LEDGER });
    expect(await fx.http.post('/withdrawals', signedBody('withdrawals', w, domain(), fx.keys.agent))).toMatchObject({
      status: 400,
      body: { error: 'UNSUPPORTED_SIGNATURE_TYPE' },
    });
    const agentOrder = fillOrder(
      { key: fx.keys.agent, sender: fx.keys.carol.address, approvalNonce: 1_790_000_100n },
      { assetId: fx.btc.assetId, epoch: 0n, side: false, price: 1000n, size: C },
    );
    expect(await post(agentOrder, fx.keys.agent)).toMatchObject({ status: 401, body: { error: 'AGENT_NOT_APPROVED' } });
  });
});

describe('cancels and cancel-replace', () => {
  const epoch = 0n;
  const cancel = (key: DigestSigner, orderHash: string) =>
    fx.http.post<Body>(
      '/cancels',
      signedBody(
        'cancels',
        cancelOrder({ key }, { assetId: fx.eth.assetId, epoch, orderHash: orderHash as Hex }),
        domain(),
        key,
      ),
    );

  it('cancels one order, fails on an unknown one, and cancels all with the zero hash', async () => {
    const k = fx.keys.alice;
    const o1 = await placeOrder(k, false, 100_000n, C, { assetId: fx.eth.assetId });
    const o2 = await placeOrder(k, false, 110_000n, C, { assetId: fx.eth.assetId });
    const o3 = await placeOrder(k, true, 900_000n, C, { assetId: fx.eth.assetId });
    const c1 = await cancel(k, o1.orderHash);
    expect(c1).toMatchObject({ status: 202, body: { status: 'CANCELLED', orderIds: [o1.orderHash] } });
    expect((await cancel(k, o1.orderHash)).body).toMatchObject({ status: 'CANCEL_FAILED', orderIds: [] });
    expect((await cancel(fx.keys.bob, o2.orderHash)).body).toMatchObject({ status: 'CANCEL_FAILED' });
    const all = await cancel(k, ZERO_HASH);
    expect(all.body['status']).toBe('CANCELLED');
    expect(new Set(all.body['orderIds'] as string[])).toEqual(new Set([o2.orderHash, o3.orderHash]));
    const mine = await fx.http.get<Body>(`/book/${fx.eth.assetId}/0/${k.address}`);
    expect(mine.body).toMatchObject({ buys: [], sells: [] });
    expect(
      await fx.http.post(
        '/cancels',
        signedBody(
          'cancels',
          cancelOrder({ key: k }, { assetId: fx.eth.assetId, epoch: 5n, orderHash: ZERO_HASH as Hex }),
          domain(),
          k,
        ),
      ),
    ).toMatchObject({
      status: 404,
      body: { error: 'ORDERBOOK_NOT_FOUND' },
    });
  });

  it('replaces an order and enforces the replacement rules', async () => {
    const k = fx.keys.alice;
    const asset = fx.eth.assetId;
    const target = await placeOrder(k, false, 200_000n, C, { assetId: asset });
    const rep = (o: { side?: boolean; price?: bigint; size?: bigint; epoch?: bigint } = {}) =>
      fillOrder(
        { key: k },
        {
          assetId: asset,
          epoch: o.epoch ?? 0n,
          side: o.side ?? false,
          price: o.price ?? 210_000n,
          size: o.size ?? 2n * C,
          timeInForce: 3n,
        },
      );
    const cr = (cancelOrderHash: string, allOrNothing = false) =>
      cancelReplaceOrder(
        { key: k },
        { assetId: asset, epoch: 0n, cancelOrderHash: cancelOrderHash as Hex, allOrNothing },
      );
    const post = (b: Body) => fx.http.post<Body>('/cancel-replace', b);

    expect(await post(cancelReplaceBody(cr(ZERO_HASH), rep(), domain(), k))).toMatchObject({
      status: 400,
      body: { error: 'CANCEL_REPLACE_CANCEL_ALL_NOT_SUPPORTED' },
    });
    expect(
      await post(cancelReplaceBody(cr(target.orderHash), rep({ side: true, price: 800_000n }), domain(), k)),
    ).toMatchObject({ status: 400, body: { error: 'REPLACEMENT_SIDE_MISMATCH' } });
    expect(await post(cancelReplaceBody(cr(target.orderHash), rep({ epoch: 1n }), domain(), k))).toMatchObject({
      status: 400,
      body: { error: 'CROSS_MARKET_CANCEL_REPLACE_NOT_SUPPORTED' },
    });
    const tampered = cancelReplaceBody(cr(target.orderHash), rep(), domain(), k);
    expect(await post({ ...tampered, replacementOrderHash: `0x${'cd'.repeat(32)}` })).toMatchObject({
      status: 401,
      body: { error: 'REPLACEMENT_ORDER_HASH_MISMATCH' },
    });
    expect(
      await post({
        ...tampered,
        replacementSignature: signedBody('orders', rep(), domain(), fx.keys.bob)['signature'],
      }),
    ).toMatchObject({
      status: 401,
      body: { error: 'INVALID_REPLACEMENT_SIGNATURE' },
    });

    // allOrNothing with a replacement that fails on margin: nothing is cancelled.
    const aon = await post(cancelReplaceBody(cr(target.orderHash, true), rep({ size: 10_000n * C }), domain(), k));
    expect(aon).toMatchObject({
      status: 202,
      body: {
        status: 'REPLACEMENT_FAILED',
        cancel: { status: 'CANCEL_NOT_COMMITTED' },
        replacement: { status: 'REJECTED', reason: 'MARGIN' },
      },
    });

    const ok = cancelReplaceBody(cr(target.orderHash), rep(), domain(), k);
    const done = await post(ok);
    expect(done).toMatchObject({
      status: 202,
      body: {
        id: ok['orderHash'],
        status: 'SUCCESS',
        cancel: { status: 'CANCELLED', orderIds: [target.orderHash] },
        replacement: { orderId: ok['replacementOrderHash'], status: 'ACCEPTED' },
      },
    });
    expect(await post(ok)).toMatchObject({ status: 404, body: { error: 'ENTRY_PROCESSED' } });
    // The target is gone now: the cancel leg fails.
    const again = await post(cancelReplaceBody(cr(target.orderHash), rep({ price: 220_000n }), domain(), k));
    expect(again.body).toMatchObject({ status: 'CANCEL_FAILED', replacement: null });
    await cancel(k, ZERO_HASH);
  });
});

describe('withdrawals', () => {
  it('debits the balance into the payout queue, and refuses bad requests', async () => {
    const k = fx.keys.carol;
    const before = BigInt((await fx.http.get<Body>(`/balance/${k.address}`)).body['balance'] as string);
    const post = (amount: bigint, ledger: Address = LEDGER) =>
      fx.http.post<Body>(
        '/withdrawals',
        signedBody('withdrawals', withdrawalOrder({ key: k }, { amount, ledger }), domain(), k),
      );
    expect(await post(before + 1n)).toMatchObject({ status: 400, body: { error: 'INSUFFICIENT_LEDGER_BALANCE' } });
    expect(await post(C, EXCHANGE)).toMatchObject({ status: 400, body: { error: 'INVALID_WITHDRAWAL_PARAMETERS' } });
    expect(await post(0n)).toMatchObject({ status: 400, body: { error: 'INVALID_WITHDRAWAL_PARAMETERS' } });
    const ok = await post(2n * C);
    expect(ok).toMatchObject({ status: 202, body: { status: 'WITHDRAWN' } });
    expect((await fx.http.get<Body>(`/balance/${k.address}`)).body['balance']).toBe(String(before - 2n * C));
    const list = await fx.http.get<Body>(`/withdrawals/${k.address}`);
    expect(list.body['withdrawals']).toEqual([
      expect.objectContaining({
        id: ok.body['id'],
        amount: String(2n * C),
        status: 'QUEUED',
        receiver: k.address.toLowerCase(),
        txHash: null,
      }),
    ]);
  });
});

describe('resolution, admin and claims', () => {
  it('refuses non-resolvers, agents and signer == sender', async () => {
    const r = (key: DigestSigner, sender: Address, more: { signatureType?: bigint } = {}) =>
      fx.http.post(
        '/resolve',
        signedBody(
          'resolve',
          { ...resolutionOrder({ key, sender }, { assetId: fx.eth.assetId, epoch: 0n, price: 1n }), ...more },
          domain(),
          key,
        ),
      );
    expect(await r(fx.keys.alice, fx.keys.bob.address)).toMatchObject({ status: 403, body: { error: 'NOT_RESOLVER' } });
    expect(await r(fx.keys.alice, fx.resolverAccount)).toMatchObject({ status: 403, body: { error: 'NOT_RESOLVER' } });
    expect(await r(fx.keys.resolverSigner, fx.keys.resolverSigner.address)).toMatchObject({
      status: 400,
      body: { error: 'SIGNER_NOT_SENDER' },
    });
    expect(await r(fx.keys.resolverSigner, fx.resolverAccount, { signatureType: 4n })).toMatchObject({
      status: 401,
      body: { error: 'AGENT_NOT_ALLOWED' },
    });
    const pause = (key: DigestSigner, sender: Address) =>
      fx.http.post('/admin/pause', signedBody('adminPause', pauseOrder({ key, sender }, true), domain(), key));
    expect(await pause(fx.keys.resolverSigner, fx.resolverAccount)).toMatchObject({
      status: 403,
      body: { error: 'NOT_ADMIN' },
    });
  });

  it('pauses, invalidates and unpauses through the admin routes', async () => {
    const k = fx.keys.adminSigner;
    const admin = (kind: 'adminPause' | 'adminInvalidate', action: never, path: string) =>
      fx.http.post<Body>(path, signedBody(kind, action, domain(), k));
    const inv = () =>
      admin('adminInvalidate', invalidateOrder({ key: k, sender: fx.adminAccount }, 42n) as never, '/admin/invalidate');
    expect(await inv()).toMatchObject({ status: 400, body: { error: 'CONTRACT_NOT_PAUSED' } });
    const p = await admin('adminPause', pauseOrder({ key: k, sender: fx.adminAccount }, true) as never, '/admin/pause');
    expect(p).toMatchObject({ status: 202, body: { status: 'enqueued' } });
    expect(
      await admin('adminPause', pauseOrder({ key: k, sender: fx.adminAccount }, true) as never, '/admin/pause'),
    ).toMatchObject({ status: 400, body: { error: 'CONTRACT_ALREADY_PAUSED' } });
    expect((await placeOrder(fx.keys.alice, false, 1000n, C)).res).toMatchObject({
      status: 400,
      body: { error: 'EXCHANGE_PAUSED' },
    });
    expect(await inv()).toMatchObject({ status: 202, body: { status: 'enqueued' } });
    expect(await inv()).toMatchObject({ status: 400, body: { error: 'INVALID_TX_ID' } });
    expect(
      await admin('adminPause', pauseOrder({ key: k, sender: fx.adminAccount }, false) as never, '/admin/pause'),
    ).toMatchObject({ status: 202 });
  });

  it('resolves at expiry through the scheduler, opens the next epoch, and pays claims', async () => {
    // alice long 3 @ 0.5 and bob short 3 in the fixed-strike ETH market, epoch 0.
    await placeOrder(fx.keys.alice, false, 500_000n, 3n * C, { assetId: fx.eth.assetId });
    expect(
      (await placeOrder(fx.keys.bob, true, 500_000n, 3n * C, { assetId: fx.eth.assetId, tif: 2n })).res.body,
    ).toMatchObject({ status: 'FILLED' });
    expect(await fx.http.get(`/claim/${fx.eth.assetId}/0/${fx.keys.alice.address}`)).toMatchObject({
      status: 404,
      body: { error: 'EPOCH_NOT_RESOLVED' },
    });
    const claim = (key: DigestSigner) =>
      fx.http.post<Body>(
        '/claim',
        signedBody('claim', claimOrder({ key }, { assetId: fx.eth.assetId, epoch: 0n }), domain(), key),
      );
    expect(await claim(fx.keys.alice)).toMatchObject({ status: 404, body: { error: 'EPOCH_NOT_RESOLVED' } });

    fx.clock.now = Number(fx.eth.startTime + 61n) * 1000;
    await fx.svc.runScheduler();
    const a0 = await fx.http.get<Body>(`/asset/${fx.eth.assetId}/0`);
    expect(a0.body['isResolved']).toBe(true);
    const price = BigInt(a0.body['resolutionPrice'] as string);
    expect((await fx.http.get<Body>(`/asset/${fx.eth.assetId}`)).body).toMatchObject({ epoch: '1', isResolved: false });
    expect((await fx.http.get<Body>(`/resolve/${fx.eth.assetId}/0`)).body).toMatchObject({
      epoch: '0',
      price: price.toString(),
      isNull: false,
      id: 2,
    });
    expect((await fx.http.get<Body>(`/resolve/last/epoch/${fx.eth.assetId}`)).body).toMatchObject({ epoch: '0' });
    expect((await fx.http.get<Body>(`/resolve/settlement/${fx.eth.assetId}/0`)).body).toMatchObject({
      settlementPrice: price.toString(),
      expirationTime: Number(fx.eth.startTime + 60n),
    });
    expect(await fx.http.get(`/resolve/settlement/${fx.eth.assetId}/1`)).toMatchObject({
      status: 404,
      body: { error: 'ASSET_ID_NOT_EXPIRED' },
    });

    const upWins = price >= 3_200_000_000n;
    const [winner, loser] = upWins ? [fx.keys.alice, fx.keys.bob] : [fx.keys.bob, fx.keys.alice];
    expect((await fx.http.get<Body>(`/claim/${fx.eth.assetId}/0/${winner.address}`)).body['claimable']).toBe(
      String(3n * C),
    );
    const before = BigInt((await fx.http.get<Body>(`/balance/${winner.address}`)).body['balance'] as string);
    expect(await claim(winner)).toMatchObject({ status: 202, body: { status: 'CLAIMED' } });
    expect(BigInt((await fx.http.get<Body>(`/balance/${winner.address}`)).body['balance'] as string)).toBe(
      before + 3n * C,
    );
    expect(await claim(winner)).toMatchObject({ status: 404, body: { error: 'NO_CLAIMABLE_AMOUNT' } });
    expect(await claim(loser)).toMatchObject({ status: 404, body: { error: 'NO_CLAIMABLE_AMOUNT' } });
    // Orders in the expired epoch are refused; the resolver may not re-resolve it.
    expect((await placeOrder(fx.keys.alice, false, 500_000n, C, { assetId: fx.eth.assetId })).res.body).toMatchObject({
      status: 'REJECTED',
      reason: 'MARKET_RESOLVED',
    });
    const key = fx.keys.resolverSigner;
    const again = await fx.http.post(
      '/resolve',
      signedBody(
        'resolve',
        resolutionOrder({ key, sender: fx.resolverAccount }, { assetId: fx.eth.assetId, epoch: 0n, price: 1n }),
        domain(),
        key,
      ),
    );
    expect(again).toEqual({ status: 404, body: { status: 'FAIL', assetId: fx.eth.assetId.toString(), epoch: '0' } });
    const r1 = await fx.http.post(
      '/resolve',
      signedBody(
        'resolve',
        resolutionOrder(
          { key, sender: fx.resolverAccount },
          { assetId: fx.eth.assetId, epoch: 1n, price: 3_300_000_000n },
        ),
        domain(),
        key,
      ),
    );
    expect(r1).toEqual({
      status: 200,
      body: { status: 'SUCCESS', assetId: fx.eth.assetId.toString(), epoch: '1', price: '3300000000' },
    });
  });

  it('serves journal entries in the shape of docs/protocol/signing.md#journal-entries', async () => {
    const first = await fx.http.get<Body>('/ledger/entries/1');
    expect(first.body).toMatchObject({ seqId: 1, entries: [expect.objectContaining({ kind: 'genesis' })] });
    const page = await fx.http.get<Body>('/ledger/entries/1?limit=1000');
    const entries = page.body['entries'] as Body[];
    const fill = entries.find((e) => e['kind'] === 'fill')!;
    expect(fill).toMatchObject({
      typ: '2',
      auth: { typ: '2', signatureType: '0', signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) as unknown },
    });
    expect(fill['id']).toMatch(/^0x[0-9a-f]{64}$/);
    expect(entries.some((e) => e['kind'] === 'deposit' && e['typ'] === '7')).toBe(true);
    expect(await fx.http.get('/ledger/entries/999999')).toMatchObject({
      status: 404,
      body: { error: 'ENTRIES_NOT_FOUND' },
    });
    expect(await fx.http.get('/ledger/entries/x')).toMatchObject({ status: 404, body: { error: 'INVALID_SEQID' } });
  });
});
