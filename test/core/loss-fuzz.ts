/**
 * The loss-limit invariant, played as an attacker who controls only the window would play it
 * (docs/risk-guards.md#the-invariant). A real core trades on a real devnet: a $1,000 account with
 * confirmations off (turned off through main's dialog, as a hotkey trader does), every other dialog
 * of main answered no, and a colluding account (mallory) in this process resting and taking orders on
 * the same markets. Seeded random steps of hostile bridge calls (orders on listed and unlisted markets,
 * bursts not awaited, edits, offline-signed orders sent later, market-list edits that restart the
 * session, account switches, watch-only adds, lock and unlock) and of the market (the devnet's oracle
 * moved up and down, silent spells), and after every step:
 *
 *   today's loss = equity at the start − equity now ≤ the limit + what the market moved held positions against the account
 *
 * where equity is the exchange's own numbers (balance, locked collateral, positions) with positions at
 * the market's fair value (the one the app shows; the last one seen while the oracle is silent), and
 * "what the market moved" sums, over each step, the positions held before it times the change in fair
 * value across it, when that sum is a loss. A position's market risk is the trader's, not the window's:
 * main never closes positions, so a move against them may take today's loss past the limit by that
 * much. A move in the account's favour is today's gain like any other: the limit is on the day's loss.
 * The assertion adds one cent of rounding per order.
 */
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { devnetClient } from '../../src/exchange/bots';
import { seededRandom } from '../../src/exchange/prng';
import type { DevnetHandle } from '../../src/devnet/devnet';
import type { ExchangeClient } from '../../src/client';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { Address } from '../../src/shared/protocol';
import type { SignedPayload } from '../../src/shared/bridge';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';

const D = 1_000_000n; // a dollar
const N = 1_000_000n; // a contract
const SCALE = 1_000_000n; // price units per $1
export const START = 1_000n * D;

export interface FuzzReport {
  seed: number;
  steps: number;
  orders: number;
  refused: number;
  fills: number;
  cancelledByMain: number;
  /** The most the window's actions cost at any step (amount units). */
  worstLoss: bigint;
  limit: bigint;
  /** The first step at which the loss passed the limit, with the steps so far, or null. */
  violation: string | null;
  kinds: Record<string, number>;
  /** Refusals by code. */
  refusedBy: Record<string, number>;
}

