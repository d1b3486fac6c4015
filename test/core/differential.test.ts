// The differential test of the trader's numbers. A seeded random sequence of orders (gains, losses,
// partial fills, flatten, cancel-and-replace, both sides, a resolution and a claim) runs against a
// real devnet with no bots: alice trades through the app core, bob (the only other trader) through
// the client library. After every step three accounts of alice must agree exactly:
//   - what the terminal shows (the core's account view: balance, locked, position size, average
//     price, realised and unrealised P&L at the position's fair value, payout if right, claimable),
//   - what the exchange reports over HTTP (balance, pending, the raw position read with its sign
//     flags here, independently of the app's parser),
//   - an independent recomputation from the exchange's fill list (test/core/fill-model.ts).
// DIFF_SEED=<n> replays another sequence (DIFF_VERBOSE=1 prints its steps); a failure names the seed and the step.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetClient } from '../../src/exchange/bots';
import { seededRandom } from '../../src/exchange/prng';
import { TEST_PASSWORD, type TestCore } from '../support/test-core';
import type { ExchangeClient, OwnFillRecord } from '../../src/client';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { AccountView, CloseResult, OrderResult, ReplaceResult } from '../../src/shared/bridge';
import { closeText } from '../../src/renderer/lib/notice-text';
import type { Address } from '../../src/shared/protocol';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls, type RecordedEvent } from './core-calls';
import { createTradingCore, startTradingDevnet } from './trading-devnet';
import { FillModel, type ModelFill } from './fill-model';

const SEED = Number(process.env['DIFF_SEED'] ?? 20261123);
const RANDOM_STEPS = 28;
const SHORT = 20n; // seconds: the BTC market resolves within the test, with room for its steps on a busy machine
const C = 1_000_000n;
const TICK = 1_000n;
const CREDIT = 1_000n * C;
const wait = { timeout: 40_000, interval: 100 };

