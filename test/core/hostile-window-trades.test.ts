// The hostile window, trading: an attacker who controls the window's script (bridge calls only) and an
// account of its own ("mallory", trading from this process through the client library) that rests
// orders on the same market. A trade is a value move: buying mallory's ask far above fair value, or
// selling into its bid far below, hands mallory money. The market's oracle is flat, so fair value
// holds still and the bound the order gate promises can be asserted exactly.
//
//   - every path that signs or sends an order (the bridge's trade methods that carry an order, and
//     offline and air-gapped signing and sending) passes main's order gate: with confirmation on, each
//     shows main's order dialog, and when it answers no nothing reaches the exchange;
//   - with confirmation off, buy-high / sell-low orders and churn round trips inside the band cost the
//     account at most its daily loss limit, and every refusal is a code and a sentence.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { devnetClient } from '../../src/exchange/bots';
import {
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  draftOrder,
  keySigner,
  payloadFromFileText,
  payloadToFileText,
  signUnsignedRequest,
  type ExchangeClient,
} from '../../src/client';
import { TEST_PASSWORD, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type {
  BridgeOutcome,
  InboxResult,
  PendingRequestView,
  SignedPayload,
  WorkingOrderView,
} from '../../src/shared/bridge';
import { methodCapabilities } from '../../src/shared/bridge/capabilities';
import { makeExchangeDomain, type Address } from '../../src/shared/protocol';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import { coreCalls } from './core-calls';
import { createTradingCore } from './trading-devnet';

const wait = { timeout: 60_000, interval: 250 };
const D = 1_000_000n; // one dollar in amount units
const N = 1_000_000n; // one contract in size units
const START = 1_000n * D;

/**
 * Every bridge method of class `trade`, and every other method that signs or sends an order, with
 * whether it carries an order. A trade method added later fails the first test until it is listed.
 */
const ORDER_PATHS = {
  'orders.place': 'order',
  'orders.replace': 'order',
  'orders.flatten': 'order',
  'offline.sign': 'order',
  'offline.submit': 'order',
  'airgap.sign': 'order',
  'airgap.submit': 'order',
  // Cancels and claims carry no order; an agent revocation and kit.panic only cancel and revoke.
  'orders.cancel': 'no order',
  'orders.cancelAll': 'no order',
  'agents.revoke': 'no order',
  'claims.claim': 'no order',
  'claims.claimAll': 'no order',
  'kit.panic': 'no order',
  // A working order sends its orders later, when main sees its trigger hold: each through the gate.
  'workingOrders.create': 'order',
  'workingOrders.edit': 'order',
  'workingOrders.cancel': 'no order',
  'workingOrders.cancelAll': 'no order',
} as const;

const ORDER_DIALOG_TITLES = [
  'Place order',
  'Edit order',
  'Close position',
  'Sign an order for another machine',
  'Send an order signed earlier',
  'Sign an order another machine prepared',
  'Send an order signed on another machine',
  'Working order',
];

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
let alice: Address;
let mallory: ExchangeClient;
let malloryAddress: Address;
let market: { assetId: string; epoch: string };
let fair: bigint;

const calls = coreCalls(
  () => t,
  () => [],
);
const invoke = (method: string, ...args: unknown[]): Promise<BridgeOutcome> => t.core.invoke(method, args);

/** A refusal is a dotted code and a sentence; a "no" in main's dialog is { confirmed: false }. */
function expectRefusedOrDeclined(outcome: BridgeOutcome, what: string): void {
  if (outcome.ok) {
    expect(outcome.value, `${what} succeeded instead of being refused`).toEqual({ confirmed: false });
  } else {
    expect(outcome.error.code, what).toMatch(/^[a-z][a-z0-9_]*\.[a-z0-9_.]+$/);
    expect(outcome.error.message, what).toMatch(/^[A-Z0-9"“].{15,}[.)]"?$/s);
  }
}

/** Mallory's resting quotes on the market, replacing any it had. */
async function malloryQuotes(ask: bigint, bid: bigint, size: bigint): Promise<void> {
  const m = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  await mallory.cancelAll(m).catch(() => undefined);
  await mallory.placeOrder({ ...m, side: 'sell', price: ask, size, timeInForce: 'GTC' });
  await mallory.placeOrder({ ...m, side: 'buy', price: bid, size, timeInForce: 'GTC' });
}

/** Alice's balance, locked collateral and position in the market, as the exchange reports them. */
async function aliceOnExchange(): Promise<{ balance: bigint; pending: bigint; inventory: bigint }> {
  const b = await mallory.getBalance(alice);
  const p = await mallory.getPosition(alice, BigInt(market.assetId), BigInt(market.epoch)).catch(() => null);
  return { balance: b.balance, pending: b.pending, inventory: p?.inventory ?? 0n };
}

/** Equity at fair value, counted from the exchange's own figures (independently of the gate). */
async function aliceEquityAtFair(): Promise<bigint> {
  const b = await mallory.getBalance(alice);
  const p = await mallory.getPosition(alice, BigInt(market.assetId), BigInt(market.epoch)).catch(() => null);
  const inv = p?.inventory ?? 0n;
  const value = inv >= 0n ? (inv * fair) / D : (-inv * (D - fair)) / D;
  return b.balance + b.pending + value;
}

beforeAll(async () => {
  // No bots; a flat BTC path (its oracle price never moves, so fair value holds still) in hourly epochs.
  temp = await startTempDevnet('hostile-trades-', {
    bots: 0,
    demoAccounts: 4,
    blockTimeMs: 500,
    markets: (nowSec) => {
      const BTC = { ...DEVNET_SYMBOLS.BTC, volatility: 0 };
      return { symbols: [BTC], markets: [defineMarket({ symbol: BTC, startTime: nowSec, periodLength: 3600n })] };
    },
  });
  devnet = temp.devnet;
  ({ core: t } = await createTradingCore(devnet));
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await calls.ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await calls.ok<{ address: Address }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  await calls.ok('keys.importPrivateKey', { privateKey: devnet.accounts[1]!.privateKey, label: 'bob' });
  malloryAddress = devnet.accounts[2]!.address;
  mallory = devnetClient(devnet, devnet.accounts[2]!.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, START);
  await devnet.exchange.credit(malloryAddress, 100_000n * D);
  await vi.waitFor(async () => {
    const c = await calls.ok<{ pin: { kind: string } }>('app.connection');
    expect(c.pin.kind).toBe('pinned');
  }, wait);
  await calls.ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  await vi.waitFor(async () => {
    const m = (await calls.ok<{ assetId: string; epoch: string; fairPrice: string | null }[]>('markets.list'))[0]!;
    expect(m.fairPrice).not.toBeNull();
    market = { assetId: m.assetId, epoch: m.epoch };
    fair = BigInt(m.fairPrice!);
  }, wait);
  await vi.waitFor(async () => {
    const v = await calls.ok<{ balance: { available: string } | null }>('account.get');
    expect(v.balance?.available).toBe(START.toString());
  }, wait);
  t.dialogs.whenUnscripted('no');
}, 180_000);

afterAll(async () => {
  t?.dialogs.releaseWaiting();
  t?.close();
  await temp?.stop();
});

describe('every path that signs or sends an order passes the order gate', () => {
  it('lists every trade method, and says which carry an order', () => {
    const trade = Object.entries(methodCapabilities)
      .filter(([, c]) => c === 'trade')
      .map(([m]) => m)
      .sort();
    const listed = Object.keys(ORDER_PATHS).filter(
      (m) => methodCapabilities[m as keyof typeof methodCapabilities] === 'trade',
    );
    expect(trade).toEqual(listed.sort());
  });

  it('with confirmation on, shows main’s order dialog on each path, and nothing is sent when it says no', async () => {
    expect(t.settings.getSettings().confirmations.orders).toBe(true);
    expect(fair).toBeGreaterThan(400_000n);
    expect(fair).toBeLessThan(600_000n);
    await malloryQuotes(990_000n, 10_000n, 500n * N);
    const m = market;
    // Set up as the user, answering yes: a resting order to edit, an order signed for later, a position to close.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const resting = await calls.ok<{ orderId: string; status: string }>('orders.place', {
      ...m,
      side: 'buy',
      price: '2',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    expect(resting.status).toBe('ACCEPTED');
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const signedForLater = (
      await calls.ok<{ confirmed: true; value: SignedPayload }>('offline.sign', {
        signer: alice,
        action: { kind: 'order', ...m, side: 'buy', price: '55', size: '1', timeInForce: 'IOC' },
      })
    ).value;
    // A request "another machine" prepared for alice's key, to be signed here.
    const pin = t.pinning.pinFor('devnet')!;
    const domain = makeExchangeDomain({
      chainId: BigInt(pin.chainId),
      verifyingContract: pin.verifyingContract as Address,
      name: pin.domainName,
    });
    const foreign = await draftOrder(
      { signer: alice, domain, contracts: { exchange: domain.verifyingContract, ledger: null } },
      {
        assetId: BigInt(m.assetId),
        epoch: BigInt(m.epoch),
        side: 'buy',
        price: 990_000n,
        size: 500n * N,
        timeInForce: 'IOC',
      },
    );
    const received = await calls.ok<InboxResult>('airgap.receiveText', {
      text: payloadToFileText({ format: REQUEST_FORMAT, request: foreign }),
      via: 'file',
    });
    if (received.kind !== 'request') throw new Error('expected a request');
    // A watched account's order, signed by its key elsewhere, brought back for this machine to send.
    const carol = devnet.accounts[3]!;
    await calls.ok('airgap.watchAdd', { address: carol.address, label: 'carol' });
    const prepared = await calls.ok<PendingRequestView>('airgap.prepare', {
      master: carol.address,
      action: { kind: 'order', ...m, side: 'buy', price: '99', size: '500', timeInForce: 'IOC' },
    });
    const { text } = await calls.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
    const request = payloadFromFileText(text, [REQUEST_FORMAT]);
    if (request.format !== REQUEST_FORMAT) throw new Error('expected a request');
    const response = await signUnsignedRequest(request.request, keySigner(carol.privateKey));
    await calls.ok('airgap.receiveText', {
      text: payloadToFileText({ format: RESPONSE_FORMAT, response }),
      via: 'file',
    });

    const before = await aliceOnExchange();
    const malloryBefore = await mallory.getBalance(malloryAddress);
    const attacks: [keyof typeof ORDER_PATHS, unknown][] = [
      ['orders.place', { ...m, side: 'buy', price: '99', size: '500', timeInForce: 'IOC', signAs: 'master' }],
      ['orders.place', { ...m, side: 'sell', price: '1', size: '500', timeInForce: 'IOC', signAs: 'master' }],
      ['orders.place', { ...m, side: 'buy', price: '50', size: '1', timeInForce: 'IOC', signAs: 'master' }],
      ['orders.replace', { ...m, orderId: resting.orderId, price: '99', size: '500', signAs: 'master' }],
      [
        'offline.sign',
        { signer: alice, action: { kind: 'order', ...m, side: 'buy', price: '99', size: '500', timeInForce: 'IOC' } },
      ],
      ['offline.submit', signedForLater],
      ['airgap.sign', { id: received.request.id }],
      ['airgap.submit', { id: prepared.id }],
    ];
    for (const [method, args] of attacks) {
      const shown = t.dialogs.shown.length;
      const outcome = await invoke(method, args);
      expectRefusedOrDeclined(outcome, method);
      const asked = t.dialogs.shown.slice(shown);
      expect(asked, `${method}: main's order dialog was not shown`).toHaveLength(1);
      const dialog = asked[0]!;
      if (dialog.kind !== 'confirm') throw new Error(`${method}: expected a confirmation`);
      expect(ORDER_DIALOG_TITLES, method).toContain(dialog.request.title);
      expect(dialog.request.detail, `${method}: the dialog names the account`).toMatch(
        /^Account: .*0x[0-9a-fA-F]{40}/m,
      );
      expect(dialog.request.detail, `${method}: the dialog names the market`).toContain('Market: “BTC 1h #');
    }
    // With no position the close sends nothing and asks nothing; with one it asks (checked in the next test).
    expect(await aliceOnExchange()).toEqual(before);
    expect((await mallory.getBalance(malloryAddress)).balance).toBe(malloryBefore.balance);
    // A cancel needs no dialog.
    await calls.ok('orders.cancelAll', { ...m, signAs: 'master' });
    expect(t.dialogs.shown.at(-1)?.kind === 'confirm' && t.dialogs.shown.at(-1)).toBeTruthy();
  }, 120_000);
});

describe('working orders the window creates send only what the gate accepts from the window itself', () => {
  const working = (draft: Record<string, unknown>) =>
    invoke('workingOrders.create', { assetId: market.assetId, epoch: market.epoch, signAs: 'master', ...draft });

  it('with confirmation on, what they send shows main’s order dialog as a working order, and a no sends nothing', async () => {
    expect(t.settings.getSettings().confirmations.orders).toBe(true);
    await malloryQuotes(990_000n, 10_000n, 500n * N);
    const before = await aliceOnExchange();
    const shown = t.dialogs.shown.length;
    // A bracket's entry goes at once: the dialog asks, the answer is no, the create is refused in words.
    expectRefusedOrDeclined(
      await working({
        kind: 'bracket',
        entry: { side: 'buy', price: '99', size: '500', timeInForce: 'IOC' },
        stop: '50',
      }),
      'a bracket with a buy-high entry',
    );
    // A roll's quotes go right after it is created: one dialog per quote, each answered no.
    const roll = await invoke('workingOrders.create', {
      kind: 'roll',
      assetId: market.assetId,
      signAs: 'master',
      quotes: [{ side: 'buy', size: '500', price: { from: 'fixed', price: '99' } }],
    });
    expect(roll.ok).toBe(true);
    await vi.waitFor(() => expect(t.dialogs.shown.length).toBeGreaterThanOrEqual(shown + 2), { timeout: 10_000 });
    for (const d of t.dialogs.shown.slice(shown)) {
      if (d.kind !== 'confirm') throw new Error('expected a confirmation');
      expect(d.request.title).toBe('Working order');
      expect(d.request.detail).toMatch(/^Account: .*0x[0-9a-fA-F]{40}/m);
      expect(d.request.detail).toContain('Sent by a working order');
    }
    await calls.ok('workingOrders.cancelAll', {});
    expect(await aliceOnExchange()).toEqual(before);
  }, 60_000);

  it('with confirmation off, an exit priced to hand the position away is refused by the band, and nothing moves', async () => {
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
    try {
      const m = market;
      // A position of 1, bought at fair from mallory (the window's own order, inside the band).
      const atFair = fair - (fair % 1_000n);
      await malloryQuotes(atFair, 10_000n, N);
      const bought = await calls.ok<{ filled: string }>('orders.place', {
        ...m,
        side: 'buy',
        price: (Number(atFair) / 10_000).toFixed(1),
        size: '1',
        timeInForce: 'IOC',
        signAs: 'master',
      });
      expect(bought.filled).toBe(N.toString());
      // Mallory bids 1¢; the window sets a take-profit that fires at once and an IOC 99¢ below it.
      await malloryQuotes(990_000n, 10_000n, 500n * N);
      await vi.waitFor(async () => expect((await aliceOnExchange()).inventory).toBe(N), { timeout: 10_000 });
      const before = await aliceOnExchange();
      const malloryBefore = await mallory.getBalance(malloryAddress);
      const created = await working({ kind: 'exit', trigger: { type: 'take-profit', price: '1' }, slippage: '0' });
      if (!created.ok) throw new Error(created.error.message);
      const id = (created.value as WorkingOrderView).id;
      await vi.waitFor(
        async () => {
          const w = (await calls.ok<WorkingOrderView[]>('workingOrders.list')).find((x) => x.id === id)!;
          expect(w.state).toBe('stopped');
          expect(w.reason).toMatch(/^Stopped: its exit was refused\. Refused: .*(band|fair value)/);
        },
        { timeout: 15_000 },
      );
      expect(await aliceOnExchange()).toEqual(before);
      expect((await mallory.getBalance(malloryAddress)).balance).toBe(malloryBefore.balance);
      // The position goes back to mallory at fair, as the window could have sold it.
      await malloryQuotes(990_000n, atFair, N);
      await calls.ok('orders.flatten', { ...m, signAs: 'master' });
    } finally {
      t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: true } });
      await mallory.cancelAll({ assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) }).catch(() => undefined);
    }
  }, 60_000);
});

