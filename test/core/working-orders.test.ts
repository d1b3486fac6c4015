// Working orders against the real exchange and oracle (docs/working-orders.md): a devnet with no bots,
// a BTC market in short epochs (time exits, rolls) and an hourly ETH market (the exits), alice trading
// through a real core with confirmations off, bob resting the other side from this process. Money is
// checked on the exchange's own numbers.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExchangeClient } from '../../src/client';
import { devnetClient } from '../../src/exchange/bots';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetDeploymentAt } from '../../src/main/settings';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import type { MarketSummary, OrderResult, WorkingOrderView } from '../../src/shared/bridge';
import { unpackAssetId, type Address } from '../../src/shared/protocol';
import { TEST_PASSWORD, createTestCore, type TestCore } from '../support/test-core';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls } from './core-calls';
import { startTradingDevnet } from './trading-devnet';

const SHORT = 15n; // seconds: BTC epochs that roll within the test
const C = 10_000n;
const N = 1_000_000n;
const D = 1_000_000n;
const wait = { timeout: 30_000, interval: 100 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
let restarted: TestCore | undefined;
let bob: ExchangeClient;
let alice: Address;
let eth: { assetId: string; epoch: string; symbolId: bigint };

const core = (): TestCore => restarted ?? t;
const { ok, err } = coreCalls(core, () => []);
const tradingOptions = (d: DevnetHandle) => ({
  markets: devnetMarkets(d.markets.markets.map((x) => ({ assetId: x.assetId, symbol: x.symbol }))),
  pollMs: 250,
  healthMs: 1000,
  balancePollMs: 500,
});

const market = async (symbol: string): Promise<MarketSummary> =>
  (await ok<MarketSummary[]>('markets.list')).find((m) => m.symbol === symbol)!;
const m = (x: { assetId: string; epoch: string }) => ({ assetId: BigInt(x.assetId), epoch: BigInt(x.epoch) });

/** Bob's one resting quote on a side of a market, replacing his others there. */
async function bobQuotes(
  x: { assetId: string; epoch: string },
  quotes: { side: 'buy' | 'sell'; price: bigint; size: bigint }[],
) {
  await bob.cancelAll(m(x)).catch(() => undefined);
  for (const q of quotes) await bob.placeOrder({ ...m(x), ...q, timeInForce: 'GTC' });
}

/** Alice's free and locked balance and position on the exchange. */
async function onExchange(x: { assetId: string; epoch: string }) {
  const b = await bob.getBalance(alice);
  const p = await bob.getPosition(alice, BigInt(x.assetId), BigInt(x.epoch)).catch(() => null);
  return { cash: b.balance + b.pending, inventory: p?.inventory ?? 0n };
}

/** Alice buys `size` from bob at `price` (IOC through the window's own path): a position to exit. */
async function buyPosition(x: { assetId: string; epoch: string }, price: bigint, size: bigint): Promise<void> {
  await bobQuotes(x, [{ side: 'sell', price, size }]);
  const r = await ok<OrderResult>('orders.place', {
    assetId: x.assetId,
    epoch: x.epoch,
    side: 'buy',
    price: (Number(price) / 10_000).toFixed(1),
    size: (size / N).toString(),
    timeInForce: 'IOC',
    signAs: 'master',
  });
  expect(r.status).toBe('FILLED');
  await vi.waitFor(async () => expect((await onExchange(x)).inventory).toBe(size), wait);
  await vi.waitFor(async () => {
    const view = await ok<{ positions: { assetId: string; epoch: string; size: string }[] }>('account.get');
    expect(view.positions.find((p) => p.assetId === x.assetId && p.epoch === x.epoch)?.size).toBe(size.toString());
  }, wait);
}

/** An exit on alice's position in a market, created through the bridge. */
const createExit = (
  x: { assetId: string; epoch: string },
  trigger: Record<string, unknown>,
  more: { size?: string; slippage?: string } = {},
): Promise<WorkingOrderView> =>
  ok<WorkingOrderView>('workingOrders.create', {
    kind: 'exit',
    assetId: x.assetId,
    epoch: x.epoch,
    signAs: 'master',
    trigger,
    ...more,
  });

const listed = async (id: string): Promise<WorkingOrderView> =>
  (await ok<WorkingOrderView[]>('workingOrders.list')).find((w) => w.id === id)!;

async function untilState(
  id: string,
  states: WorkingOrderView['state'][],
  timeout = 30_000,
): Promise<WorkingOrderView> {
  let last: WorkingOrderView | undefined;
  await vi.waitFor(
    async () => {
      last = await listed(id);
      expect(states).toContain(last.state);
    },
    { timeout, interval: 100 },
  );
  return last!;
}

async function flatten(x: { assetId: string; epoch: string }): Promise<void> {
  await ok('workingOrders.cancelAll', {});
  await bob.cancelAll(m(x)).catch(() => undefined);
  const inv = (await onExchange(x)).inventory;
  if (inv === 0n) return;
  await bobQuotes(x, [{ side: inv > 0n ? 'buy' : 'sell', price: 500_000n, size: inv > 0n ? inv : -inv }]);
  await ok('orders.flatten', { assetId: x.assetId, epoch: x.epoch, signAs: 'master' });
  await bob.cancelAll(m(x)).catch(() => undefined);
}

beforeAll(async () => {
  temp = await startTradingDevnet('working-orders-', { demoAccounts: 3, btcEpochSeconds: SHORT, flatBtc: true });
  devnet = temp.devnet;
  t = await createTestCore({ trading: tradingOptions(devnet) });
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: Address }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  bob = devnetClient(devnet, devnet.accounts[1]!.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, 1_000n * D);
  await devnet.exchange.credit(devnet.accounts[1]!.address, 100_000n * D);
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await vi.waitFor(async () => {
    expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned');
  }, wait);
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  // A new core has no fair value until the oracle sent 60 prices (30 s at two a second, counted from
  // its connection): the 30 s of `wait` was the warm-up itself, missed when this file starts beside
  // the suite's other long files.
  await vi.waitFor(
    async () => {
      const e = await market('ETH');
      expect(e.fairPrice).not.toBeNull();
      eth = { assetId: e.assetId, epoch: e.epoch, symbolId: unpackAssetId(BigInt(e.assetId)).id };
    },
    { timeout: 90_000, interval: 200 },
  );
}, 180_000);

