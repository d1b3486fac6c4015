// getFills (GET /fills/:account, a devnet extension): own fills at their real prices, and null where a
// deployment does not serve the route.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, ExchangeValidationError } from '../../src/client';
import { DigestSigner } from '../../src/shared/protocol';
import { KEYS, startDevnet, type Devnet } from './helpers';

let net: Devnet;
type Client = ReturnType<Devnet['client']>;
let maker: Client;
let taker: Client;
const M = new DigestSigner(KEYS.master).address;
const T = new DigestSigner(KEYS.taker).address;

beforeAll(async () => {
  net = await startDevnet();
  for (const k of [KEYS.master, KEYS.taker]) await net.svc.credit(new DigestSigner(k).address, 1_000_000_000n);
  maker = net.client(KEYS.master);
  taker = net.client(KEYS.taker);
});

afterAll(async () => {
  for (const c of [maker, taker]) c?.http.close();
  await net?.svc.stop();
});

describe('getFills', () => {
  it('returns own maker and taker fills newest first, parsed to bigints, at the prices they traded at', async () => {
    expect(await taker.getFills(T)).toEqual([]);
    const ask = await maker.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'sell', price: '42.5', size: '3' });
    // A buy with a 60¢ limit fills at the resting 42.5¢ ask.
    const take = await taker.placeOrder({
      assetId: net.assetId,
      epoch: 0n,
      side: 'buy',
      price: '60',
      size: '2',
      timeInForce: 'IOC',
    });
    expect(take.delivery === 'answered' && take.response.filled).toBe(2_000_000n);
    const mine = await taker.getFills(T, { assetId: net.assetId, epoch: 0n });
    expect(mine).toEqual([
      {
        orderId: take.orderHash,
        assetId: net.assetId,
        epoch: 0n,
        side: false,
        price: 425_000n,
        size: 2_000_000n,
        liquidity: 'taker',
        ts: net.time.now,
      },
    ]);
    expect(await maker.getFills(M, { limit: 5 })).toEqual([
      {
        orderId: ask.orderHash,
        assetId: net.assetId,
        epoch: 0n,
        side: true,
        price: 425_000n,
        size: 2_000_000n,
        liquidity: 'maker',
        ts: net.time.now,
      },
    ]);
    // A flatten-style sell at the bottom of the range (0.1¢) fills at the resting 41¢ bid.
    await maker.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '41', size: '1' });
    const flat = await taker.placeOrder({
      assetId: net.assetId,
      epoch: 0n,
      side: 'sell',
      price: '0.1',
      size: '1',
      timeInForce: 'IOC',
    });
    const latest = await taker.getFills(T, { limit: 1 });
    expect(latest?.map((f) => [f.orderId, f.side, f.price, f.size, f.liquidity])).toEqual([
      [flat.orderHash, true, 410_000n, 1_000_000n, 'taker'],
    ]);
    expect(await taker.getFills(T, { epoch: 1n })).toEqual([]);
  });

  it('checks its arguments before sending', async () => {
    for (const limit of [0, 1001, 1.5]) {
      await expect(taker.getFills(T, { limit })).rejects.toBeInstanceOf(ExchangeValidationError);
    }
    await expect(taker.getFills('0x1234')).rejects.toBeInstanceOf(ExchangeValidationError);
  });

  it('answers null where the deployment does not serve the route, and rejects a malformed answer', async () => {
    let body: unknown = { error: 'ROUTE_NOT_FOUND', message: 'No route.' };
    let status = 404;
    const server: Server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ExchangeClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      expect(await client.getFills(T)).toBeNull();
      status = 200;
      body = {
        account: T.toLowerCase(),
        fills: [
          {
            orderId: '0x' + '11'.repeat(32),
            assetId: '1',
            epoch: '0',
            side: false,
            price: 425000,
            size: '1',
            liquidity: 'taker',
            ts: 1,
          },
        ],
      };
      await expect(client.getFills(T)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    } finally {
      client.http.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