describe('with confirmation off, a window loses at most the daily loss limit', () => {
  it('refuses buy-high and sell-low outside the band, and stops churn inside it at the limit', async () => {
    // The user turned confirmation off through main's dialog, as every hotkey trader does.
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
    const m = market;
    const order = (side: 'buy' | 'sell', price: string, size: string) => ({
      ...m,
      side,
      price,
      size,
      timeInForce: 'IOC',
      signAs: 'master',
    });
    const startEquity = await aliceEquityAtFair();
    const status = await calls.ok<{ lossLimit: string; lossToday: string }>('risk.status');
    const limit = BigInt(status.lossLimit);
    expect(limit).toBe(startEquity / 10n);

    await malloryQuotes(990_000n, 10_000n, 500n * N);
    for (const o of [order('buy', '99', '500'), order('sell', '1', '500')]) {
      const outcome = await invoke('orders.place', o);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.error.code).toBe('risk.price_band');
        expect(outcome.error.message).toMatch(
          /^Refused: (99|1)¢ is \d+\.\d¢ (above|below) fair value \d+\.\d¢; your band is 15¢\.( It also breaks your [a-z ,]+\.)?$/,
        );
      }
    }

    // Churn inside the band: buy from mallory 15¢ over fair, sell to it 15¢ under, again and again.
    const cents = (p: bigint): string => (Number(p) / 10_000).toFixed(1);
    // On the 0.1¢ tick, just inside the 15¢ band (the market list shows fair rounded to 0.1¢).
    const high = fair + 149_000n - (fair % 1_000n);
    const low = fair - 149_000n + ((1_000n - (fair % 1_000n)) % 1_000n);
    const refusals: { code: string; message: string }[] = [];
    for (let round = 0; round < 40 && refusals.length < 4; round++) {
      await malloryQuotes(high, low, 50n * N);
      for (const o of [order('buy', cents(high), '50'), order('sell', cents(low), '50')]) {
        const outcome = await invoke('orders.place', o);
        if (!outcome.ok) refusals.push(outcome.error);
      }
      // The other signing paths are held to the same budget.
      const viaOffline = await invoke('offline.sign', {
        signer: alice,
        action: { kind: 'order', ...m, side: 'buy', price: cents(high), size: '50', timeInForce: 'IOC' },
      });
      if (viaOffline.ok) {
        const sent = await invoke('offline.submit', (viaOffline.value as { value: SignedPayload }).value);
        if (!sent.ok) refusals.push(sent.error);
      } else refusals.push(viaOffline.error);
    }
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) {
      expect(r.code).toBe('risk.daily_loss');
      expect(r.message).toMatch(/^Refused: today's loss .* daily limit of \$\d+\.\d{2}/);
    }
    await mallory.cancelAll({ assetId: BigInt(m.assetId), epoch: BigInt(m.epoch) });
    const lost = startEquity - (await aliceEquityAtFair());
    // The exact bound: never more than the limit, and the gate let trading go on until close to it,
    // counting with today's loss what is still open: an order signed offline whose send was refused is
    // a signature the window holds, reserved at the most it can lose until its epoch ends.
    expect(lost).toBeLessThanOrEqual(limit);
    const last = refusals.at(-1)!.message;
    const dollars = (m: RegExpExecArray | null): bigint => (m ? BigInt(m[1]!.replace(/[,.]/g, '')) * 10_000n : 0n);
    const lossThen = dollars(/today's loss \(\$([\d,]+\.\d\d)\)/.exec(last));
    const openThen = dollars(/before fair value is checked again \(\$([\d,]+\.\d\d)\) and/.exec(last));
    expect(lossThen + openThen).toBeGreaterThan(limit - 15n * D);
    expect(lossThen).toBeGreaterThan(lost - D);
    const after = await calls.ok<{ spent: boolean; lossToday: string }>('risk.status');
    expect(BigInt(after.lossToday)).toBeLessThanOrEqual(limit);
  }, 240_000);
});
