// The trading half of the app core against a real devnet (chain + exchange, no bots) on ephemeral
// ports: connect and pin, markets, books, orders as master and agent, deposits, withdrawals,
// claims, offline signing and the pin-change block — all through core.invoke like the window.
import { describeMarketByFacts } from '../../src/shared/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import type { TempDevnet } from '../devnet-kit';
import { TEST_PASSWORD, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { OrderResult } from '../../src/shared/bridge';
import { orderText } from '../../src/renderer/lib/notice-text';
import { coreCalls, type RecordedEvent } from './core-calls';
import { createTradingCore, startTradingDevnet } from './trading-devnet';

const SHORT = 12n; // seconds: a BTC market that resolves within the test
const wait = { timeout: 40_000, interval: 200 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
let events: RecordedEvent[];
let alice: string;
let bob: string;
let agent: string;
let eth: { assetId: string; epoch: string };
let btcAsset: string;

const { ok, err, of } = coreCalls(
  () => t,
  () => events,
);
const select = (master: string, extra: { agent?: string; tradeAs?: 'master' | 'agent' } = {}) =>
  ok('account.select', { master, agent: extra.agent ?? null, tradeAs: extra.tradeAs ?? 'master' });

type Order = OrderResult;

beforeAll(async () => {
  temp = await startTradingDevnet('core-trading-', { demoAccounts: 3, btcEpochSeconds: SHORT });
  devnet = temp.devnet;
  ({ core: t, btcAsset } = await createTradingCore(devnet));
  events = [];
  for (const event of [
    'notice',
    'connection',
    'markets',
    'book',
    'oracle',
    'account',
    'fill',
    'resolution',
    'deposit',
    'orderHistory',
    'trade',
  ] as const) {
    t.core.on(event, (payload) => events.push({ event, payload }));
  }
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  bob = (
    await ok<{ address: string }>('keys.importPrivateKey', { privateKey: devnet.accounts[1]!.privateKey, label: 'bob' })
  ).address;
  agent = (await ok<{ address: string }>('keys.create', { label: 'agent', role: 'agent' })).address;
  await devnet.exchange.credit(alice, 1_000_000_000n);
  await devnet.exchange.credit(bob, 1_000_000_000n);
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  // Point the built-in devnet deployment at this devnet's ports: the core reconnects.
  t.settings.updateSettings({
    deployments: [devnetDeploymentAt(devnet)],
  });
}, 120_000);

afterAll(async () => {
  t?.close();
  await temp?.stop();
});

describe('trading core on a devnet', () => {
  it('connects, pins the domain and reports feed health', async () => {
    await vi.waitFor(async () => {
      const c = await ok<{ pin: { kind: string; domainName?: string }; feeds: { feed: string; state: string }[] }>(
        'app.connection',
      );
      expect(c.pin).toMatchObject({ kind: 'pinned', domainName: devnet.domainName });
      expect(c.feeds.find((f) => f.feed === 'http')?.state).toBe('live');
      expect(c.feeds.find((f) => f.feed === 'chain')?.state).toBe('live');
    }, wait);
    expect(of<{ message: string }>('notice').some((n) => /Connected/.test(n.message))).toBe(true);
  });

  it('lists markets with strike, epoch and countdown, and streams oracle prices', async () => {
    const list =
      await ok<
        { assetId: string; symbol: string; epoch: string; strike: string; expiration: number; timeframe: string }[]
      >('markets.list');
    expect(list.map((m) => m.symbol)).toEqual(['BTC', 'ETH']);
    const e = list.find((m) => m.symbol === 'ETH')!;
    expect(e.timeframe).toBe('1h');
    expect(e.expiration).toBeGreaterThan(Date.now());
    eth = { assetId: e.assetId, epoch: e.epoch };
    await vi.waitFor(() => expect(of('oracle').length).toBeGreaterThan(0), wait);
    const symbolId = of<{ symbolId: string }>('oracle')[0]!.symbolId;
    expect((await ok<unknown[]>('markets.oracleHistory', symbolId)).length).toBeGreaterThan(0);
    expect(of('markets').length).toBeGreaterThan(0);
  });

  it('places as the master: visible in the account and the book with own size, then cancels', async () => {
    await select(alice);
    const sub = await ok<{ subscriptionId: string; book: { bids: unknown[] } }>('markets.subscribeBook', {
      ...eth,
      depth: 20,
    });
    expect(sub.book.bids).toEqual([]);
    const quote = await ok('orders.quote', {
      ...eth,
      side: 'buy',
      price: '40',
      size: '10',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    expect(quote).toEqual({
      price: '400000',
      size: '10000000',
      cost: '4000000',
      payoutIfRight: '10000000',
      maxLoss: '4000000',
    });
    const placed = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '40',
      size: '10',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    expect(placed).toMatchObject({ status: 'ACCEPTED', side: 'buy', price: '400000', remaining: '10000000' });
    expect(orderText(placed)).toBe('Buy 10 at 40¢ is resting');
    const account = await ok<{ openOrders: { orderId: string; signedBy: string }[]; balance: { locked: string } }>(
      'account.get',
    );
    expect(account.openOrders).toEqual([expect.objectContaining({ orderId: placed.orderId, signedBy: 'master' })]);
    await vi.waitFor(() => {
      const books = of<{ subscriptionId: string; book: { bids: { price: string; ownSize: string }[] } }>('book').filter(
        (b) => b.subscriptionId === sub.subscriptionId,
      );
      expect(books.at(-1)?.book.bids[0]).toMatchObject({ price: '400000', ownSize: '10000000' });
    }, wait);
    const cancelled = await ok<{ status: string; orderIds: string[] }>('orders.cancel', {
      ...eth,
      orderId: placed.orderId,
      signAs: 'master',
    });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', orderIds: [placed.orderId] });
    expect((await ok<{ openOrders: unknown[] }>('account.get')).openOrders).toEqual([]);
    expect(await ok('markets.unsubscribeBook', sub.subscriptionId)).toBeNull();
  });

  it('hears of a credit made elsewhere, which no market event tells, from the balance re-read alone', async () => {
    const available = (view: { balance: { available: string } | null }): bigint =>
      BigInt(view.balance?.available ?? '0');
    // Clear of the short BTC market's roll-over, whose re-read of the account would tell it too.
    await vi.waitFor(
      async () => {
        const list = await ok<{ assetId: string; expiration: number }[]>('markets.list');
        expect(list.find((m) => m.assetId === btcAsset)!.expiration - Date.now()).toBeGreaterThan(6_000);
      },
      { timeout: 20_000, interval: 200 },
    );
    const before = available(await ok<{ balance: { available: string } | null }>('account.get'));
    const heard = events.length;
    await devnet.exchange.credit(alice, 3_000_000n);
    // No call from here on: the window is told by an `account` event from the session's own re-read.
    await vi.waitFor(
      () =>
        expect(
          events
            .slice(heard)
            .some(
              (e) =>
                e.event === 'account' &&
                available(e.payload as { balance: { available: string } | null }) === before + 3_000_000n,
            ),
        ).toBe(true),
      { timeout: 3_000, interval: 100 },
    );
  });

  it('cancels all, replaces, and returns a rejected order as a normal result', async () => {
    await ok('orders.place', { ...eth, side: 'buy', price: '30', size: '1', timeInForce: 'GTC', signAs: 'master' });
    await ok('orders.place', { ...eth, side: 'sell', price: '70', size: '1', timeInForce: 'GTC', signAs: 'master' });
    const all = await ok<{ status: string; orderIds: string[] }>('orders.cancelAll', { ...eth, signAs: 'master' });
    expect(all.status).toBe('CANCELLED');
    expect(all.orderIds).toHaveLength(2);

    const first = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '30',
      size: '2',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    const replaced = await ok<{ status: string; replacement: Order | null }>('orders.replace', {
      ...eth,
      orderId: first.orderId,
      price: '31',
      size: '3',
      signAs: 'master',
    });
    expect(replaced.status).toBe('SUCCESS');
    const open = (await ok<{ openOrders: { price: string; remaining: string }[] }>('account.get')).openOrders;
    expect(open).toEqual([expect.objectContaining({ price: '310000', remaining: '3000000' })]);
    await ok('orders.cancelAll', { ...eth, signAs: 'master' });

    // An order the free balance cannot cover is refused in main before anything is signed, with the shortfall.
    expect(
      await err('orders.place', {
        ...eth,
        side: 'buy',
        price: '99',
        size: '100000',
        timeInForce: 'GTC',
        signAs: 'master',
      }),
    ).toMatchObject({
      code: 'orders.insufficient_balance',
      message: expect.stringMatching(
        /^Not sent: this order needs \$99,000\.00 of collateral and \$[\d,.]+ is free \(\$[\d,.]+ short\)\. Deposit on the Funds screen/,
      ) as string,
    });
    // One the exchange refuses comes back as a normal result.
    await ok('orders.place', { ...eth, side: 'sell', price: '60', size: '1', timeInForce: 'GTC', signAs: 'master' });
    const rejected = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '60',
      size: '1',
      timeInForce: 'ALO',
      signAs: 'master',
    });
    expect(rejected.status).toBe('REJECTED');
    expect(orderText(rejected)).toMatch(/^Rejected: a post-only order would have crossed the book$/);
    await ok('orders.cancelAll', { ...eth, signAs: 'master' });
    // The order history has every outcome, newest placed first.
    const history = await ok<{ orderId: string; outcome: string; reason: string; price: string }[]>('orders.history');
    expect(history[0]).toMatchObject({
      orderId: rejected.orderId,
      outcome: 'rejected',
      reason: 'a post-only order would have crossed the book',
    });
    expect(history[1]).toMatchObject({ outcome: 'cancelled', reason: 'cancelled with cancel all', price: '600000' });
    expect(history.find((h) => h.orderId === first.orderId)).toMatchObject({
      outcome: 'cancelled',
      reason: 'replaced by an edit',
    });
    expect(history.filter((h) => h.reason === 'cancelled with cancel all').length).toBeGreaterThanOrEqual(3);
    expect(of<unknown[]>('orderHistory').at(-1)).toEqual(history);
    expect(
      await err('orders.place', {
        ...eth,
        side: 'buy',
        price: '40.05',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      }),
    ).toMatchObject({
      code: expect.stringMatching(/^exchange\./) as string,
    });
  });

  it('fills against another account: a taker fill, a maker fill event and a position', async () => {
    // The window streams this book, so the market's trades also come as events.
    const sub = await ok<{ subscriptionId: string }>('markets.subscribeBook', { ...eth, depth: 20 });
    await select(bob);
    await ok('orders.place', { ...eth, side: 'sell', price: '45', size: '5', timeInForce: 'GTC', signAs: 'master' });
    await select(alice);
    const taken = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '45',
      size: '5',
      timeInForce: 'IOC',
      signAs: 'master',
    });
    expect(taken).toMatchObject({ status: 'FILLED', side: 'buy', fillPrice: '450000' });
    expect(orderText(taken)).toBe('Bought 5 at 45¢');
    // The trade is on the market's tape, from the feed.
    await vi.waitFor(async () => {
      const tape = await ok<{ price: string; size: string; side: string }[]>('markets.trades', eth);
      expect(tape[0]).toMatchObject({ price: '450000', size: '5000000', side: 'buy' });
    }, wait);
    expect(of<{ price: string }>('trade').some((p) => p.price === '450000')).toBe(true);
    expect(await ok('markets.unsubscribeBook', sub.subscriptionId)).toBeNull();
    const view = await ok<{
      positions: { size: string; averagePrice: string; payoutIfRight: string }[];
      fills: unknown[];
    }>('account.get');
    expect(view.positions).toEqual([
      expect.objectContaining({ size: '5000000', averagePrice: '450000', payoutIfRight: '5000000' }),
    ]);
    expect(view.fills.length).toBeGreaterThan(0);
    expect(of('fill').length).toBeGreaterThan(0);
  });

  it('asks for confirmation of an order only when the setting is on', async () => {
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: true } });
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(
      await err('orders.place', { ...eth, side: 'buy', price: '20', size: '1', timeInForce: 'GTC', signAs: 'master' }),
    ).toMatchObject({ code: 'orders.not_confirmed' });
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  });

  it('approves an agent, trades as the agent for the master, and revokes it', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const approved = await ok<{ confirmed: boolean; value: { agent: string; status: string } }>('agents.approve', {
      agent,
    });
    expect(approved).toMatchObject({ confirmed: true, value: { agent, status: 'active' } });
    expect(t.dialogs.shown.at(-1)).toMatchObject({
      kind: 'confirm',
      request: { detail: expect.stringMatching(/signs twice/) as string },
    });
    const placed = await ok<Order>('orders.place', {
      ...eth,
      side: 'buy',
      price: '21',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'agent',
    });
    expect(placed.status).toBe('ACCEPTED');
    const open = (await ok<{ openOrders: { orderId: string; signedBy: string }[] }>('account.get')).openOrders;
    expect(open).toEqual(
      expect.arrayContaining([expect.objectContaining({ orderId: placed.orderId, signedBy: 'agent' })]),
    );
    // Revoking leaves nothing the agent signed resting: the dialog says it will be cancelled, then it is.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('agents.revoke')).toMatchObject({ confirmed: true, value: { status: 'inactive' } });
    expect(t.dialogs.shown.at(-1)).toMatchObject({
      request: {
        detail: expect.stringMatching(/its 1 resting order in ETH \w+ #\d+ will be cancelled right after/) as string,
      },
    });
    const after = (await ok<{ openOrders: { orderId: string }[] }>('account.get')).openOrders;
    expect(after.map((o) => o.orderId)).not.toContain(placed.orderId);
    expect(of<{ message: string }>('notice').map((n) => n.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Agent revoked\. Its 1 resting order in ETH \w+ #\d+ was cancelled by the master\.$/),
      ]),
    );
  });

  it('deposits with approve and with permit, with progress until credited', async () => {
    for (const mode of ['approve', 'permit'] as const) {
      t.dialogs.answer({ kind: 'confirm', yes: true });
      const { value: r } = await ok<{ confirmed: true; value: { depositId: string; amount: string } }>(
        'funds.deposit',
        { amount: '25', mode },
      );
      expect(r.amount).toBe('25000000');
      // Main showed the token, the spender and the chain before anything was sent.
      const shown = t.dialogs.shown.at(-1);
      expect(shown).toMatchObject({
        kind: 'confirm',
        request: {
          title: 'Deposit',
          message: expect.stringMatching(
            mode === 'permit'
              ? /^Deposit to the exchange with a Permit2 signature: 25 “.+”\?$/
              : /^Deposit to the exchange \(approve, then deposit\): 25 “.+”\?$/,
          ) as string,
        },
      });
      const detail = shown?.kind === 'confirm' ? shown.request.detail : '';
      expect(detail).toContain(`Spender (${mode === 'permit' ? 'Permit2' : 'deposit ledger'}): `);
      expect(detail).toContain(`Chain id: ${devnet.chainId}`);
      expect(detail).toContain('Amount: 25 “');
      expect(detail).toContain('(25000000 base units)');
      await vi.waitFor(() => {
        const stages = of<{ depositId: string; stage: string }>('deposit')
          .filter((d) => d.depositId === r.depositId)
          .map((d) => d.stage);
        expect(stages).toEqual(expect.arrayContaining(['checking', 'sent', 'mined', 'credited']));
      }, wait);
    }
  }, 90_000);

  it('withdraws after the confirmation and is paid on chain', async () => {
    // More than is free: refused with the figures before main's dialog asks, nothing signed.
    const shown = t.dialogs.shown.length;
    const over = await err('funds.withdraw', { amount: '1000000000' });
    expect(over).toMatchObject({
      code: 'funds.over_balance',
      message: expect.stringMatching(
        /^Not withdrawn: \$1,000,000,000\.00 is \$[\d,.]+ more than the \$[\d,.]+ free/,
      ) as string,
    });
    expect(t.dialogs.shown).toHaveLength(shown);
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('funds.withdraw', { amount: '10' })).toEqual({ confirmed: false });
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const w = await ok<{ confirmed: true; value: { id: string; status: string } }>('funds.withdraw', { amount: '10' });
    expect(w.confirmed).toBe(true);
    await vi.waitFor(async () => {
      const list = await ok<{ id: string; status: string; txHash: string | null }[]>('funds.withdrawals');
      expect(list.find((x) => x.id === w.value.id)).toMatchObject({
        status: 'PAID',
        txHash: expect.stringMatching(/^0x/) as string,
      });
    }, wait);
  }, 60_000);

  it('claims after a short epoch resolves', async () => {
    // Start early in an epoch, so both orders land in the same one.
    let btc = { assetId: '', epoch: '', expiration: 0 };
    await vi.waitFor(async () => {
      btc = (await ok<{ assetId: string; epoch: string; expiration: number }[]>('markets.list')).find(
        (m) => m.assetId === btcAsset,
      )!;
      expect(btc.expiration - Date.now()).toBeGreaterThan(7_000);
    }, wait);
    const market = { assetId: btc.assetId, epoch: btc.epoch };
    await select(bob);
    const resting = await ok<Order>('orders.place', {
      ...market,
      side: 'sell',
      price: '50',
      size: '2',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    await select(alice);
    const taken = await ok<Order>('orders.place', {
      ...market,
      side: 'buy',
      price: '50',
      size: '2',
      timeInForce: 'IOC',
      signAs: 'master',
    });
    expect(resting.status).toBe('ACCEPTED');
    expect(taken.status).toBe('FILLED');
    await vi.waitFor(
      () =>
        expect(
          of<{ assetId: string; epoch: string }>('resolution').some(
            (r) => r.assetId === market.assetId && r.epoch === market.epoch,
          ),
        ).toBe(true),
      wait,
    );
    // The event carries the epoch trading now, for the window's notice ("… resolved Up; #4 is trading.").
    const resolution = of<{ assetId: string; epoch: string; currentEpoch: string }>('resolution').find(
      (r) => r.assetId === market.assetId && r.epoch === market.epoch,
    );
    expect(BigInt(resolution!.currentEpoch)).toBeGreaterThan(BigInt(market.epoch));
    let winner = alice;
    await vi.waitFor(async () => {
      await select(alice);
      let claims = await ok<{ epoch: string }[]>('claims.list');
      if (claims.length === 0) {
        await select(bob);
        winner = bob;
        claims = await ok<{ epoch: string }[]>('claims.list');
      }
      expect(claims.map((c) => c.epoch)).toContain(market.epoch);
    }, wait);
    const claimed = await ok<{ status: string; amount: string; summary: string }>('claims.claim', market);
    expect(claimed).toMatchObject({ status: 'CLAIMED', amount: '2000000' });
    expect(claimed.summary).toMatch(/^Claimed \$2\.00 from BTC \d+[smhdw] #\d+$/);
    expect(winner === alice || winner === bob).toBe(true);
    await select(alice);
  }, 60_000);

  it('signs offline, describes the payload, and submits it', async () => {
    // Orders are signed without a dialog (one step, like placing one).
    const { value: payload } = await ok<{ confirmed: true; value: { kind: string; body: unknown } }>('offline.sign', {
      signer: alice,
      action: { kind: 'order', ...eth, side: 'buy', price: '12.5', size: '2', timeInForce: 'GTC' },
    });
    expect(payload.kind).toBe('orders');
    const described = await ok<{
      signatureValid: boolean;
      domainMatchesDeployment: boolean;
      lines: string[];
      signer: string;
    }>('offline.describe', payload);
    expect(described).toMatchObject({
      signatureValid: true,
      domainMatchesDeployment: true,
      lines: [`Buy 2 contracts at 12.5¢ (GTC) on ${describeMarketByFacts(BigInt(eth.assetId), BigInt(eth.epoch))}`],
    });
    expect(described.signer.toLowerCase()).toBe(alice.toLowerCase());
    const tampered = JSON.parse(JSON.stringify(payload)) as { body: { order: { price: string } } };
    tampered.body.order.price = '130000';
    expect(await ok('offline.describe', tampered)).toMatchObject({ signatureValid: false });
    expect(await ok('offline.submit', payload)).toMatchObject({ confirmed: true, value: { status: 'ACCEPTED' } });
    await ok('orders.cancelAll', { ...eth, signAs: 'master' });
  });

  it('blocks signing while a changed signing domain awaits the user, until it is accepted', async () => {
    const real = t.pinning.pinFor('devnet')!;
    t.settings.writePins({ devnet: { ...real, domainName: 'Old Exchange' } }, {});
    // A changed deployment name makes the core reconnect and check the pin again.
    const s = t.settings.getSettings();
    t.settings.updateSettings({ deployments: s.deployments.map((d) => ({ ...d, name: 'Devnet (moved)' })) });
    await vi.waitFor(
      async () => expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('changed'),
      wait,
    );
    expect(
      await err('orders.place', { ...eth, side: 'buy', price: '10', size: '1', timeInForce: 'GTC', signAs: 'master' }),
    ).toMatchObject({
      code: 'deployments.pin_changed',
      message: expect.stringMatching(/Signing for Devnet \(moved\) is paused/) as string,
    });
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.acceptPin')).toMatchObject({
      confirmed: true,
      value: { kind: 'pinned', domainName: devnet.domainName },
    });
    await select(alice);
    expect(
      await ok<Order>('orders.place', {
        ...eth,
        side: 'buy',
        price: '10',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      }),
    ).toMatchObject({ status: 'ACCEPTED' });
  });
});
