// More of the trading core against a real devnet (no bots): fills exported as CSV, flatten, claim
// all over two resolved epochs, the devnet faucet, resolution times and the clock offset. A second
// demo account (bob) trades from the test process through the client library, not through the core.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import type { TempDevnet } from '../devnet-kit';
import { TEST_PASSWORD, type TestCore } from '../support/test-core';
import { type ExchangeClient } from '../../src/client';
import { DEVNET_DEPLOYMENT, devnetDeploymentAt } from '../../src/main/settings';
import type { Address } from '../../src/shared/protocol';
import type { CloseResult, OrderResult } from '../../src/shared/bridge';
import { closeText, orderText } from '../../src/renderer/lib/notice-text';
import { coreCalls, type RecordedEvent } from './core-calls';
import { createTradingCore, startTradingDevnet } from './trading-devnet';
import { devnetClient } from '../../src/exchange/bots';

const SHORT = 12n; // seconds: a BTC market that resolves within the test
const wait = { timeout: 40_000, interval: 200 };
const C = 1_000_000n; // one contract / one token unit

let temp: TempDevnet | undefined;
let dir: string;
let devnet: DevnetHandle;
let t: TestCore;
let events: RecordedEvent[];
let alice: string;
let bob: ExchangeClient;
let eth: { assetId: string; epoch: string };
let btcAsset: string;

const { ok, err, of } = coreCalls(
  () => t,
  () => events,
);

type Order = OrderResult;
type Close = CloseResult;
interface Position {
  assetId: string;
  epoch: string;
  size: string;
}
interface Fill {
  assetId: string;
  epoch: string;
  orderId: string;
  side: string;
  price: string;
  size: string;
  liquidity: string;
  at: number;
  priceIsLimit?: boolean;
}
interface Market {
  assetId: string;
  epoch: string;
  expiration: number;
}

/** Bob's order through the client library; returns the exchange's answer. */
async function bobOrder(
  m: { assetId: string; epoch: string },
  side: 'buy' | 'sell',
  price: bigint,
  size: bigint,
  timeInForce: 'GTC' | 'IOC',
) {
  const outcome = await bob.placeOrder({
    assetId: BigInt(m.assetId),
    epoch: BigInt(m.epoch),
    side,
    price,
    size,
    timeInForce,
  });
  if (outcome.delivery !== 'answered') throw new Error('bob: the order was a duplicate');
  return outcome.response;
}

/** A BTC epoch with at least 7 s left, so orders placed now land in it. */
async function freshBtcEpoch(after?: string): Promise<Market> {
  let btc: Market = { assetId: '', epoch: '', expiration: 0 };
  await vi.waitFor(async () => {
    btc = (await ok<Market[]>('markets.list')).find((m) => m.assetId === btcAsset)!;
    if (after !== undefined) expect(BigInt(btc.epoch)).toBeGreaterThan(BigInt(after));
    expect(btc.expiration - Date.now()).toBeGreaterThan(7_000);
  }, wait);
  return btc;
}

const exchangeBalance = async (): Promise<bigint> => (await bob.getBalance(alice as Address)).balance;

beforeAll(async () => {
  // A flat BTC path: every epoch resolves at its strike, and at or above the strike Up wins.
  temp = await startTradingDevnet('core-trading-extra-', { demoAccounts: 2, btcEpochSeconds: SHORT, flatBtc: true });
  devnet = temp.devnet;
  dir = temp.dir;
  ({ core: t, btcAsset } = await createTradingCore(devnet));
  events = [];
  for (const event of ['notice', 'connection', 'fill', 'resolution'] as const) {
    t.core.on(event, (payload) => events.push({ event, payload }));
  }
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  const bobAccount = devnet.accounts[1]!;
  bob = devnetClient(devnet, bobAccount.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, 1_000_000_000n);
  await devnet.exchange.credit(bobAccount.address, 1_000_000_000n);
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  t.settings.updateSettings({
    deployments: [devnetDeploymentAt(devnet)],
  });
  await vi.waitFor(
    async () => expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned'),
    wait,
  );
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  const e = (await ok<Market[]>('markets.list')).find((m) => m.assetId !== btcAsset)!;
  eth = { assetId: e.assetId, epoch: e.epoch };
}, 120_000);