// The devnet's seeded PRNG (mulberry32): a sequence replays exactly from its seed.
const random = seededRandom(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
/** 0.01 to `max` contracts, on the 0.01 lot. */
const size = (max: number): bigint => BigInt(int(1, max * 100)) * 10_000n;
const cents = (p: bigint): string => {
  const tenths = p / TICK;
  return tenths % 10n === 0n ? (tenths / 10n).toString() : `${tenths / 10n}.${tenths % 10n}`;
};
const contracts = (n: bigint): string => {
  const s = (n * 100n) / C;
  return s % 100n === 0n
    ? (s / 100n).toString()
    : `${s / 100n}.${(s % 100n).toString().padStart(2, '0').replace(/0$/, '')}`;
};
const clampPrice = (p: bigint): bigint => (p < TICK ? TICK : p > 999n * TICK ? 999n * TICK : p);

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
const events: RecordedEvent[] = [];
let alice: Address;
let bob: ExchangeClient;
let eth: Market;
let btcAsset: string;
const model = new FillModel();
/** Markets alice has traded in, `assetId:epoch`. */
const touched = new Set<string>();
const seenFills = { count: 0 };
const coverage = new Set<string>();
/** Realised P&L per market at the last check: a step that raised it realised a gain, one that lowered it a loss. */
const lastPnl = new Map<string, bigint>();
const log: string[] = [];

interface Market {
  assetId: string;
  epoch: string;
}

const { ok } = coreCalls(
  () => t,
  () => events,
);
const key = (m: Market): string => `${m.assetId}:${m.epoch}`;
const ref = (k: string): Market => {
  const [assetId, epoch] = k.split(':') as [string, string];
  return { assetId, epoch };
};

// ------------------------------------------------------------------ the exchange, read directly

/** GET /position read here with its sign flags (docs/signed-quantities.md), not with the app's parser. */
async function rawPosition(m: Market): Promise<{ inventory: bigint; margin: bigint; realisedPnl: bigint }> {
  const res = await fetch(
    new URL(
      `position/${alice}/${m.assetId}/${m.epoch}`,
      devnet.httpUrl.endsWith('/') ? devnet.httpUrl : `${devnet.httpUrl}/`,
    ),
  );
  const j = (await res.json()) as Record<string, unknown>;
  const signed = (v: unknown, flag: unknown): bigint => {
    const n = BigInt(String(v));
    return flag === true && n > 0n ? -n : n;
  };
  return {
    inventory: signed(j['balance'], j['bSide']),
    margin: signed(j['margin'], j['mSide']),
    realisedPnl: signed(j['pnl'], j['pSide']),
  };
}

/** Alice's fills the exchange has recorded since the last call, oldest first. */
async function newFills(): Promise<OwnFillRecord[]> {
  const all = (await bob.getFills(alice, { limit: 1000 })) ?? [];
  const fresh = all.slice(0, all.length - seenFills.count).reverse();
  seenFills.count = all.length;
  return fresh;
}

function feedMakerFills(fills: readonly OwnFillRecord[]): void {
  for (const f of fills) {
    if (f.liquidity !== 'maker')
      throw new Error(`unexpected taker fill of ${f.orderId} in a step where alice sent nothing`);
    model.makerFill(f.orderId, { price: f.price, size: f.size });
    coverage.add('maker fill');
  }
}

function takerFillsOf(fills: readonly OwnFillRecord[], orderId: string): ModelFill[] {
  const other = fills.filter((f) => f.orderId.toLowerCase() !== orderId.toLowerCase());
  if (other.length > 0)
    throw new Error(`fills of other orders (${other.map((f) => f.orderId).join(', ')}) in alice's own step`);
  return fills.map((f) => ({ price: f.price, size: f.size }));
}

async function bookOf(
  m: Market,
): Promise<{ bids: { price: bigint; size: bigint }[]; asks: { price: bigint; size: bigint }[] }> {
  return bob.getOrderBook(BigInt(m.assetId), BigInt(m.epoch), { depth: 1000 });
}

async function bobOrder(
  m: Market,
  side: 'buy' | 'sell',
  price: bigint,
  sz: bigint,
  timeInForce: 'GTC' | 'IOC',
): Promise<void> {
  const outcome = await bob.placeOrder({
    assetId: BigInt(m.assetId),
    epoch: BigInt(m.epoch),
    side,
    price,
    size: sz,
    timeInForce,
  });
  if (outcome.delivery !== 'answered') throw new Error('bob: the order was a duplicate');
}

// ------------------------------------------------------------------ alice through the app core

async function alicePlace(
  m: Market,
  side: 'buy' | 'sell',
  price: bigint,
  sz: bigint,
  tif: 'GTC' | 'IOC',
): Promise<OrderResult> {
  const r = await ok<OrderResult>('orders.place', {
    ...m,
    side,
    price: cents(price),
    size: contracts(sz),
    timeInForce: tif,
    signAs: 'master',
  });
  const fills = takerFillsOf(await newFills(), r.orderId);
  if (r.status !== 'REJECTED')
    model.place(
      { id: r.orderId.toLowerCase(), market: key(m), sell: side === 'sell', price, size: sz, rests: tif === 'GTC' },
      fills,
    );
  touched.add(key(m));
  if (BigInt(r.filled) > 0n && BigInt(r.filled) < sz) coverage.add('partial fill');
  coverage.add(`${side} ${tif}`);
  return r;
}

/** Alice's resting orders in a market, from the model. */
const resting = (m: Market) => [...model.orders.values()].filter((o) => o.market === key(m));

/** The limit a new alice order may reach without meeting her own resting orders (which would self-trade). */
function ownGuard(m: Market, sell: boolean): bigint | null {
  const mine = resting(m)
    .filter((o) => o.sell !== sell)
    .map((o) => o.price);
  if (mine.length === 0) return null;
  return sell ? mine.reduce((a, b) => (a > b ? a : b)) + TICK : mine.reduce((a, b) => (a < b ? a : b)) - TICK;
}

// ------------------------------------------------------------------ the three-way check

async function check(step: string): Promise<void> {
  log.push(step);
  const where = `seed ${SEED}, step ${log.length}: ${step}`;
  await vi.waitFor(
    async () => {
      const view = await ok<AccountView>('account.get');
      const balance = await bob.getBalance(alice);
      expect(
        { available: view.balance?.available, locked: view.balance?.locked },
        `${where}: terminal vs exchange balance`,
      ).toEqual({
        available: balance.balance.toString(),
        locked: balance.pending.toString(),
      });
      expect({ available: balance.balance, locked: balance.pending }, `${where}: exchange vs recomputation`).toEqual({
        available: model.free,
        locked: model.locked,
      });
      if ([...touched].some((k) => model.position(k).resolved)) await ok('claims.list');
      for (const k of touched) {
        const m = ref(k);
        const pos = model.position(k);
        const raw = await rawPosition(m);
        expect(
          { size: raw.inventory, margin: raw.margin, realisedPnl: raw.realisedPnl },
          `${where}: exchange position vs recomputation in ${k}`,
        ).toEqual({
          size: pos.net,
          margin: pos.cost,
          realisedPnl: pos.pnl,
        });
        const shown = view.positions.find((p) => p.assetId === m.assetId && p.epoch === m.epoch);
        // Positions are valued as the daily loss budget values them: at the market's fair value (the
        // terminal's own N(d2), which has tests of its own in src/client/pricing), and with none at the
        // worst they can pay: a long as if Up were worth 0, a short as if it were worth $1. The
        // recomputation values them at that same price, so unrealised P&L is checked exactly.
        const mark = pos.resolved ? null : shown?.markPrice ? BigInt(shown.markPrice) : pos.net < 0n ? 1_000_000n : 0n;
        const f = model.figures(k, mark);
        if (pos.net === 0n && pos.cost === 0n && pos.pnl === 0n) {
          expect(shown, `${where}: no position shown in ${k}`).toBeUndefined();
          continue;
        }
        const claimable = model.claimable(k);
        expect(
          shown && {
            size: shown.size,
            margin: shown.margin,
            realisedPnl: shown.realisedPnl,
            averagePrice: shown.averagePrice,
            unrealisedPnl: shown.unrealisedPnl,
            payoutIfRight: shown.payoutIfRight,
            resolved: shown.resolved,
            claimable: shown.claimable,
          },
          `${where}: terminal position vs recomputation in ${k}`,
        ).toEqual({
          size: f.size.toString(),
          margin: f.margin.toString(),
          realisedPnl: f.realisedPnl.toString(),
          averagePrice: f.averagePrice?.toString() ?? null,
          unrealisedPnl: f.unrealisedPnl?.toString() ?? null,
          payoutIfRight: f.payoutIfRight.toString(),
          resolved: pos.resolved,
          claimable: claimable.toString(),
        });
        const previous = lastPnl.get(k) ?? 0n;
        if (f.realisedPnl < previous) coverage.add('realised loss');
        if (f.realisedPnl > previous) coverage.add('realised gain');
        lastPnl.set(k, f.realisedPnl);
        if (f.size < 0n) coverage.add('short');
        if (f.size > 0n) coverage.add('long');
        if (f.unrealisedPnl !== null && f.unrealisedPnl < 0n) coverage.add('unrealised loss');
      }
    },
    { timeout: 15_000, interval: 50 },
  );
}

// ------------------------------------------------------------------ steps

async function bobQuote(m: Market): Promise<string> {
  const book = await bookOf(m);
  const bid = book.bids[0]?.price ?? 400_000n;
  const ask = book.asks[0]?.price ?? 600_000n;
  const sell = random() < 0.5;
  // Never crossing: a new bid below the best ask, a new ask above the best bid.
  const price = sell ? clampPrice(bid + BigInt(int(1, 60)) * TICK) : clampPrice(ask - BigInt(int(1, 60)) * TICK);
  if (sell ? price <= bid : price >= ask) return 'bob: no room to quote';
  const sz = size(20);
  await bobOrder(m, sell ? 'sell' : 'buy', price, sz, 'GTC');
  feedMakerFills(await newFills());
  return `bob ${sell ? 'offers' : 'bids'} ${contracts(sz)} at ${cents(price)}¢`;
}

async function aliceTake(m: Market, tif: 'IOC' | 'GTC'): Promise<string> {
  const book = await bookOf(m);
  const sell = random() < 0.5;
  const best = sell ? book.bids[0]?.price : book.asks[0]?.price;
  if (best === undefined) return bobQuote(m);
  const guard = ownGuard(m, sell);
  let limit = clampPrice(sell ? best - BigInt(int(0, 40)) * TICK : best + BigInt(int(0, 40)) * TICK);
  if (guard !== null) limit = sell ? (limit < guard ? guard : limit) : limit > guard ? guard : limit;
  if (sell ? limit > best : limit < best) return aliceCancelAll(m);
  const sz = size(25);
  const r = await alicePlace(m, sell ? 'sell' : 'buy', limit, sz, tif);
  return `alice ${tif} ${sell ? 'sells' : 'buys'} ${contracts(sz)} limit ${cents(limit)}¢ → ${r.status} ${contracts(BigInt(r.filled))}`;
}

async function aliceRest(m: Market): Promise<string> {
  const book = await bookOf(m);
  const sell = random() < 0.5;
  const bid = book.bids[0]?.price ?? 300_000n;
  const ask = book.asks[0]?.price ?? 700_000n;
  const price = sell ? clampPrice(bid + BigInt(int(1, 80)) * TICK) : clampPrice(ask - BigInt(int(1, 80)) * TICK);
  if (sell ? price <= bid : price >= ask) return 'alice: no room to rest';
  const sz = size(15);
  const r = await alicePlace(m, sell ? 'sell' : 'buy', price, sz, 'GTC');
  return `alice rests ${sell ? 'a sell' : 'a buy'} of ${contracts(sz)} at ${cents(price)}¢ → ${r.status}`;
}

async function bobTakesAlice(m: Market): Promise<string> {
  const mine = resting(m);
  if (mine.length === 0) return aliceRest(m);
  const o = pick(mine);
  const sz = ((o.remaining * BigInt(int(20, 150))) / 100n / 10_000n) * 10_000n || 10_000n;
  await bobOrder(m, o.sell ? 'buy' : 'sell', o.price, sz, 'IOC');
  feedMakerFills(await newFills());
  return `bob takes ${contracts(sz)} at ${cents(o.price)}¢ against alice's ${o.sell ? 'sell' : 'buy'}`;
}

async function aliceCancel(m: Market): Promise<string> {
  const mine = resting(m);
  if (mine.length === 0) return aliceRest(m);
  const o = pick(mine);
  const r = await ok<{ status: string }>('orders.cancel', { ...m, orderId: o.id, signAs: 'master' });
  if (r.status === 'CANCELLED') model.cancel(o.id);
  return `alice cancels her ${o.sell ? 'sell' : 'buy'} at ${cents(o.price)}¢ → ${r.status}`;
}

async function aliceReplace(m: Market): Promise<string> {
  const mine = resting(m);
  if (mine.length === 0) return aliceRest(m);
  const o = pick(mine);
  // Move it a little either way; crossing is allowed up to (not into) her own other orders.
  let price = clampPrice(o.price + BigInt(int(-30, 30)) * TICK);
  const others = [...model.orders.values()]
    .filter((x) => x.market === key(m) && x.id !== o.id && x.sell !== o.sell)
    .map((x) => x.price);
  if (others.length > 0) {
    const guard = o.sell
      ? others.reduce((a, b) => (a > b ? a : b)) + TICK
      : others.reduce((a, b) => (a < b ? a : b)) - TICK;
    price = o.sell ? (price < guard ? guard : price) : price > guard ? guard : price;
  }
  const sz = size(15);
  const r = await ok<ReplaceResult>('orders.replace', {
    ...m,
    orderId: o.id,
    price: cents(price),
    size: contracts(sz),
    signAs: 'master',
  });
  if (r.status === 'SUCCESS' || r.status === 'CANCEL_COMMITTED_REPLACEMENT_FAILED') model.cancel(o.id);
  const repl = r.replacement;
  if (repl && repl.status !== 'REJECTED') {
    model.place(
      { id: repl.orderId.toLowerCase(), market: key(m), sell: o.sell, price, size: sz, rests: true },
      takerFillsOf(await newFills(), repl.orderId),
    );
    if (BigInt(repl.filled) > 0n) coverage.add('replace crossed');
  } else feedMakerFills(await newFills());
  coverage.add('cancel-and-replace');
  return `alice replaces her ${o.sell ? 'sell' : 'buy'} at ${cents(o.price)}¢ with ${contracts(sz)} at ${cents(price)}¢ → ${r.status}`;
}

async function aliceFlatten(m: Market): Promise<string> {
  const pos = model.position(key(m));
  const before = pos.net;
  // A close hits the other side of the book: alice's own orders there would self-trade, so cancel them first.
  if (resting(m).some((o) => (pos.net > 0n ? !o.sell : o.sell))) return aliceCancelAll(m);
  const r = await ok<CloseResult>('orders.flatten', { ...m, signAs: 'master' });
  if (r.orderId !== null) {
    model.place(
      {
        id: r.orderId.toLowerCase(),
        market: key(m),
        sell: r.side === 'sell',
        price: BigInt(r.limitPrice!),
        size: BigInt(r.requested),
        rests: false,
      },
      takerFillsOf(await newFills(), r.orderId),
    );
  }
  // What it says is left is what is left, and closing never opens the other side.
  expect(r.remaining, closeText(r, key(m))).toBe(pos.net.toString());
  expect(
    before * pos.net >= 0n && (pos.net < 0n ? -pos.net : pos.net) <= (before < 0n ? -before : before),
    closeText(r, key(m)),
  ).toBe(true);
  coverage.add(`flatten ${r.status}`);
  return `alice flattens → ${closeText(r, key(m))}`;
}

async function aliceCancelAll(m: Market): Promise<string> {
  const r = await ok<{ status: string }>('orders.cancelAll', { ...m, signAs: 'master' });
  if (r.status === 'CANCELLED') for (const o of resting(m)) model.cancel(o.id);
  return `alice cancels all → ${r.status}`;
}

/** Bob keeps both sides quoted, a few cents wide, so alice always has something to trade against. */
async function bobTopUp(m: Market): Promise<void> {
  const book = await bookOf(m);
  const mine = new Set(resting(m).map((o) => `${o.sell}:${o.price}`));
  const others = (side: 'bids' | 'asks') => book[side].filter((l) => !mine.has(`${side === 'asks'}:${l.price}`));
  if (others('bids').length > 0 && others('asks').length > 0) return;
  const bid = book.bids[0]?.price ?? 440_000n;
  const ask = book.asks[0]?.price ?? 560_000n;
  if (others('bids').length === 0)
    await bobOrder(m, 'buy', clampPrice(bid - BigInt(int(1, 30)) * TICK), size(30), 'GTC');
  if (others('asks').length === 0)
    await bobOrder(m, 'sell', clampPrice(ask + BigInt(int(1, 30)) * TICK), size(30), 'GTC');
}

async function randomStep(m: Market): Promise<string> {
  await bobTopUp(m);
  const r = random();
  if (r < 0.22) return bobQuote(m);
  if (r < 0.42) return aliceTake(m, 'IOC');
  if (r < 0.5) return aliceTake(m, 'GTC');
  if (r < 0.62) return aliceRest(m);
  if (r < 0.74) return bobTakesAlice(m);
  if (r < 0.8) return aliceCancel(m);
  if (r < 0.9) return aliceReplace(m);
  if (r < 0.96) return aliceFlatten(m);
  return aliceCancelAll(m);
}

// ------------------------------------------------------------------ setup

beforeAll(async () => {
  // A flat BTC path: every epoch resolves at its strike, where Up wins.
  temp = await startTradingDevnet('core-differential-', { demoAccounts: 2, btcEpochSeconds: SHORT, flatBtc: true });
  devnet = temp.devnet;
  ({ core: t, btcAsset } = await createTradingCore(devnet));
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address as Address;
  bob = devnetClient(devnet, devnet.accounts[1]!.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, CREDIT);
  await devnet.exchange.credit(devnet.accounts[1]!.address, 100n * CREDIT);
  model.credit(CREDIT);
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  // The sequence trades at random prices on purpose (this test checks the money, not the guards,
  // which test/core/hostile-window-trades.test.ts holds to their bound): alice widens her limits.
  t.settings.updateSettings({
    riskLimits: {
      priceBandCents: '99.9',
      maxOrderCost: '100000',
      maxPositionContracts: '100000',
      maxOpenOrders: 1000,
      maxOrdersPerMinute: 6000,
      dailyLossPercent: 100,
    },
  });
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await vi.waitFor(
    async () => expect((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned'),
    wait,
  );
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  const e = (await ok<(Market & { assetId: string })[]>('markets.list')).find((m) => m.assetId !== btcAsset)!;
  eth = { assetId: e.assetId, epoch: e.epoch };
}, 120_000);

afterAll(async () => {
  if (process.env['DIFF_VERBOSE'])
    process.stdout.write(
      `${[...log.map((l, i) => `${i + 1}. ${l}`), `covered: ${[...coverage].join(', ')}`].join('\n')}\n`,
    );
  t?.close();
  await temp?.stop();
});

describe(`differential: terminal = exchange = recomputation from fills (seed ${SEED})`, () => {
  it('after every step of a random sequence, through a resolution and a claim', async () => {
    await check('start');
    // The round trip from the report: buy 80 at 99¢, sell at 1¢: a $78.40 loss, shown as one.
    await bobOrder(eth, 'sell', 990_000n, 80n * C, 'GTC');
    await check(`bob offers 80 at 99¢`);
    await check(`alice ${(await alicePlace(eth, 'buy', 990_000n, 80n * C, 'IOC')).status}: buys 80 at 99¢`);
    await bobOrder(eth, 'buy', 10_000n, 80n * C, 'GTC');
    await check('bob bids 80 at 1¢');
    await check(`alice ${(await alicePlace(eth, 'sell', 10_000n, 80n * C, 'IOC')).status}: sells 80 at 1¢`);
    expect(model.position(key(eth)).pnl).toBe(-78_400_000n);
    const loss = (await ok<AccountView>('account.get')).positions.find((p) => p.assetId === eth.assetId)!;
    expect(loss.realisedPnl).toBe('-78400000');
    // So far ETH was marked from the once-a-second poll (an emptied book included); from here it
    // streams a live book, as on the trade screen, and is marked from it. BTC stays on the poll.
    await ok('markets.subscribeBook', { ...eth, depth: 50 });

    // A long closed at a gain, part by hand and the rest with Close position; then a short the same way.
    await bobOrder(eth, 'sell', 470_000n, 10n * C, 'GTC');
    await check(`alice ${(await alicePlace(eth, 'buy', 470_000n, 5n * C, 'IOC')).status}: buys 5 at 47¢`);
    await bob.cancelAll({ assetId: BigInt(eth.assetId), epoch: BigInt(eth.epoch) });
    await bobOrder(eth, 'buy', 600_000n, 10n * C, 'GTC');
    await check(`alice ${(await alicePlace(eth, 'sell', 600_000n, 3n * C, 'IOC')).status}: sells 3 at 60¢`);
    await check(await aliceFlatten(eth));
    await check(`alice ${(await alicePlace(eth, 'sell', 600_000n, 4n * C, 'IOC')).status}: sells 4 short at 60¢`);
    await bobOrder(eth, 'sell', 550_000n, 10n * C, 'GTC');
    await check(await aliceFlatten(eth));
    await bob.cancelAll({ assetId: BigInt(eth.assetId), epoch: BigInt(eth.epoch) });
    // Edit in place: a resting buy moved up and resized, partly filled as maker, then cancelled.
    const rested = await alicePlace(eth, 'buy', 400_000n, 2n * C, 'GTC');
    await check(`alice rests a buy of 2 at 40¢ → ${rested.status}`);
    const edited = await ok<ReplaceResult>('orders.replace', {
      ...eth,
      orderId: rested.orderId,
      price: '42',
      size: '3.5',
      signAs: 'master',
    });
    model.cancel(rested.orderId);
    model.place(
      {
        id: edited.replacement!.orderId.toLowerCase(),
        market: key(eth),
        sell: false,
        price: 420_000n,
        size: 3_500_000n,
        rests: true,
      },
      takerFillsOf(await newFills(), edited.replacement!.orderId),
    );
    coverage.add('cancel-and-replace');
    await check(`alice edits it to 3.5 at 42¢ → ${edited.status}`);
    await bobOrder(eth, 'sell', 420_000n, 1_500_000n, 'IOC');
    feedMakerFills(await newFills());
    await check('bob sells 1.5 into it');
    await check(await aliceCancelAll(eth));

    // Liquidity both sides, then the random walk.
    for (const [side, price] of [
      ['buy', 450_000n],
      ['buy', 430_000n],
      ['sell', 550_000n],
      ['sell', 570_000n],
    ] as const)
      await bobOrder(eth, side, price, 30n * C, 'GTC');
    await check('bob quotes 43/45 – 55/57');
    for (let i = 0; i < RANDOM_STEPS; i++) await check(await randomStep(eth));
    await check(await aliceFlatten(eth));

    // A resolution and a claim on the short BTC market.
    let btc: Market & { expiration: number } = { assetId: '', epoch: '', expiration: 0 };
    await vi.waitFor(async () => {
      btc = (await ok<(Market & { expiration: number })[]>('markets.list')).find((m) => m.assetId === btcAsset)!;
      expect(btc.expiration - Date.now()).toBeGreaterThan(14_000);
    }, wait);
    const bm: Market = { assetId: btc.assetId, epoch: btc.epoch };
    await bobOrder(bm, 'sell', 520_000n, 20n * C, 'GTC');
    await bobOrder(bm, 'buy', 480_000n, 20n * C, 'GTC');
    await check(
      `alice ${(await alicePlace(bm, random() < 0.5 ? 'buy' : 'sell', random() < 0.5 ? 520_000n : 480_000n, size(8) + C, 'IOC')).status} in BTC`,
    );
    await check(await aliceRest(bm));
    await check(await aliceTake(bm, 'IOC'));
    // End long Up, so the claim below has something to pay (a flat path resolves Up).
    const net = model.position(key(bm)).net;
    if (net <= 0n) {
      if (resting(bm).some((o) => o.sell)) await check(await aliceCancelAll(bm));
      await bobOrder(bm, 'sell', 530_000n, -net + 2n * C, 'GTC');
      await check(`alice ${(await alicePlace(bm, 'buy', 530_000n, -net + C, 'IOC')).status}: buys back to long`);
    }
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(btc.expiration), { timeout: 30_000, interval: 200 });
    const resolution = await vi.waitFor(
      async () => {
        const a = await bob.getAssetAtEpoch(BigInt(bm.assetId), BigInt(bm.epoch));
        expect(a.isResolved ?? a.resolutionPrice > 0n).toBe(true);
        return a;
      },
      { timeout: 20_000, interval: 200 },
    );
    model.resolve(key(bm), resolution.resolutionPrice >= resolution.strikePrice);
    coverage.add('resolution');
    await check('BTC resolved');
    const due = model.claimable(key(bm));
    if (due > 0n) {
      const r = await ok<{ status: string; amount: string }>('claims.claim', bm);
      expect(r).toMatchObject({ status: 'CLAIMED', amount: due.toString() });
      model.claim(key(bm));
      coverage.add('claim');
      await check('alice claims');
    }
    for (const c of [
      'realised loss',
      'realised gain',
      'partial fill',
      'maker fill',
      'cancel-and-replace',
      'long',
      'short',
      'buy IOC',
      'sell IOC',
      'resolution',
      'claim',
    ]) {
      expect([...coverage], `seed ${SEED} should have covered "${c}"`).toContain(c);
    }
    expect([...coverage]).toContain('flatten CLOSED');
  }, 120_000);
});
