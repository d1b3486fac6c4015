import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BookMirror, comparableSnapshot } from '../engine/book-mirror';
import type { MarketEvent } from '../engine';
import { ZERO_HASH, type Hex } from '../../shared/protocol';
import { restBookToL2 } from '../../../test/exchange-service/chaos-kit';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import {
  cancelOrder,
  cancelReplaceBody,
  cancelReplaceOrder,
  fillOrder,
  signedBody,
} from '../../../test/support/exchange/testkit';

let fx: Fixture;
const C = 1_000_000n;
type Body = Record<string, unknown>;
/** Asymmetric matchers typed as unknown (they are `any` in vitest's types). */
const matching = (re: RegExp): unknown => expect.stringMatching(re) as unknown;

beforeAll(async () => {
  fx = await startFixture({ oracle: { publishIntervalMs: 50 }, pingIntervalMs: 0 });
  for (const who of ['alice', 'bob', 'carol'] as const) await fx.svc.credit(fx.keys[who].address, 1_000n * C);
});
afterAll(() => fx.close());

/** A socket with a message queue and `next(predicate)` that waits for the next matching message. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  const queue: Body[] = [];
  let wake: (() => void) | null = null;
  ws.on('message', (d: Buffer) => {
    queue.push(JSON.parse(d.toString()) as Body);
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (pred: (m: Body) => boolean = () => true): Promise<Body> => {
    for (;;) {
      const i = queue.findIndex(pred);
      if (i >= 0) return queue.splice(i, 1)[0]!;
      await new Promise<void>((r) => (wake = r));
    }
  };
  return { ws, next, send: (m: unknown) => ws.send(JSON.stringify(m)), queue };
}

describe('market feed', () => {
  it('acks subscriptions with string ids and reports unknown assets', async () => {
    const c = await connect(fx.svc.marketWsUrl);
    expect(await c.next()).toMatchObject({ type: 'connected' });
    c.send({ type: 'subscribe', assetId: '123' });
    expect(await c.next()).toEqual({ type: 'error', message: 'AssetId 123 is not available' });
    c.send({ type: 'subscribe', assetId: 5 });
    expect(await c.next()).toMatchObject({ type: 'error' });
    c.send({ type: 'subscribe', assetId: fx.btc.assetId.toString() });
    expect(await c.next()).toEqual({ type: 'subscribed', assetId: fx.btc.assetId.toString() });
    c.send({ type: 'unsubscribe', assetId: fx.btc.assetId.toString() });
    expect(await c.next()).toEqual({ type: 'unsubscribed', assetId: fx.btc.assetId.toString() });
    c.ws.send('not json');
    expect(await c.next()).toMatchObject({ type: 'error' });
    c.ws.close();
  });

  it('streams contiguous events: snapshot + feed equals the next snapshot', async () => {
    const asset = fx.btc.assetId;
    const c = await connect(fx.svc.marketWsUrl);
    await c.next((m) => m['type'] === 'connected');
    c.send({ type: 'subscribe', assetId: asset.toString() });
    await c.next((m) => m['type'] === 'subscribed');
    const snap = (await fx.http.get<Body>(`/book/${asset}/0?depth=5000`)).body;
    const mirror = new BookMirror(restBookToL2(snap));

    const post = async (who: 'alice' | 'bob' | 'carol', side: boolean, price: bigint, size: bigint, tif = 0n) => {
      const key = fx.keys[who];
      return (
        await fx.http.post<Body>(
          '/orders',
          signedBody(
            'orders',
            fillOrder({ key }, { assetId: asset, epoch: 0n, side, price, size, timeInForce: tif }),
            fx.svc.domain,
            key,
          ),
        )
      ).body;
    };
    const a1 = await post('alice', false, 400_000n, 5n * C);
    await post('alice', false, 390_000n, 2n * C);
    await post('bob', true, 600_000n, 3n * C);
    await post('carol', true, 380_000n, 6n * C, 2n); // sweeps both bids partially
    await post('bob', true, 610_000n, C);
    const k = fx.keys.bob;
    const cr = cancelReplaceBody(
      cancelReplaceOrder(
        { key: k },
        { assetId: asset, epoch: 0n, cancelOrderHash: (await post('bob', true, 620_000n, C))['orderId'] as Hex },
      ),
      fillOrder({ key: k }, { assetId: asset, epoch: 0n, side: true, price: 630_000n, size: 2n * C }),
      fx.svc.domain,
      k,
    );
    expect((await fx.http.post('/cancel-replace', cr)).status).toBe(202);
    await fx.http.post(
      '/cancels',
      signedBody(
        'cancels',
        cancelOrder({ key: k }, { assetId: asset, epoch: 0n, orderHash: ZERO_HASH as Hex }),
        fx.svc.domain,
        k,
      ),
    );
    expect(a1['status']).toBe('ACCEPTED');

    const final = (await fx.http.get<Body>(`/book/${asset}/0?depth=5000`)).body;
    const target = final['seqId'] as number;
    const seen: number[] = [];
    while (mirror.seqId < target) {
      const e = (await c.next((m) => typeof m['seqId'] === 'number')) as unknown as MarketEvent;
      expect(e.data.assetId).toBe(asset.toString());
      seen.push(e.seqId);
      mirror.apply(e);
    }
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => (snap['seqId'] as number) + 1 + i));
    expect(new Set(seen.map((s) => s)).size).toBe(seen.length);
    expect(mirror.comparable()).toEqual(comparableSnapshot(restBookToL2(final)));
    c.ws.close();
  });

  it('sends a resolution event when the epoch resolves', async () => {
    const asset = fx.eth.assetId;
    const c = await connect(fx.svc.marketWsUrl);
    c.send({ type: 'subscribe', assetId: asset.toString() });
    await c.next((m) => m['type'] === 'subscribed');
    fx.clock.now = Number(fx.eth.startTime + 60n) * 1000;
    await fx.svc.runScheduler();
    const e = await c.next((m) => m['type'] === 'resolution');
    expect(e).toMatchObject({
      type: 'resolution',
      data: { assetId: asset.toString(), epoch: '0', price: matching(/^[0-9]+$/) },
    });
    c.ws.close();
  });
});

describe('oracle feed', () => {
  it('streams prices per symbol with ts in seconds', async () => {
    const c = await connect(fx.svc.oracleWsUrl);
    expect(await c.next()).toMatchObject({ type: 'connected' });
    c.send({ type: 'subscribe', symbolId: '99' });
    expect(await c.next()).toEqual({ type: 'error', message: 'SymbolId 99 is not available' });
    c.send({ type: 'subscribe', symbolId: '1' });
    expect(await c.next()).toEqual({ type: 'subscribed', symbolId: '1' });
    const p1 = await c.next((m) => m['type'] === 'price');
    const p2 = await c.next((m) => m['type'] === 'price');
    for (const p of [p1, p2]) {
      expect(p).toEqual({
        type: 'price',
        symbolId: '1',
        price: matching(/^[1-9][0-9]*$/),
        ts: Math.floor(fx.clock.now / 1000),
      });
    }
    c.send({ type: 'unsubscribe', symbolId: '1' });
    await c.next((m) => m['type'] === 'unsubscribed');
    c.ws.close();
  });

  it('refuses upgrades on other paths', async () => {
    const ws = new WebSocket(fx.svc.httpUrl.replace('http', 'ws') + '/other');
    const err = await new Promise<unknown>((resolve) => {
      ws.once('error', resolve);
      ws.once('open', () => resolve(null));
    });
    expect(err).toBeInstanceOf(Error);
  });
});

describe('heartbeat', () => {
  it('pings live sockets and terminates sockets that stop answering', async () => {
    const hb = await startFixture({ pingIntervalMs: 40 });
    try {
      const live = new WebSocket(hb.svc.marketWsUrl);
      const dead = new WebSocket(hb.svc.marketWsUrl, { autoPong: false });
      let pings = 0;
      live.on('ping', () => pings++);
      const deadClosed = new Promise<number>((resolve) => dead.once('close', (code) => resolve(code)));
      await new Promise<void>((resolve) => live.once('open', () => resolve()));
      expect(await deadClosed).toBe(1006);
      expect(pings).toBeGreaterThan(0);
      expect(live.readyState).toBe(WebSocket.OPEN);
      live.close();
    } finally {
      await hb.close();
    }
  });
});