afterAll(async () => {
  core().close();
  await temp?.stop();
});

describe('exits on a position', () => {
  it('a take-profit sells the position when the bid reaches it, at the exchange’s prices', async () => {
    const before = await onExchange(eth);
    await buyPosition(eth, 50n * C, 10n * N);
    const w = await createExit(eth, { type: 'take-profit', price: '55' });
    expect(w).toMatchObject({ state: 'armed', legs: [{ type: 'take-profit', side: 'sell', price: '550000' }] });
    await bobQuotes(eth, [{ side: 'buy', price: 56n * C, size: 10n * N }]);
    const done = await untilState(w.id, ['done', 'stopped']);
    expect(done.state).toBe('done');
    expect(done.legs[0]!.attempts).toHaveLength(1);
    const after = await onExchange(eth);
    expect(after.inventory).toBe(0n);
    // Bought 10 at 50¢, sold 10 at bob's 56¢: 60¢ more than before (the devnet charges no fees).
    expect(after.cash - before.cash).toBe(10n * 6n * C);
    await flatten(eth);
  }, 60_000);

  it('a stop sells the position when the bid falls to it, within its slippage', async () => {
    const before = await onExchange(eth);
    await buyPosition(eth, 50n * C, 10n * N);
    const w = await createExit(eth, { type: 'stop', price: '45' }, { slippage: '2' });
    await bobQuotes(eth, [{ side: 'buy', price: 46n * C, size: 10n * N }]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await listed(w.id)).state).toBe('armed');
    await bobQuotes(eth, [{ side: 'buy', price: 44n * C, size: 10n * N }]);
    const done = await untilState(w.id, ['done', 'stopped']);
    expect(done).toMatchObject({ state: 'done' });
    expect(done.legs[0]!.attempts[0]!.limit).toBe((43n * C).toString());
    const after = await onExchange(eth);
    expect(after.inventory).toBe(0n);
    expect(before.cash - after.cash).toBe(10n * 6n * C);
    await flatten(eth);
  }, 60_000);

  it('an oracle stop fires when the oracle is moved across its level', async () => {
    await buyPosition(eth, 50n * C, 5n * N);
    const w = await createExit(
      eth,
      { type: 'oracle-stop', level: { from: 'strike', offset: '-20' } },
      { slippage: '5' },
    );
    expect(w.legs[0]).toMatchObject({ type: 'oracle-stop', direction: 'below' });
    await bobQuotes(eth, [{ side: 'buy', price: 48n * C, size: 5n * N }]);
    await new Promise((r) => setTimeout(r, 800));
    expect((await listed(w.id)).state).toBe('armed');
    try {
      devnet.exchange.steerOracle(eth.symbolId, { offset: -40n * D });
      const done = await untilState(w.id, ['done', 'stopped']);
      expect(done.state).toBe('done');
      expect((await onExchange(eth)).inventory).toBe(0n);
    } finally {
      devnet.exchange.steerOracle(eth.symbolId, { offset: 0n });
    }
    await flatten(eth);
  }, 60_000);

  it('a time exit flattens within 1 s of its time before the epoch ends', async () => {
    let btc: MarketSummary | undefined;
    await vi.waitFor(
      async () => {
        btc = await market('BTC');
        expect(btc.fairPrice).not.toBeNull();
        expect(btc.expiration - Date.now()).toBeGreaterThan(11_000);
      },
      { timeout: 40_000, interval: 200 },
    );
    const x = { assetId: btc!.assetId, epoch: btc!.epoch };
    await buyPosition(x, 50n * C, 3n * N);
    await bobQuotes(x, [{ side: 'buy', price: 49n * C, size: 3n * N }]);
    const w = await createExit(x, { type: 'time-exit', secondsBeforeEnd: 5 });
    const fireAt = w.legs[0]!.fireAt!;
    expect(fireAt).toBe(btc!.expiration - 5_000);
    const done = await untilState(w.id, ['done', 'stopped'], 20_000);
    expect(done.state).toBe('done');
    const sentAt = done.legs[0]!.attempts[0]!.at;
    expect(sentAt).toBeGreaterThanOrEqual(fireAt);
    expect(sentAt - fireAt).toBeLessThan(1_000);
    expect((await onExchange(x)).inventory).toBe(0n);
    await bob.cancelAll(m(x)).catch(() => undefined);
  }, 60_000);
});