afterAll(async () => {
  t?.close();
  await temp?.stop();
});

describe('more of the trading core on a devnet', () => {
  it('app.connection reports the session clock offset, as the connection event does', async () => {
    await vi.waitFor(async () => {
      const c = await ok<{ clockOffsetMs: number | null }>('app.connection');
      expect(typeof c.clockOffsetMs).toBe('number');
    }, wait);
    // Both come from the same exchange clock; the offset of a local exchange is small.
    const c = await ok<{ clockOffsetMs: number }>('app.connection');
    expect(Math.abs(c.clockOffsetMs)).toBeLessThan(60_000);
    const withOffset = of<{ clockOffsetMs: number | null; clockUncertaintyMs: number | null }>('connection').filter(
      (e) => e.clockOffsetMs !== null,
    );
    expect(withOffset.length).toBeGreaterThan(0);
    // Pushed with its uncertainty: the window's countdowns read both (src/renderer/lib/exchange-time.ts).
    expect(withOffset.at(-1)?.clockUncertaintyMs).toEqual(expect.any(Number));
  });

  it('exports own fills as CSV with exact decimals, and a cancelled dialog writes nothing', async () => {
    // A taker fill at 45.5¢ for 2.5, then a maker fill at 40¢ for 1.
    expect((await bobOrder(eth, 'sell', 455_000n, 2_500_000n, 'GTC')).status).toBe('ACCEPTED');
    const taken = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '45.5',
      size: '2.5',
      timeInForce: 'IOC',
      signAs: 'master',
    });
    expect(taken).toMatchObject({ status: 'FILLED', filled: '2500000', fillPrice: '455000', fillPriceIsLimit: false });
    expect(orderText(taken)).toBe('Bought 2.5 at 45.5¢');
    const resting = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '40',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    expect(resting.status).toBe('ACCEPTED');
    expect((await bobOrder(eth, 'sell', 400_000n, C, 'IOC')).status).toBe('FILLED');
    let fills: Fill[] = [];
    await vi.waitFor(async () => {
      fills = (await ok<{ fills: Fill[] }>('account.get')).fills;
      expect(fills).toHaveLength(2);
    }, wait);

    const path = join(dir, 'fills.csv');
    t.dialogs.answer({ kind: 'saveFile', path });
    expect(await ok('account.exportFills')).toEqual({ confirmed: true, value: { path } });
    expect(t.dialogs.shown.at(-1)).toMatchObject({
      kind: 'saveFile',
      request: { defaultName: `fills-${alice.slice(2, 10).toLowerCase()}.csv` },
    });
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([
      'time,assetId,epoch,orderId,side,priceCents,contracts,liquidity',
      `${new Date(fills[0]!.at).toISOString()},${eth.assetId},${eth.epoch},${taken.orderId},buy,45.5,2.5,taker`,
      `${new Date(fills[1]!.at).toISOString()},${eth.assetId},${eth.epoch},${resting.orderId},buy,40,1,maker`,
    ]);

    const before = readdirSync(dir).sort();
    t.dialogs.answer({ kind: 'saveFile', path: null });
    expect(await ok('account.exportFills')).toEqual({ confirmed: false });
    expect(t.dialogs.pending()).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('flattens a long position with a limited IOC against resting bids, and says so when there is nothing to close', async () => {
    const position = async (): Promise<Position | undefined> =>
      (await ok<{ positions: Position[] }>('account.get')).positions.find(
        (p) => p.assetId === eth.assetId && p.epoch === eth.epoch,
      );
    expect((await position())?.size).toBe('3500000');
    expect((await bobOrder(eth, 'buy', 420_000n, 10n * C, 'GTC')).status).toBe('ACCEPTED');

    const flat = await ok<Close>('orders.flatten', { ...eth, signAs: 'master' });
    // Best bid 42¢, default slippage 5¢: limited at 37¢, filled at the 42¢ bid.
    expect(flat).toMatchObject({
      status: 'CLOSED',
      side: 'sell',
      requested: '3500000',
      filled: '3500000',
      remaining: '0',
      averagePrice: '420000',
      worstPrice: '420000',
      bestPrice: '420000',
      limitPrice: '370000',
      maxSlippage: '50000',
    });
    expect(closeText(flat, `ETH 1h #${eth.epoch}`)).toBe(
      `Closed ETH 1h #${eth.epoch}: sold 3.5 contracts at 42¢ average (worst 42¢); the position is closed.`,
    );
    const after = await position();
    expect(after === undefined || after.size === '0').toBe(true);
    // Its fill is at the 42¢ bid it hit: in the list and in the fill event.
    const flatFills = (await ok<{ fills: Fill[] }>('account.get')).fills.filter((f) => f.orderId === flat.orderId);
    expect(flatFills.map((f) => [f.side, f.price, f.size, f.liquidity])).toEqual([
      ['sell', '420000', '3500000', 'taker'],
    ]);
    expect(flatFills[0]!.priceIsLimit).toBeUndefined();
    expect(
      of<Fill>('fill')
        .filter((f) => f.orderId === flat.orderId)
        .map((f) => f.price),
    ).toEqual(['420000']);
    // Bob's bid lost exactly the 3.5 it filled.
    const bids = (await bob.getOrderBook(BigInt(eth.assetId), BigInt(eth.epoch))).bids;
    expect(bids.map((l) => [l.price, l.size])).toEqual([[420_000n, 6_500_000n]]);

    // No position: it says so, and no order is even prepared (an order confirmation would need a scripted answer).
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: true } });
    const shown = t.dialogs.shown.length;
    try {
      const nothing = await ok<Close>('orders.flatten', { ...eth, signAs: 'master' });
      expect(nothing).toMatchObject({
        status: 'NOTHING_TO_CLOSE',
        orderId: null,
        filled: '0',
        remaining: '0',
        positionChanged: false,
      });
      expect(closeText(nothing, `ETH 1h #${eth.epoch}`)).toBe(`Nothing to close: no position in ETH 1h #${eth.epoch}.`);
    } finally {
      t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
    }
    expect(t.dialogs.shown.length).toBe(shown);
    expect((await ok<{ openOrders: unknown[] }>('account.get')).openOrders).toEqual([]);
    expect((await bob.getOrderBook(BigInt(eth.assetId), BigInt(eth.epoch))).bids.map((l) => l.size)).toEqual([
      6_500_000n,
    ]);
    await bob.cancelAll({ assetId: BigInt(eth.assetId), epoch: BigInt(eth.epoch) });
  });

  it('flattening into a thin book stops at the limit (a stray 1¢ bid is left alone) and says what is left; a short closes by buying', async () => {
    const size = async (): Promise<string> =>
      (await ok<{ positions: Position[] }>('account.get')).positions.find(
        (p) => p.assetId === eth.assetId && p.epoch === eth.epoch,
      )?.size ?? '0';
    expect((await bobOrder(eth, 'sell', 600_000n, 5n * C, 'GTC')).status).toBe('ACCEPTED');
    expect(
      (
        await ok<Order>('orders.place', {
          ...eth,
          side: 'buy',
          price: '60',
          size: '5',
          timeInForce: 'IOC',
          signAs: 'master',
        })
      ).status,
    ).toBe('FILLED');
    expect(await size()).toBe('5000000');
    expect((await bobOrder(eth, 'buy', 550_000n, 2n * C, 'GTC')).status).toBe('ACCEPTED');
    expect((await bobOrder(eth, 'buy', 10_000n, 100n * C, 'GTC')).status).toBe('ACCEPTED');
    t.settings.updateSettings({ maxSlippageCents: '2.5' });
    try {
      const part = await ok<Close>('orders.flatten', { ...eth, signAs: 'master' });
      expect(part).toMatchObject({
        status: 'PARTIALLY_CLOSED',
        requested: '5000000',
        filled: '2000000',
        remaining: '3000000',
        averagePrice: '550000',
        worstPrice: '550000',
        limitPrice: '525000',
      });
      expect(closeText(part, `ETH 1h #${eth.epoch}`)).toBe(
        `Partly closed ETH 1h #${eth.epoch}, 3 contracts still open: sold 2 contracts at 55¢ average (worst 55¢), stopped at the 52.5¢ limit (best 55¢ − 2.5¢ slippage).`,
      );
      // The stray 1¢ bid is untouched: it was below the limit.
      expect(
        (await bob.getOrderBook(BigInt(eth.assetId), BigInt(eth.epoch))).bids.map((l) => [l.price, l.size]),
      ).toEqual([[10_000n, 100n * C]]);
      expect(await size()).toBe('3000000');
      await bob.cancelAll({ assetId: BigInt(eth.assetId), epoch: BigInt(eth.epoch) });
      const none = await ok<Close>('orders.flatten', { ...eth, signAs: 'master' });
      expect(none).toMatchObject({ status: 'NO_LIQUIDITY', orderId: null, remaining: '3000000' });
      expect(closeText(none, `ETH 1h #${eth.epoch}`)).toBe(
        `Nothing closed: no bids in ETH 1h #${eth.epoch} to close against; 3 contracts still open.`,
      );
      // Sell 3 more than held: a short of 3 whose close buys, never more than 3.
      expect((await bobOrder(eth, 'buy', 500_000n, 6n * C, 'GTC')).status).toBe('ACCEPTED');
      expect(
        (
          await ok<Order>('orders.place', {
            ...eth,
            side: 'sell',
            price: '50',
            size: '6',
            timeInForce: 'IOC',
            signAs: 'master',
          })
        ).status,
      ).toBe('FILLED');
      expect(await size()).toBe('-3000000');
      expect((await bobOrder(eth, 'sell', 510_000n, 20n * C, 'GTC')).status).toBe('ACCEPTED');
      const short = await ok<Close>('orders.flatten', { ...eth, signAs: 'master' });
      expect(short).toMatchObject({
        status: 'CLOSED',
        side: 'buy',
        requested: '3000000',
        filled: '3000000',
        remaining: '0',
        averagePrice: '510000',
        limitPrice: '535000',
      });
      expect(await size()).toBe('0');
      expect(
        (await bob.getOrderBook(BigInt(eth.assetId), BigInt(eth.epoch))).asks.map((l) => [l.price, l.size]),
      ).toEqual([[510_000n, 17n * C]]);
    } finally {
      t.settings.updateSettings({ maxSlippageCents: '5' });
      await bob.cancelAll({ assetId: BigInt(eth.assetId), epoch: BigInt(eth.epoch) });
    }
  });

  it("records an IOC buy above the resting ask at the ask's price, in the list, the fill event, the summary and the CSV", async () => {
    expect((await bobOrder(eth, 'sell', 450_000n, 2n * C, 'GTC')).status).toBe('ACCEPTED');
    const taken = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '50',
      size: '2',
      timeInForce: 'IOC',
      signAs: 'master',
    });
    expect(taken).toMatchObject({ status: 'FILLED', filled: '2000000', fillPrice: '450000', fillPriceIsLimit: false });
    expect(orderText(taken)).toBe('Bought 2 at 45¢');
    const fills = (await ok<{ fills: Fill[] }>('account.get')).fills.filter((f) => f.orderId === taken.orderId);
    expect(fills.map((f) => [f.side, f.price, f.size, f.liquidity, f.priceIsLimit])).toEqual([
      ['buy', '450000', '2000000', 'taker', undefined],
    ]);
    expect(
      of<Fill>('fill')
        .filter((f) => f.orderId === taken.orderId)
        .map((f) => f.price),
    ).toEqual(['450000']);
    // The position's average price is the 45¢ it paid.
    const position = (
      await ok<{ positions: (Position & { averagePrice: string | null })[] }>('account.get')
    ).positions.find((p) => p.assetId === eth.assetId && p.epoch === eth.epoch);
    expect(position).toMatchObject({ size: '2000000', averagePrice: '450000' });

    const path = join(dir, 'fills-improved.csv');
    t.dialogs.answer({ kind: 'saveFile', path });
    expect(await ok('account.exportFills')).toEqual({ confirmed: true, value: { path } });
    const rows = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.includes(taken.orderId));
    expect(rows).toEqual([
      `${new Date(fills[0]!.at).toISOString()},${eth.assetId},${eth.epoch},${taken.orderId},buy,45,2,taker`,
    ]);
  });

  it('claims two resolved epochs at once for exactly the winning payout, then nothing', async () => {
    const epochs: Market[] = [];
    for (const size of [2n, 3n]) {
      const m = await freshBtcEpoch(epochs.at(-1)?.epoch);
      expect((await bobOrder(m, 'sell', 500_000n, size * C, 'GTC')).status).toBe('ACCEPTED');
      const taken = await ok<Order>('orders.place', {
        assetId: m.assetId,
        epoch: m.epoch,
        side: 'buy',
        price: '50',
        size: size.toString(),
        timeInForce: 'IOC',
        signAs: 'master',
      });
      expect(taken.status).toBe('FILLED');
      epochs.push(m);
    }
    await vi.waitFor(async () => {
      const claims = await ok<{ assetId: string; epoch: string; amount: string }[]>('claims.list');
      expect(claims.filter((c) => c.assetId === btcAsset).map((c) => [c.epoch, c.amount])).toEqual(
        expect.arrayContaining([
          [epochs[0]!.epoch, '2000000'],
          [epochs[1]!.epoch, '3000000'],
        ]),
      );
    }, wait);
    const before = await exchangeBalance();
    const results = await ok<{ assetId: string; epoch: string; status: string; amount: string }[]>('claims.claimAll');
    expect(results.map((r) => [r.epoch, r.status, r.amount]).sort()).toEqual([
      [epochs[0]!.epoch, 'CLAIMED', '2000000'],
      [epochs[1]!.epoch, 'CLAIMED', '3000000'],
    ]);
    expect((await exchangeBalance()) - before).toBe(5n * C);
    expect(await ok('claims.claimAll')).toEqual([]);
    expect(await exchangeBalance()).toBe(before + 5n * C);

    // The resolved epochs carry the exchange's resolution time, not just the expiry.
    const resolved = await ok<{ epoch: string; resolvedAt: number; txId: string | null; upWon: boolean }[]>(
      'markets.resolvedEpochs',
      btcAsset,
    );
    for (const m of epochs) {
      const r = resolved.find((x) => x.epoch === m.epoch);
      const published = await bob.getResolutionPrice(BigInt(btcAsset), BigInt(m.epoch));
      expect(r).toMatchObject({ upWon: true, txId: null, resolvedAt: published.ts * 1000 });
      expect(r!.resolvedAt).toBeGreaterThanOrEqual(m.expiration);
    }
  }, 90_000);

  it('mints settlement tokens from the faucet on the devnet, and refuses elsewhere', async () => {
    const provider = new JsonRpcProvider(devnet.rpcUrl, undefined, { staticNetwork: true });
    try {
      const token = new Contract(
        devnet.contracts.settlementToken,
        ['function balanceOf(address) view returns (uint256)'],
        provider,
      );
      const balanceOf = async (): Promise<bigint> => (await token.getFunction('balanceOf').staticCall(alice)) as bigint;
      const before = await balanceOf();
      // A transaction from the user's wallet: main asks first; "no" sends nothing.
      t.dialogs.answer({ kind: 'confirm', yes: false });
      expect(await ok('funds.faucet')).toEqual({ confirmed: false });
      expect(await balanceOf()).toBe(before);
      t.dialogs.answer({ kind: 'confirm', yes: true });
      const { value: minted } = await ok<{ confirmed: true; value: { amount: string } }>('funds.faucet');
      expect(BigInt(minted.amount)).toBeGreaterThan(0n);
      expect(await balanceOf()).toBe(before + BigInt(minted.amount));

      // The same exchange under a deployment that is not the built-in devnet: no faucet.
      const dev = t.settings.getSettings().deployments.find((d) => d.id === DEVNET_DEPLOYMENT.id)!;
      const copy = Object.fromEntries(
        Object.entries({ ...dev, id: 'copy', name: 'Local copy', confirmedAt: '2026-01-01T00:00:00.000Z' }).filter(
          ([k]) => k !== 'builtIn',
        ),
      ) as typeof dev;
      t.settings.updateSettings({ deployments: [dev, copy], selectedDeploymentId: 'copy' });
      const refused = await err('funds.faucet');
      expect(refused).toEqual({
        code: 'funds.not_devnet',
        message: 'The faucet exists only on the local devnet; Local copy has no faucet, so no tokens were minted.',
      });
      expect(await balanceOf()).toBe(before + BigInt(minted.amount));
    } finally {
      provider.destroy();
    }
  }, 60_000);
});
