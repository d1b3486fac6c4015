// OracleFeed against the local service: prices arrive per symbol; a silent symbol is reported stale,
// the socket is replaced and the resubscription brings a fresh price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OracleFeed, type OraclePrice } from '../../src/client';
import { startDevnet, type Devnet } from './helpers';

let net: Devnet;
beforeAll(async () => {
  net = await startDevnet();
});
afterAll(async () => {
  await net?.svc.stop();
});

describe('OracleFeed', () => {
  it('delivers prices, reports staleness and recovers by resubscribing', async () => {
    const prices: OraclePrice[] = [];
    const stale: bigint[] = [];
    let notify: () => void = () => {};
    const next = () => new Promise<void>((r) => (notify = r));
    // The service publishes only on subscribe here, so every later price proves a resubscription.
    const feed = new OracleFeed({ url: net.svc.oracleWsUrl, staleAfterMs: 300, reconnectDelayMs: 10 });
    const first = next();
    const sub = feed.subscribe(1n, {
      onPrice: (p) => {
        prices.push(p);
        notify();
      },
      onStale: (id) => stale.push(id),
    });
    await sub.ready;
    await first;
    expect(prices[0]).toMatchObject({ symbolId: 1n });
    expect(prices[0]!.price).toBeGreaterThan(0n);
    expect(feed.latest(1n)?.price).toBe(prices[0]!.price);
    await next();
    expect(stale).toContain(1n);
    expect(feed.socket.stats.reconnects).toBeGreaterThan(0);
    expect(prices.length).toBeGreaterThan(1);
    await sub.unsubscribe();
    feed.close();
  });

  it('reports an unknown symbol as an error', async () => {
    const errors: string[] = [];
    let notify: () => void = () => {};
    const got = new Promise<void>((r) => (notify = r));
    const feed = new OracleFeed({ url: net.svc.oracleWsUrl, onError: (e) => (errors.push(e.code), notify()) });
    feed.subscribe(999n, { onPrice: () => {} });
    await got;
    expect(errors[0]).toBe('FEED_ERROR');
    feed.close();
  });
});