describe('brackets and rolls', () => {
  /** A bracket on ETH buying `size` at 50¢, taking profit at 58¢, stopping at 42¢. */
  const ethBracket = (size: string) =>
    ok<WorkingOrderView>('workingOrders.create', {
      kind: 'bracket',
      assetId: eth.assetId,
      epoch: eth.epoch,
      signAs: 'master',
      entry: { side: 'buy', price: '50', size, timeInForce: 'GTC' },
      takeProfit: '58',
      stop: '42',
    });

  it('a bracket arms on its entry’s fills (the filled size) and its take-profit closes what they bought', async () => {
    const w = await ethBracket('10');
    expect(w).toMatchObject({ state: 'pending' });
    expect(w.legs.map((l) => [l.type, l.state, l.armed])).toEqual([
      ['entry', 'resting', null],
      ['take-profit', 'idle', '0'],
      ['stop', 'idle', '0'],
    ]);
    await bob.placeOrder({ ...m(eth), side: 'sell', price: 50n * C, size: 4n * N, timeInForce: 'IOC' });
    await vi.waitFor(async () => expect((await listed(w.id)).legs[1]!.armed).toBe((4n * N).toString()), wait);
    expect((await listed(w.id)).state).toBe('armed');
    await bob.placeOrder({ ...m(eth), side: 'sell', price: 50n * C, size: 3n * N, timeInForce: 'IOC' });
    await vi.waitFor(async () => expect((await listed(w.id)).legs[2]!.armed).toBe((7n * N).toString()), wait);
    await bobQuotes(eth, [{ side: 'buy', price: 59n * C, size: 20n * N }]);
    const done = await untilState(w.id, ['done', 'stopped']);
    expect(done.state).toBe('done');
    expect(done.legs[1]!.attempts[0]).toMatchObject({ size: (7n * N).toString(), filled: (7n * N).toString() });
    expect(done.legs[0]!.state).toBe('cancelled');
    expect((await onExchange(eth)).inventory).toBe(0n);
    const open = await bob.getBookOrders(BigInt(eth.assetId), BigInt(eth.epoch), alice);
    expect(open.buys.length + open.sells.length).toBe(0);
    await flatten(eth);
  }, 60_000);

  it('one leg alone: the take-profit cancelled, the stop moved while armed, and the stop closes the position', async () => {
    const w = await ethBracket('5');
    await bob.placeOrder({ ...m(eth), side: 'sell', price: 50n * C, size: 5n * N, timeInForce: 'IOC' });
    await untilState(w.id, ['armed']);
    const [entry, tp, stop] = w.legs.map((l) => l.id);
    const cut = await ok<WorkingOrderView>('workingOrders.cancel', { id: w.id, leg: tp });
    expect(cut.state).toBe('armed');
    expect(cut.legs.map((l) => l.state)).toEqual(['filled', 'cancelled', 'armed']);
    expect(await err('workingOrders.cancel', { id: w.id, leg: tp })).toMatchObject({ code: 'working.leg_ended' });
    expect(await err('workingOrders.edit', { id: w.id, leg: stop, price: '55' })).toMatchObject({
      code: 'working.bracket_prices',
    });
    const moved = await ok<WorkingOrderView>('workingOrders.edit', { id: w.id, leg: stop, price: '45' });
    expect(moved.legs[2]).toMatchObject({ state: 'armed', price: (45n * C).toString() });
    // A bid through the cancelled take-profit sends nothing; one at the moved stop closes the 5.
    await bobQuotes(eth, [{ side: 'buy', price: 59n * C, size: 1n * N }]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await listed(w.id)).state).toBe('armed');
    expect((await onExchange(eth)).inventory).toBe(5n * N);
    await bobQuotes(eth, [{ side: 'buy', price: 45n * C, size: 20n * N }]);
    const done = await untilState(w.id, ['done', 'stopped']);
    expect(done.state).toBe('done');
    expect(done.legs.find((l) => l.id === stop)!.attempts[0]).toMatchObject({ filled: (5n * N).toString() });
    expect(done.legs.find((l) => l.id === entry)!.state).toBe('filled');
    expect((await onExchange(eth)).inventory).toBe(0n);
    await flatten(eth);
  }, 60_000);

  it('a roll places its quotes again in three consecutive epochs', async () => {
    const btc = await market('BTC');
    const w = await ok<WorkingOrderView>('workingOrders.create', {
      kind: 'roll',
      assetId: btc.assetId,
      signAs: 'master',
      quotes: [
        { side: 'buy', size: '1', price: { from: 'fair', offset: '-5' } },
        { side: 'sell', size: '1', price: { from: 'fixed', price: '60' } },
      ],
    });
    const seen = new Set<string>();
    await vi.waitFor(
      async () => {
        const now = await market('BTC');
        const open = await bob.getBookOrders(BigInt(now.assetId), BigInt(now.epoch), alice);
        if (open.buys.length === 1 && open.sells.length === 1 && open.sells[0]!.price === 60n * C) seen.add(now.epoch);
        expect(seen.size).toBeGreaterThanOrEqual(3);
      },
      { timeout: Number(SHORT) * 4_000 + 10_000, interval: 250 },
    );
    const epochs = [...seen].map(BigInt).sort((a, b) => Number(a - b));
    expect(epochs[2]! - epochs[0]!).toBe(2n);
    const view = await ok<WorkingOrderView>('workingOrders.cancel', { id: w.id });
    expect(view.state).toBe('stopped');
    const now = await market('BTC');
    await vi.waitFor(async () => {
      const open = await bob.getBookOrders(BigInt(now.assetId), BigInt(now.epoch), alice);
      expect(open.buys.length + open.sells.length).toBe(0);
    }, wait);
  }, 120_000);
});

