// A restart keeps the day (issue 29, item 3): an account trades on a devnet (fills as taker and as
// maker, orders cancelled, a position left in an epoch that ends), the app core is ended as quitting
// the app ends it and started again over the same store and folder, and the same account shows the
// same fills, order history, positions and realised P&L today as before.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExchangeClient } from '../../src/client';
import { devnetClient } from '../../src/exchange/bots';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { TEST_PASSWORD, createTestCore, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { AccountView, MarketSummary, OrderHistoryEntry, OrderResult } from '../../src/shared/bridge';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls } from './core-calls';
import { startTradingDevnet } from './trading-devnet';

const SHORT = 15n; // seconds: a BTC epoch that ends (and resolves) within the test
const wait = { timeout: 40_000, interval: 200 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
let restarted: TestCore | undefined;
let bob: ExchangeClient;
let alice: string;

const { ok } = coreCalls(
  () => restarted ?? t,
  () => [],
);

const tradingOptions = (d: DevnetHandle) => ({
  markets: devnetMarkets(d.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol }))),
  pollMs: 250,
  healthMs: 1000,
  balancePollMs: 500,
});

beforeAll(async () => {
  temp = await startTradingDevnet('core-restart-', { demoAccounts: 3, btcEpochSeconds: SHORT });
  devnet = temp.devnet;
  t = await createTestCore({ trading: tradingOptions(devnet) });
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  bob = devnetClient(devnet, devnet.accounts[1]!.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, 1_000_000_000n);
  await devnet.exchange.credit(devnet.accounts[1]!.address, 1_000_000_000n);
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
}, 120_000);

afterAll(async () => {
  if (restarted) restarted.close();
  else t?.close();
  await temp?.stop();
});

const select = () => ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
const place = (m: { assetId: string; epoch: string }, side: 'buy' | 'sell', price: string, size: string, tif = 'IOC') =>
  ok<OrderResult>('orders.place', { ...m, side, price, size, timeInForce: tif, signAs: 'master' });
const rest = (m: { assetId: string; epoch: string }, side: 'buy' | 'sell', price: bigint, size: bigint) =>
  bob.placeOrder({
    assetId: BigInt(m.assetId),
    epoch: BigInt(m.epoch),
    side,
    price,
    size,
    timeInForce: 'GTC',
  });

/** What must read the same after the restart; realised today summed as the account summary sums it. */
async function theDay() {
  const view = await ok<AccountView>('account.get');
  const markets = await ok<MarketSummary[]>('markets.list');
  const today = Date.now() - (Date.now() % 86_400_000);
  let realised = 0n;
  for (const p of view.positions) {
    const m = markets.find((x) => x.assetId === p.assetId);
    const began = m ? m.epochStart - Number(BigInt(m.epoch) - BigInt(p.epoch)) * m.periodSeconds * 1000 : null;
    if (began === null || began >= today) realised += BigInt(p.realisedPnl);
  }
  return {
    fills: view.fills,
    history: await ok<OrderHistoryEntry[]>('orders.history'),
    positions: view.positions
      .map((p) => ({ assetId: p.assetId, epoch: p.epoch, size: p.size, margin: p.margin, realised: p.realisedPnl }))
      .sort((a, b) => `${a.assetId}:${a.epoch}`.localeCompare(`${b.assetId}:${b.epoch}`)),
    realised: realised.toString(),
  };
}

describe('a restart keeps the day', () => {
  it('shows the same fills, order history, positions and realised P&L today after the core starts again', async () => {
    await vi.waitFor(async () => {
      const c = await ok<{ pin: { kind: string } }>('app.connection');
      expect(c.pin.kind).toBe('pinned');
    }, wait);
    await select();
    const list = await ok<MarketSummary[]>('markets.list');
    const ethSummary = list.find((m) => m.symbol === 'ETH')!;
    const eth = { assetId: ethSummary.assetId, epoch: ethSummary.epoch };

    // BTC, early in an epoch: buy 3 as taker at 40¢, sell 1 back at 45¢ (+5¢ realised); the epoch then ends.
    let btc = { assetId: '', epoch: '' };
    await vi.waitFor(async () => {
      const m = (await ok<MarketSummary[]>('markets.list')).find((x) => x.symbol === 'BTC')!;
      expect(m.expiration - Date.now()).toBeGreaterThan(9_000);
      btc = { assetId: m.assetId, epoch: m.epoch };
    }, wait);
    await rest(btc, 'sell', 400_000n, 3_000_000n);
    expect(await place(btc, 'buy', '40', '3')).toMatchObject({ status: 'FILLED' });
    await rest(btc, 'buy', 450_000n, 1_000_000n);
    expect(await place(btc, 'sell', '45', '1')).toMatchObject({ status: 'FILLED' });

    // ETH: a resting buy of 2 at 30¢ bob sells into (a maker fill), two resting orders cancelled, 1 sold at 28¢ (−2¢).
    const maker = await place(eth, 'buy', '30', '2', 'GTC');
    expect(maker.status).toBe('ACCEPTED');
    await rest(eth, 'sell', 300_000n, 2_000_000n);
    const cancelled = [await place(eth, 'sell', '70', '1', 'GTC'), await place(eth, 'buy', '20', '1', 'GTC')];
    await ok('orders.cancel', { ...eth, orderId: cancelled[0]!.orderId, signAs: 'master' });
    await ok('orders.cancelAll', { ...eth, signAs: 'master' });
    await rest(eth, 'buy', 280_000n, 1_000_000n);
    expect(await place(eth, 'sell', '28', '1')).toMatchObject({ status: 'FILLED' });

    // Settled: the maker fill heard, the BTC epoch ended and its position read after the resolution.
    let before: Awaited<ReturnType<typeof theDay>> | null = null;
    await vi.waitFor(async () => {
      const day = await theDay();
      expect(day.fills.filter((f) => f.liquidity === 'maker').map((f) => f.orderId)).toEqual([maker.orderId]);
      expect(day.history.find((h) => h.orderId === maker.orderId)?.outcome).toBe('filled');
      const view = await ok<AccountView>('account.get');
      expect(view.positions.find((p) => p.assetId === btc.assetId && p.epoch === btc.epoch)?.resolved).toBe(true);
      // Nothing moves between two reads.
      expect(await theDay()).toEqual(day);
      before = day;
    }, wait);
    const was = before!;
    expect(was.fills.map((f) => f.liquidity).sort()).toEqual(['maker', 'taker', 'taker', 'taker']);
    expect(was.history.map((h) => h.outcome).sort()).toEqual([
      'cancelled',
      'cancelled',
      'filled',
      'filled',
      'filled',
      'filled',
    ]);
    expect(was.positions).toHaveLength(2);
    expect(BigInt(was.realised)).not.toBe(0n);

    // The restart: the core ends as quitting the app ends it, and a new one starts over its store.
    t.shutDown();
    restarted = await createTestCore({ trading: tradingOptions(devnet), reuse: { store: t.store, dir: t.dir } });
    await ok('lock.unlock', TEST_PASSWORD);
    await vi.waitFor(async () => {
      const c = await ok<{ pin: { kind: string } }>('app.connection');
      expect(c.pin.kind).toBe('pinned');
    }, wait);
    await select();
    await vi.waitFor(async () => expect(await theDay()).toEqual(was), wait);
  }, 120_000);
});