export interface Market {
  assetId: bigint;
  epoch: bigint;
  symbolId: bigint;
  listed: boolean;
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const cents = (p: bigint): string => (Number(p) / 10_000).toFixed(1);

export interface FuzzWorld {
  temp: TempDevnet;
  devnet: DevnetHandle;
  t: TestCore;
  alice: Address;
  bob: Address;
  mallory: ExchangeClient;
  markets: Market[];
  /** A fresh funded account from the devnet's demo keys (index 3 and up), imported and selected: a day of its own. */
  freshAccount(index: number): Promise<Address>;
  ok<T>(method: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** The devnet (no bots, flat oracle paths that only the fuzzer moves) and the core, set up and warmed. */
export async function fuzzWorld(prefix = 'loss-fuzz-'): Promise<FuzzWorld> {
  const temp = await startTempDevnet(prefix, {
    bots: 0,
    demoAccounts: 10,
    blockTimeMs: 500,
    markets: (nowSec) => {
      const flat = (s: (typeof DEVNET_SYMBOLS)[keyof typeof DEVNET_SYMBOLS]) => ({ ...s, volatility: 0 });
      const [BTC, ETH, SOL] = [flat(DEVNET_SYMBOLS.BTC), flat(DEVNET_SYMBOLS.ETH), flat(DEVNET_SYMBOLS.SOL)];
      return {
        symbols: [BTC, ETH, SOL],
        markets: [BTC, ETH, SOL].map((symbol) => defineMarket({ symbol, startTime: nowSec, periodLength: 3600n })),
      };
    },
  });
  const devnet = temp.devnet;
  const { t, ok } = await connectCore(devnet);
  const alice = await importKey(t, devnet, 0, 'alice');
  const bob = await importKey(t, devnet, 1, 'bob');
  const mallory = devnetClient(devnet, devnet.accounts[2]!.privateKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, START);
  await devnet.exchange.credit(devnet.accounts[2]!.address, 1_000_000n * D);
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  const markets: Market[] = devnet.markets.markets.map((m, i) => ({
    assetId: m.assetId,
    epoch: 0n,
    symbolId: m.symbolId,
    listed: i < 2,
  }));
  // Warm: every listed market has a fair value, and the account is read.
  await until(async () => {
    const list = await ok<{ assetId: string; epoch: string; fairPrice: string | null }[]>('markets.list');
    for (const m of list) {
      const mine = markets.find((x) => x.assetId.toString() === m.assetId);
      if (mine) mine.epoch = BigInt(m.epoch);
    }
    return list.length === 2 && list.every((m) => m.fairPrice !== null);
  }, 120_000);
  const sol = markets[2]!;
  sol.epoch = (await mallory.getAsset(sol.assetId)).epoch;
  await until(
    async () =>
      (await ok<{ balance: { available: string } | null }>('account.get')).balance?.available === START.toString(),
  );
  return {
    temp,
    devnet,
    t,
    alice,
    bob,
    mallory,
    markets,
    ok,
    async freshAccount(index) {
      const key = devnet.accounts[index]!;
      const { address } = await ok<{ address: Address }>('keys.importPrivateKey', {
        privateKey: key.privateKey,
        label: `account ${index}`,
      });
      await devnet.exchange.credit(address, START);
      await ok('account.select', { master: address, agent: null, tradeAs: 'master' });
      await until(
        async () =>
          (await ok<{ balance: { available: string } | null }>('account.get')).balance?.available === START.toString(),
      );
      return address;
    },
    async close() {
      t.dialogs.releaseWaiting();
      t.close();
      await temp.stop();
    },
  };
}

type Ok = <T>(method: string, ...args: unknown[]) => Promise<T>;

/**
 * A core on the devnet as a hotkey trader runs it: its directory lists BTC and ETH only (SOL trades on
 * the exchange but is not on the list), an app password, confirmation of orders turned off through
 * main's dialog, and every other dialog of main answered no. Connected and pinned.
 */
export async function connectCore(devnet: DevnetHandle): Promise<{ t: TestCore; ok: Ok }> {
  const entries = devnet.markets.markets.slice(0, 2).map((m) => ({ assetId: m.assetId, symbol: m.symbol }));
  const t = await createTestCore({
    trading: { markets: devnetMarkets(entries), pollMs: 250, healthMs: 1000, balancePollMs: 500 },
  });
  // A deployment the person added (its market list is theirs to edit), confirmed and then pinned in
  // main's dialogs, answered yes as the person would.
  const { builtIn: _builtIn, ...at } = devnetDeploymentAt(devnet);
  t.settings.updateSettings({
    deployments: [
      {
        ...at,
        id: 'fuzz',
        name: 'Fuzz exchange',
        confirmedAt: new Date().toISOString(),
        markets: entries.map((e) => ({ assetId: e.assetId.toString(), symbol: e.symbol })),
      },
    ],
    selectedDeploymentId: 'fuzz',
  });
  const ok: Ok = async <T>(method: string, ...args: unknown[]): Promise<T> => {
    const o = await t.core.invoke(method, args);
    if (!o.ok) throw new Error(`${method}: ${o.error.code} ${o.error.message}`);
    return o.value as T;
  };
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  await until(async () => {
    const state = (await ok<{ pin: { kind: string } }>('app.connection')).pin.kind;
    if (state === 'pinned') return true;
    // One scripted yes at a time: one left over would say yes to a later dialog (an override) instead of no.
    if (t.dialogs.pending() === 0) t.dialogs.answer({ kind: 'confirm', yes: true });
    await t.core.invoke('deployments.acceptPin', []);
    return false;
  });
  if (t.dialogs.pending() !== 0) throw new Error('a scripted yes was left over after pinning');
  t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  t.dialogs.whenUnscripted('no');
  return { t, ok };
}

/** Imports the devnet's demo key `index` into the core's vault; its address. */
export async function importKey(t: TestCore, devnet: DevnetHandle, index: number, label: string): Promise<Address> {
  const o = await t.core.invoke('keys.importPrivateKey', [{ privateKey: devnet.accounts[index]!.privateKey, label }]);
  if (!o.ok) throw new Error(`keys.importPrivateKey: ${o.error.message}`);
  return (o.value as { address: Address }).address;
}

export async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `steps` seeded random steps on a warmed world; checks the invariant after each. */
export async function runLossFuzz(
  w: FuzzWorld,
  seed: number,
  steps: number,
  log: (line: string) => void = () => undefined,
): Promise<FuzzReport> {
  const r = seededRandom(seed);
  const { t, devnet, alice, mallory, markets } = w;
  const invoke = (method: string, ...args: unknown[]) => t.core.invoke(method, args);
  const listed = markets.filter((m) => m.listed);
  const report: FuzzReport = {
    seed,
    steps: 0,
    orders: 0,
    refused: 0,
    fills: 0,
    cancelledByMain: 0,
    worstLoss: 0n,
    limit: 0n,
    violation: null,
    kinds: {},
    refusedBy: {},
  };
  const status = await invoke('risk.status');
  const limit = status.ok ? BigInt((status.value as { lossLimit: string | null }).lossLimit ?? '0') : 0n;
  report.limit = limit;
  const offsets = new Map<bigint, bigint>();
  const lastFair = new Map<string, bigint>();
  const fairNow = async (): Promise<Map<string, bigint>> => {
    const out = await invoke('markets.list');
    if (out.ok)
      for (const m of out.value as { assetId: string; fairPrice: string | null }[])
        if (m.fairPrice !== null) lastFair.set(m.assetId, BigInt(m.fairPrice));
    return lastFair;
  };
  const held = async (): Promise<{ cash: bigint; inventory: Map<string, bigint> }> => {
    const b = await mallory.getBalance(alice);
    const inventory = new Map<string, bigint>();
    for (const m of markets) {
      const p = await mallory.getPosition(alice, m.assetId, m.epoch).catch(() => null);
      if (p && p.inventory !== 0n) inventory.set(m.assetId.toString(), p.inventory);
      // A position is cash too: its collateral is counted with the position's value below.
    }
    return { cash: b.balance + b.pending, inventory };
  };
  // SOL has no fair value here (not listed): valued at the price mallory last quoted it around, 50¢.
  const valueOf = (inv: Map<string, bigint>, fair: Map<string, bigint>): bigint => {
    let v = 0n;
    for (const [asset, n] of inv) {
      const f = fair.get(asset) ?? SCALE / 2n;
      v += n > 0n ? (n * f) / SCALE : (-n * (SCALE - f)) / SCALE;
    }
    return v;
  };
  let before = await held();
  let fairBefore = new Map(await fairNow());
  const startEquity = before.cash + valueOf(before.inventory, fairBefore);
  let drift = 0n;

  const order = (m: Market, side: 'buy' | 'sell', price: bigint, size: bigint, tif: string) => ({
    assetId: m.assetId.toString(),
    epoch: m.epoch.toString(),
    side,
    price: cents(price),
    size: size.toString(),
    timeInForce: tif,
    signAs: 'master',
  });
  /** A price near the market's fair value: inside the band mostly, across it sometimes. */
  const priceNear = (m: Market, side: 'buy' | 'sell'): bigint => {
    const f = lastFair.get(m.assetId.toString()) ?? SCALE / 2n;
    const off = BigInt(Math.floor(r() * (r() < 0.8 ? 150_000 : 400_000)));
    const p = side === 'buy' ? f + off : f - off;
    const tick = 1_000n;
    const q = (p / tick) * tick;
    return q < 10_000n ? 10_000n : q > 990_000n ? 990_000n : q;
  };
  const placed = (o: { ok: boolean; value?: unknown; error?: { code: string } }): void => {
    report.orders++;
    if (!o.ok) {
      report.refused++;
      const code = o.error?.code ?? 'unknown';
      report.refusedBy[code] = (report.refusedBy[code] ?? 0) + 1;
    } else if (BigInt((o.value as { filled?: string }).filled ?? '0') > 0n) report.fills++;
  };

  const actions: [string, number, () => Promise<void>][] = [
    [
      'colluder quotes around the order',
      6,
      async () => {
        const m = pick(r, markets);
        const f = lastFair.get(m.assetId.toString()) ?? SCALE / 2n;
        const onTick = (p: bigint): bigint => (p / 1_000n) * 1_000n;
        const ask = onTick(f + BigInt(Math.floor(r() * 150_000)));
        const bid = onTick(f - BigInt(Math.floor(r() * 150_000)));
        const size = BigInt(1 + Math.floor(r() * 300)) * N;
        await mallory.cancelAll({ assetId: m.assetId, epoch: m.epoch }).catch(() => undefined);
        if (ask < 1_000_000n)
          await mallory
            .placeOrder({ assetId: m.assetId, epoch: m.epoch, side: 'sell', price: ask, size, timeInForce: 'GTC' })
            .catch(() => undefined);
        if (bid > 0n)
          await mallory
            .placeOrder({ assetId: m.assetId, epoch: m.epoch, side: 'buy', price: bid, size, timeInForce: 'GTC' })
            .catch(() => undefined);
      },
    ],
    [
      'order through the window',
      8,
      async () => {
        const m = r() < 0.85 ? pick(r, listed) : markets[2]!;
        const side = r() < 0.5 ? 'buy' : 'sell';
        const size = BigInt(1 + Math.floor(r() * 200));
        placed(await invoke('orders.place', order(m, side, priceNear(m, side), size, r() < 0.5 ? 'IOC' : 'GTC')));
      },
    ],
    [
      'burst not awaited',
      4,
      async () => {
        const m = pick(r, listed);
        const side = r() < 0.5 ? 'buy' : 'sell';
        const outs = await Promise.all(
          Array.from({ length: 3 + Math.floor(r() * 5) }, () =>
            invoke('orders.place', order(m, side, priceNear(m, side), BigInt(20 + Math.floor(r() * 150)), 'GTC')),
          ),
        );
        outs.forEach(placed);
      },
    ],
    [
      'colluder takes what rests',
      6,
      async () => {
        for (const m of markets) {
          const book = await mallory.getBookOrders(m.assetId, m.epoch, alice).catch(() => null);
          for (const o of [...(book?.buys ?? []), ...(book?.sells ?? [])].slice(0, 4)) {
            const sell = (book?.buys ?? []).includes(o);
            await mallory
              .placeOrder({
                assetId: m.assetId,
                epoch: m.epoch,
                side: sell ? 'sell' : 'buy',
                price: o.price,
                size: o.size,
                timeInForce: 'IOC',
              })
              .catch(() => undefined);
          }
        }
      },
    ],
    [
      'edit a resting order',
      2,
      async () => {
        const m = pick(r, listed);
        const book = await mallory.getBookOrders(m.assetId, m.epoch, alice).catch(() => null);
        const o = book?.buys[0] ?? book?.sells[0];
        if (!o) return;
        const side = book?.buys[0] ? 'buy' : 'sell';
        placed(
          await invoke('orders.replace', {
            assetId: m.assetId.toString(),
            epoch: m.epoch.toString(),
            orderId: o.id,
            price: cents(priceNear(m, side)),
            size: String(1 + Math.floor(r() * 200)),
            signAs: 'master',
          }),
        );
      },
    ],
    [
      'sign an order offline, send it later',
      2,
      async () => {
        const m = pick(r, listed);
        const side = r() < 0.5 ? 'buy' : 'sell';
        const signed = await invoke('offline.sign', {
          signer: alice,
          action: (({ signAs: _, ...o }) => ({ kind: 'order', ...o }))(
            order(m, side, priceNear(m, side), BigInt(1 + Math.floor(r() * 100)), 'IOC'),
          ),
        });
        if (!signed.ok) {
          placed(signed);
          return;
        }
        report.orders++;
        placed(await invoke('offline.submit', (signed.value as { value: SignedPayload }).value));
      },
    ],
    [
      'market list edited (the session restarts)',
      1,
      async () => {
        const d = t.settings.getSettings().deployments[0]!;
        await invoke('deployments.moveMarket', {
          deploymentId: d.id,
          assetId: listed[Math.floor(r() * 2)]!.assetId.toString(),
          to: 1,
        });
      },
    ],
    [
      'switch accounts, watch some, read the budget',
      1,
      async () => {
        await invoke('account.select', { master: w.bob, agent: null, tradeAs: 'master' });
        await invoke('risk.status');
        for (let i = 0; i < 3; i++) {
          const address = `0x${Math.floor(r() * 2 ** 48)
            .toString(16)
            .padStart(40, '0')}`;
          await invoke('airgap.watchAdd', { address, label: `watched ${i}` });
          await invoke('account.select', { master: address, agent: null, tradeAs: 'master' });
          await invoke('risk.status');
        }
        await invoke('account.select', { master: alice, agent: null, tradeAs: 'master' });
      },
    ],
    [
      'lock and unlock',
      1,
      async () => {
        await invoke('lock.lock');
        await invoke('lock.unlock', TEST_PASSWORD);
        await invoke('account.select', { master: alice, agent: null, tradeAs: 'master' });
      },
    ],
    [
      'oracle moves',
      5,
      async () => {
        const m = pick(r, listed);
        // ± $600 on $65,000: fair value moves by up to about 10¢ a step, sometimes past the band.
        const step = BigInt(Math.floor((r() - 0.5) * 1_200)) * D;
        const next = (offsets.get(m.symbolId) ?? 0n) + step;
        offsets.set(m.symbolId, next);
        devnet.exchange.steerOracle(m.symbolId, { offset: next });
        await sleep(1_200);
      },
    ],
    [
      'oracle silent for a spell',
      1,
      async () => {
        const m = pick(r, listed);
        devnet.exchange.steerOracle(m.symbolId, { silent: true });
        await sleep(2_500 + r() * 2_000);
        devnet.exchange.steerOracle(m.symbolId, { silent: false });
      },
    ],
  ];
  const weights = actions.reduce((s, a) => s + a[1], 0);
  for (let step = 0; step < steps; step++) {
    let x = r() * weights;
    const [kind, , act] = actions.find((a) => (x -= a[1]) < 0) ?? actions[0]!;
    report.kinds[kind] = (report.kinds[kind] ?? 0) + 1;
    await act();
    // Main acts between orders on its own: let it answer what this step changed.
    await sleep(150);
    const after = await held();
    const fair = await fairNow();
    // What the market did to what was held before this step: not the window's doing.
    for (const [asset, n] of before.inventory) {
      const f0 = fairBefore.get(asset);
      const f1 = fair.get(asset);
      if (f0 !== undefined && f1 !== undefined) drift += (n * (f1 - f0)) / SCALE;
    }
    const equity = after.cash + valueOf(after.inventory, fair);
    // Today's loss at the exchange's numbers, and what of it the market did to held positions.
    const total = startEquity - equity;
    const adverse = drift < 0n ? -drift : 0n;
    // The limit holds for today's loss; only the market moving against positions the account holds
    // (main never closes them) may take it further, by as much as it moved them.
    const loss = total - adverse;
    if (loss > report.worstLoss) report.worstLoss = loss;
    report.steps = step + 1;
    log(
      `${step + 1} ${kind}: today's loss ${Number(total) / 1e6}, the market's part ${Number(adverse) / 1e6}, of ${Number(limit) / 1e6}`,
    );
    // Rounding: a cent per order placed (each fill's value rounds once).
    if (loss > limit + BigInt(report.orders) * 10_000n) {
      report.violation = `seed ${seed}, step ${step + 1} (${kind}): today's loss $${Number(total) / 1e6}, less $${Number(adverse) / 1e6} the market moved held positions against the account, is over the $${Number(limit) / 1e6} limit`;
      break;
    }
    before = after;
    fairBefore = new Map(fair);
  }
  const history = await invoke('orders.history');
  if (history.ok)
    report.cancelledByMain = (history.value as { reason?: string }[]).filter((e) =>
      /quote protection|daily loss limit/.test(e.reason ?? ''),
    ).length;
  return report;
}