describe('a roll’s quotes follow fair value (pegged)', () => {
  it('its bid and ask move to the new fair ± their offsets within a few seconds of the oracle moving', async () => {
    await flatten(eth);
    const fairOf = async (): Promise<bigint> => BigInt((await market('ETH')).fairPrice!);
    const w = await ok<WorkingOrderView>('workingOrders.create', {
      kind: 'roll',
      assetId: eth.assetId,
      signAs: 'master',
      quotes: [
        { side: 'buy', size: '1', price: { from: 'fair', offset: '-5' } },
        { side: 'sell', size: '1', price: { from: 'fair', offset: '5' } },
      ],
    });
    expect(w.roll!.requoteStep).toBe((1n * C).toString());
    const book = async () => bob.getBookOrders(BigInt(eth.assetId), BigInt(eth.epoch), alice);
    /** Alice's bid and ask on the exchange, each within the 1¢ step (and its tick of rounding) of fair ∓ 5¢ now. */
    const pegged = async (): Promise<{ bid: bigint; ask: bigint; fair: bigint }> => {
      const open = await book();
      expect(open.buys).toHaveLength(1);
      expect(open.sells).toHaveLength(1);
      const fair = await fairOf();
      const bid = open.buys[0]!.price;
      const ask = open.sells[0]!.price;
      const near = (price: bigint, target: bigint) => (price > target ? price - target : target - price);
      expect(near(bid, fair - 5n * C)).toBeLessThan(C + 1_000n);
      expect(near(ask, fair + 5n * C)).toBeLessThan(C + 1_000n);
      return { bid, ask, fair };
    };
    let before!: { bid: bigint; ask: bigint; fair: bigint };
    await vi.waitFor(async () => {
      before = await pegged();
    }, wait);
    // Towards 50¢ from wherever ETH has wandered, dollars at a time until fair value has moved well past the step.
    const sign = before.fair > 50n * C ? -1n : 1n;
    try {
      for (const dollars of [10n, 20n, 40n, 80n, 160n]) {
        devnet.exchange.steerOracle(eth.symbolId, { offset: sign * dollars * D });
        await new Promise((r) => setTimeout(r, 1_200));
        const fair = await fairOf();
        if ((fair > before.fair ? fair - before.fair : before.fair - fair) > 4n * C) break;
      }
      const moved = Date.now();
      await vi.waitFor(
        async () => {
          const now = await pegged();
          expect(now.fair > before.fair ? now.fair - before.fair : before.fair - now.fair).toBeGreaterThan(3n * C);
          expect(now.bid).not.toBe(before.bid);
          expect(now.ask).not.toBe(before.ask);
        },
        { timeout: 6_000, interval: 200 },
      );
      expect(Date.now() - moved).toBeLessThan(6_000);
      // The window's view says the same: each quote resting where the exchange has it, at its target.
      const view = await listed(w.id);
      const open = await book();
      expect(view.state).toBe('armed');
      expect(view.roll!.live.map((q) => q.state)).toEqual(['resting', 'resting']);
      expect(view.roll!.live.map((q) => q.resting)).toEqual([
        open.buys[0]!.price.toString(),
        open.sells[0]!.price.toString(),
      ]);
    } finally {
      devnet.exchange.steerOracle(eth.symbolId, { offset: 0n });
    }
    expect((await ok<WorkingOrderView>('workingOrders.cancel', { id: w.id })).state).toBe('stopped');
    await vi.waitFor(async () => {
      const open = await book();
      expect(open.buys.length + open.sells.length).toBe(0);
    }, wait);
    await flatten(eth);
  }, 60_000);
});

