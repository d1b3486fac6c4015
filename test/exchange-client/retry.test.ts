// Idempotent intents (docs/protocol/trading-client.md#idempotent-retries) through a loopback proxy that loses
// responses: an order whose answer was dropped is resent with the same digest and executed exactly once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError, type ExchangeClient, type Timers } from '../../src/client';
import { DigestSigner } from '../../src/shared/protocol';
import { KEYS, startDevnet, type Devnet } from './helpers';

type Mode = 'pass' | 'swallow-response' | 'drop-request' | 'answer-400';

/** Forwards to `target`; `plan` decides per POST what to do (then reverts to 'pass'). */
async function startProxy(
  target: string,
): Promise<{ url: string; plan: Mode[]; posts: number; close(): Promise<void> }> {
  const up = new URL(target);
  const state = { plan: [] as Mode[], posts: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mode: Mode = req.method === 'POST' ? (state.plan.shift() ?? 'pass') : 'pass';
      if (req.method === 'POST') state.posts++;
      if (mode === 'drop-request') {
        req.socket.destroy();
        return;
      }
      if (mode === 'answer-400') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"INVALID_ORDER_PARAMETERS"}');
        return;
      }
      const fwd = http.request(
        { host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          const body: Buffer[] = [];
          r.on('data', (c: Buffer) => body.push(c));
          r.on('end', () => {
            if (mode === 'swallow-response') {
              req.socket.destroy(); // the exchange executed it; the client never hears
              return;
            }
            res.writeHead(r.statusCode ?? 502, r.headers).end(Buffer.concat(body));
          });
        },
      );
      fwd.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get plan() {
      return state.plan;
    },
    get posts() {
      return state.posts;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let net: Devnet;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let client: ExchangeClient;
const delays: number[] = [];
// Backoff delays are recorded, not waited for.
const timers: Timers = {
  setTimeout: (fn, ms) => (delays.push(ms), setTimeout(fn, 0)),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
const A = new DigestSigner(KEYS.master).address;

beforeAll(async () => {
  net = await startDevnet();
  await net.svc.credit(A, 1_000_000_000n);
  proxy = await startProxy(net.svc.httpUrl);
  client = net.client(KEYS.master, { baseUrl: proxy.url, timers });
});

afterAll(async () => {
  client?.http.close();
  await proxy?.close();
  await net?.svc.stop();
});

async function ledgerCount(hash: string): Promise<number> {
  const all = await client.getLedgerOrders(net.assetId, 0n, A);
  return all.orders.filter((o) => o.id === hash).length;
}

describe('idempotent intents', () => {
  it('an order whose response was swallowed is executed exactly once', async () => {
    delays.length = 0;
    proxy.plan.push('swallow-response');
    const out = await client.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '20', size: '1' });
    expect(out).toMatchObject({ delivery: 'duplicate', attempts: 2, resting: true });
    expect(delays).toEqual([1000]);
    expect(await ledgerCount(out.orderHash)).toBe(1);
    const book = await client.getBookOrders(net.assetId, 0n, A);
    expect(book.buys.filter((o) => o.id === out.orderHash)).toHaveLength(1);
  });

  it('a request lost before reaching the exchange is resent and answered', async () => {
    proxy.plan.push('drop-request', 'drop-request');
    delays.length = 0;
    const out = await client.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '21', size: '1' });
    expect(out).toMatchObject({ delivery: 'answered', attempts: 3 });
    expect(delays).toEqual([1000, 2000]);
    expect(await ledgerCount(out.orderHash)).toBe(1);
  });

  it('backs off 1 s doubling to 30 s', async () => {
    proxy.plan.push(...Array<Mode>(7).fill('drop-request'));
    delays.length = 0;
    const out = await client.placeOrder(
      { assetId: net.assetId, epoch: 0n, side: 'buy', price: '22', size: '1' },
      { retry: { maxAttempts: 8, baseDelayMs: 1000, maxDelayMs: 30_000 } },
    );
    expect(out.delivery).toBe('answered');
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('an intent left unknown keeps its digest when submitted again', async () => {
    proxy.plan.push('swallow-response', 'drop-request');
    const input = { assetId: net.assetId, epoch: 0n, side: 'sell', price: '80', size: '1' } as const;
    const err = await client
      .placeOrder(input, { retry: { maxAttempts: 2, baseDelayMs: 1000, maxDelayMs: 30_000 } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TRANSPORT_ERROR' });
    const pending = client.intents.unknown();
    expect(pending).toHaveLength(1);
    const firstHash = pending[0]!.signed.orderHash;
    const again = await client.placeOrder(input);
    expect(again).toMatchObject({ delivery: 'duplicate', resting: true });
    expect(again.orderHash).toBe(firstHash);
    expect(await ledgerCount(again.orderHash)).toBe(1);
    expect(client.intents.unknown()).toHaveLength(0);
  });

  it('never retries a refused request', async () => {
    proxy.plan.push('answer-400');
    const before = proxy.posts;
    delays.length = 0;
    const err = await client
      .placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '23', size: '1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeHttpError);
    expect(err).toMatchObject({ status: 400, code: 'INVALID_ORDER_PARAMETERS' });
    expect(proxy.posts - before).toBe(1);
    expect(delays).toEqual([]);
  });

  it('a REJECTED status completes the intent without a retry', async () => {
    const poor = net.client(KEYS.poor, { baseUrl: proxy.url, timers });
    const before = proxy.posts;
    const out = await poor.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '50', size: '10' });
    expect(out).toMatchObject({
      delivery: 'answered',
      attempts: 1,
      response: { status: 'REJECTED', reason: 'MARGIN' },
    });
    expect(proxy.posts - before).toBe(1);
    poor.http.close();
  });
});
