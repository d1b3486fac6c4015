/**
 * A page that goes away leaves no book streams open (AppCore.windowGone, told by
 * src/main/window/page-lifetime.ts): a window reloaded 40 times, each page opening its ladder's
 * book, can still stream one, and the book it streams still moves with the market.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetClient } from '../../src/exchange/bots';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { TestCore } from '../support/test-core';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls, type RecordedEvent } from './core-calls';
import { createTradingCore, startTradingDevnet } from './trading-devnet';

const RELOADS = 40;
const wait = { timeout: 40_000, interval: 200 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
const events: RecordedEvent[] = [];
const { ok, err } = coreCalls(
  () => t,
  () => events,
);

beforeAll(async () => {
  temp = await startTradingDevnet('core-window-gone-', { demoAccounts: 1, btcEpochSeconds: 3600n });
  devnet = temp.devnet;
  ({ core: t } = await createTradingCore(devnet));
  t.core.on('book', (payload) => events.push({ event: 'book', payload }));
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await vi.waitFor(async () => {
    expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned');
  }, wait);
}, 120_000);

afterAll(async () => {
  t?.close();
  await temp?.stop();
});

async function firstMarket(): Promise<{ assetId: string; epoch: string }> {
  const { assetId, epoch } = (await ok<{ assetId: string; epoch: string }[]>('markets.list'))[0]!;
  return { assetId, epoch };
}

describe('a window that reloads', () => {
  it(`streams a book after ${RELOADS} reloads, each page having opened one and closed none`, async () => {
    const market = await firstMarket();
    const open = () =>
      ok<{ subscriptionId: string }>('markets.subscribeBook', { ...market, depth: 20 }).then((s) => s.subscriptionId);
    const first = await open();
    for (let i = 0; i < RELOADS; i++) {
      t.core.windowGone();
      await open();
    }
    // The first page's stream went with it; the last page's is open and moves with the market.
    expect(await err('markets.unsubscribeBook', first)).toMatchObject({ code: 'markets.unknown_subscription' });
    const latest = await open();
    const heard = events.length;
    const trader = devnetClient(devnet, devnet.accounts[0]!.privateKey);
    try {
      await devnet.exchange.credit(devnet.accounts[0]!.address, 100_000_000n);
      await trader.placeOrder({
        assetId: BigInt(market.assetId),
        epoch: BigInt(market.epoch),
        side: 'buy',
        price: 310_000n,
        size: 2_000_000n,
      });
      await vi.waitFor(() => {
        const books = events
          .slice(heard)
          .map((e) => e.payload as { subscriptionId: string; book: { bids: { price: string }[] } })
          .filter((e) => e.subscriptionId === latest);
        expect(books.some((e) => e.book.bids.some((l) => l.price === '310000'))).toBe(true);
      }, wait);
    } finally {
      trader.http.close();
    }
    expect(await ok('markets.unsubscribeBook', latest)).toBeNull();
  }, 120_000);

  it('without a window going away, the 33rd stream is refused (what the reloads would have hit)', async () => {
    t.core.windowGone();
    const market = await firstMarket();
    for (let i = 0; i < 32; i++) await ok('markets.subscribeBook', { ...market, depth: 20 });
    expect(await err('markets.subscribeBook', { ...market, depth: 20 })).toMatchObject({
      code: 'markets.too_many_books',
    });
    t.core.windowGone();
    await ok('markets.subscribeBook', { ...market, depth: 20 });
  }, 120_000);
});