describe('held and restarted', () => {
  it('a stale oracle feed holds every trigger, saying so, and they fire once it is live again', async () => {
    await buyPosition(eth, 50n * C, 6n * N);
    devnet.exchange.steerOracle(eth.symbolId, { silent: true });
    try {
      await new Promise((r) => setTimeout(r, 3_500));
      const drafts = [
        { type: 'take-profit', price: '52' },
        { type: 'stop', price: '55' },
        { type: 'oracle-stop', level: { from: 'absolute', price: '999999' }, direction: 'below' },
        { type: 'time-exit', secondsBeforeEnd: 3_599 },
      ];
      const ids: string[] = [];
      for (const trigger of drafts) ids.push((await createExit(eth, trigger, { size: '1' })).id);
      // Every trigger holds now: the bid is through the take-profit and the stop, the oracle level is
      // crossed, the time is past. None fires while the oracle is silent.
      await bobQuotes(eth, [{ side: 'buy', price: 53n * C, size: 10n * N }]);
      await new Promise((r) => setTimeout(r, 2_000));
      for (const id of ids) {
        const v = await listed(id);
        expect(v.state).toBe('armed');
        expect(v.waiting).toMatch(/^waiting: feed not live \(no oracle price for ETH/);
      }
      expect((await onExchange(eth)).inventory).toBe(6n * N);
      devnet.exchange.steerOracle(eth.symbolId, { silent: false });
      for (const id of ids) expect((await untilState(id, ['done', 'stopped'])).state).toBe('done');
      expect((await onExchange(eth)).inventory).toBe(2n * N);
    } finally {
      devnet.exchange.steerOracle(eth.symbolId, { silent: false });
    }
    await flatten(eth);
  }, 60_000);

  it('a restart in the middle re-arms what was armed and sends nothing twice', async () => {
    await buyPosition(eth, 50n * C, 4n * N);
    // One that fired and finished before the restart, one still armed.
    const fired = await createExit(eth, { type: 'take-profit', price: '55' }, { size: '1' });
    await bobQuotes(eth, [{ side: 'buy', price: 56n * C, size: 1n * N }]);
    expect(await untilState(fired.id, ['done', 'stopped'])).toMatchObject({ state: 'done' });
    await bob.cancelAll(m(eth));
    const armed = await createExit(eth, { type: 'stop', price: '45', double: true });
    const fillsBefore = ((await bob.getFills(alice)) ?? []).length;

    t.shutDown();
    restarted = await createTestCore({ trading: tradingOptions(devnet), reuse: { store: t.store, dir: t.dir } });
    // Locked and no account selected: it holds, it does not stop.
    await vi.waitFor(async () => expect((await listed(armed.id)).waiting).toBe('waiting: the app is locked'), wait);
    await ok('lock.unlock', TEST_PASSWORD);
    await vi.waitFor(async () => {
      expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned');
    }, wait);
    await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
    await vi.waitFor(async () => {
      const v = await listed(armed.id);
      expect(v.state).toBe('armed');
      expect(v.waiting).toBeNull();
    }, wait);
    expect(await listed(fired.id)).toMatchObject({ state: 'done' });
    expect(((await bob.getFills(alice)) ?? []).length).toBe(fillsBefore);
    // The double stop fires once on two quotes through, after the restart.
    await bobQuotes(eth, [{ side: 'buy', price: 44n * C, size: 10n * N }]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await listed(armed.id)).state).toBe('armed');
    await bob.placeOrder({ ...m(eth), side: 'buy', price: 445n * 1_000n, size: 1n * N, timeInForce: 'GTC' });
    const done = await untilState(armed.id, ['done', 'stopped']);
    expect(done).toMatchObject({ state: 'done' });
    expect(done.legs[0]!.attempts).toHaveLength(1);
    expect((await onExchange(eth)).inventory).toBe(0n);
    expect(await listed(fired.id)).toMatchObject({ state: 'done' });
    await flatten(eth);
  }, 90_000);
});
