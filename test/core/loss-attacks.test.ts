// The six attacks that broke the daily loss limit before the risk ledger (docs/risk-guards.md#the-invariant),
// each played as a window would play it (bridge calls only, confirmation off, main's other dialogs
// answered no) with a colluding account taking the other side, and each bounded by the limit. Every
// attack uses a fresh $1,000 account (a day of its own); the loss is counted from the exchange's own
// balance and positions at the app's fair value once it is known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '../../src/shared/protocol';
import { devnetClient } from '../../src/exchange/bots';
import { START, connectCore, fuzzWorld, importKey, sleep, until, type FuzzWorld, type Market } from './loss-fuzz';

const D = 1_000_000n;
const N = 1_000_000n;
const SCALE = 1_000_000n;
const LIMIT = 100n * D;
/** A cent of rounding per order (each fill's value rounds once). */
const ROUNDING = 10_000n;

let w: FuzzWorld;
let btc: Market;
let sol: Market;
let nextKey = 3;

beforeAll(async () => {
  w = await fuzzWorld('loss-attacks-');
  btc = w.markets[0]!;
  sol = w.markets[2]!;
}, 180_000);

afterAll(async () => {
  await w?.close();
});

const cents = (p: bigint): string => (Number(p) / 10_000).toFixed(1);
const onTick = (p: bigint): bigint => (p / 1_000n) * 1_000n;

async function fairOf(m: Market): Promise<bigint> {
  let fair: bigint | null = null;
  await until(async () => {
    const list = await w.ok<{ assetId: string; fairPrice: string | null }[]>('markets.list');
    const f = list.find((x) => x.assetId === m.assetId.toString())?.fairPrice ?? null;
    fair = f === null ? null : BigInt(f);
    return fair !== null;
  });
  return fair!;
}

/** The account's loss since it was funded: the exchange's cash and position, the position at fair. */
async function lossOf(account: Address, m: Market, fair: bigint): Promise<bigint> {
  const b = await w.mallory.getBalance(account);
  const p = await w.mallory.getPosition(account, m.assetId, m.epoch).catch(() => null);
  const n = p?.inventory ?? 0n;
  const value = n >= 0n ? (n * fair) / SCALE : (-n * (SCALE - fair)) / SCALE;
  return START - (b.balance + b.pending + value);
}

/** Mallory's quotes on a market, replacing its others there. */
async function quotes(m: Market, ask: bigint | null, bid: bigint | null, size: bigint): Promise<void> {
  const at = { assetId: m.assetId, epoch: m.epoch };
  await w.mallory.cancelAll(at).catch(() => undefined);
  if (ask !== null) await w.mallory.placeOrder({ ...at, side: 'sell', price: ask, size, timeInForce: 'GTC' });
  if (bid !== null) await w.mallory.placeOrder({ ...at, side: 'buy', price: bid, size, timeInForce: 'GTC' });
}

/** The colluder buys at `price` what rests there (IOC), if anything does. */
async function takeAsk(m: Market, price: bigint, size: bigint): Promise<void> {
  await w.mallory
    .placeOrder({ assetId: m.assetId, epoch: m.epoch, side: 'buy', price, size, timeInForce: 'IOC' })
    .catch(() => undefined);
}

const order = (m: Market, side: 'buy' | 'sell', price: bigint, size: bigint, timeInForce = 'IOC') => ({
  assetId: m.assetId.toString(),
  epoch: m.epoch.toString(),
  side,
  price: cents(price),
  size: (size / N).toString(),
  timeInForce,
  signAs: 'master',
});

describe('the loss limit holds against each attack that broke it', () => {
  it('no fair value yet (the first seconds after connecting): buys far above worth stop at the limit', async () => {
    // A second app core on the same exchange, just started: its oracle history is empty for ~30 s.
    const { t, ok } = await connectCore(w.devnet);
    try {
      const victim = await importKey(t, w.devnet, nextKey, 'victim');
      await w.devnet.exchange.credit(victim, START);
      await ok('account.select', { master: victim, agent: null, tradeAs: 'master' });
      await until(
        async () =>
          (await ok<{ balance: { available: string } | null }>('account.get')).balance?.available === START.toString(),
      );
      nextKey++;
      const list = await ok<{ assetId: string; fairPrice: string | null }[]>('markets.list');
      expect(list.find((m) => m.assetId === btc.assetId.toString())?.fairPrice).toBeNull();
      await quotes(btc, 990_000n, null, 2_000n * N);
      let filled = 0n;
      for (let i = 0; i < 8; i++) {
        const o = await t.core.invoke('orders.place', [order(btc, 'buy', 990_000n, 99n * N)]);
        if (o.ok) filled += BigInt((o.value as { filled: string }).filled);
      }
      // At most one such order: it counts at the most it can lose ($98.01), then the position, with
      // no price to value it by, counts at its worst until a fair value prices it.
      expect(filled).toBeLessThanOrEqual(99n * N);
      const loss = await lossOf(victim, btc, await fairOf(btc));
      expect(loss).toBeLessThanOrEqual(LIMIT + 8n * ROUNDING);
    } finally {
      t.close();
    }
  }, 120_000);

  it('a market-list edit does not restart the session: the fair value stays, no gap to trade in', async () => {
    const victim = await w.freshAccount(nextKey++);
    const d = w.t.settings.getSettings().deployments[0]!;
    for (let i = 0; i < 3; i++) {
      await w.ok('deployments.moveMarket', { deploymentId: d.id, assetId: btc.assetId.toString(), to: i % 2 });
      // The edit is applied to the running session: its fair value is there at once, not after 30 s.
      const started = Date.now();
      const fair = await fairOf(btc);
      expect(Date.now() - started).toBeLessThan(10_000);
      await w.ok('account.select', { master: victim, agent: null, tradeAs: 'master' });
      await until(async () => (await w.ok<{ balance: unknown }>('account.get')).balance !== null);
      await quotes(btc, 990_000n, null, 500n * N);
      const o = await w.t.core.invoke('orders.place', [order(btc, 'buy', 990_000n, 99n * N)]);
      expect(o.ok ? 'sent' : (o as { error: { code: string } }).error.code).toBe('risk.price_band');
      expect(await lossOf(victim, btc, fair)).toBeLessThanOrEqual(LIMIT);
    }
  }, 120_000);

  it('a market taken off the list cannot be traded', async () => {
    await w.freshAccount(nextKey++);
    await quotes(sol, 990_000n, null, 500n * N);
    const o = await w.t.core.invoke('orders.place', [order(sol, 'buy', 990_000n, 99n * N)]);
    expect(o.ok).toBe(false);
    if (!o.ok) {
      expect(o.error.code).toBe('orders.unlisted_market');
      expect(o.error.message).toMatch(/is not in your market list/);
    }
  }, 60_000);

  it('a burst of orders fired without awaiting each other stops at the limit', async () => {
    let pushed: { lossToday: string | null } | null = null;
    const off = w.t.core.on('risk', (status) => (pushed = status));
    const victim = await w.freshAccount(nextKey++);
    const fair = await fairOf(btc);
    const high = onTick(fair + 140_000n);
    await quotes(btc, high, null, 5_000n * N);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => w.t.core.invoke('orders.place', [order(btc, 'buy', high, 100n * N)])),
    );
    const refused = outcomes.filter((o) => !o.ok).map((o) => (o as { error: { code: string } }).error.code);
    // $14 a buy against fair: seven fit in $100, the rest are refused at the gate.
    expect(refused.length).toBeGreaterThanOrEqual(13);
    // Each refused at the gate for the budget; while one waits on main's override dialog (answered no),
    // the others that would need it are refused at once as busy. None is sent.
    for (const code of refused) expect(['risk.daily_loss', 'dialog.busy']).toContain(code);
    expect(await lossOf(victim, btc, await fairOf(btc))).toBeLessThanOrEqual(LIMIT + 20n * ROUNDING);
    // One figure: what main pushes to the meter (the `risk` event) is what risk.status answers, within a second.
    try {
      await until(async () => {
        const now = await w.ok<{ lossToday: string | null }>('risk.status');
        return pushed !== null && pushed.lossToday === now.lossToday;
      }, 1_000 + 5_000);
    } finally {
      off();
    }
  }, 120_000);

  it('looking at 64 watch-only accounts does not push the day’s record of a key out', async () => {
    const victim = await w.freshAccount(nextKey++);
    const fair = await fairOf(btc);
    const high = onTick(fair + 140_000n);
    await quotes(btc, high, null, 5_000n * N);
    for (let i = 0; i < 6; i++) await w.t.core.invoke('orders.place', [order(btc, 'buy', high, 100n * N)]);
    const before = await w.ok<{ lossToday: string }>('risk.status');
    expect(BigInt(before.lossToday)).toBeGreaterThan(60n * D);
    // 64 is the most the app keeps, so the 64-record store of the past is filled to the brim.
    for (let i = 0; i < 64; i++) {
      const address = `0x${(0xabc000 + i).toString(16).padStart(40, '0')}`;
      await w.ok('airgap.watchAdd', { address, label: `watched ${i}` });
      await w.ok('account.select', { master: address, agent: null, tradeAs: 'master' });
      await w.t.core.invoke('risk.status', []);
    }
    await w.ok('account.select', { master: victim, agent: null, tradeAs: 'master' });
    await until(async () => (await w.ok<{ balance: unknown }>('account.get')).balance !== null);
    const after = await w.ok<{ lossToday: string; lossLimit: string }>('risk.status');
    expect(BigInt(after.lossToday)).toBeGreaterThanOrEqual(BigInt(before.lossToday) - ROUNDING * 10n);
    // The day did not start again: the same budget, $84 of it used, refuses within the next three $14 buys.
    const more = [];
    for (let i = 0; i < 3; i++) more.push(await w.t.core.invoke('orders.place', [order(btc, 'buy', high, 100n * N)]));
    expect(more.map((o) => (o.ok ? 'sent' : (o as { error: { code: string } }).error.code))).toContain(
      'risk.daily_loss',
    );
    expect(await lossOf(victim, btc, await fairOf(btc))).toBeLessThanOrEqual(LIMIT + 10n * ROUNDING);
  }, 180_000);

  it('a quote left stale by a fair-value move is cancelled by main before the colluder can take it', async () => {
    const victim = await w.freshAccount(nextKey++);
    const fair = await fairOf(btc);
    const ask = onTick(fair + 5_000n);
    const bid = onTick(fair - 5_000n);
    await w.mallory.cancelAll({ assetId: btc.assetId, epoch: btc.epoch }).catch(() => undefined);
    await w.ok('orders.place', order(btc, 'sell', ask, 100n * N, 'GTC'));
    await w.ok('orders.place', order(btc, 'buy', bid, 100n * N, 'GTC'));
    // The oracle jumps: fair value moves far above the ask.
    w.devnet.exchange.steerOracle(btc.symbolId, { offset: 2_000n * D });
    try {
      // Past the 15¢ band above the ask (about 70¢ against 50¢).
      await until(async () => (await fairOf(btc)) > ask + 150_000n, 30_000);
      // Main's quote protection takes the ask off; the colluder then tries to buy it.
      await until(async () => {
        const book = await w.mallory.getBookOrders(btc.assetId, btc.epoch, victim);
        return book.sells.length === 0;
      }, 10_000);
      await takeAsk(btc, ask, 100n * N);
      const history = await w.ok<{ reason?: string }[]>('orders.history');
      expect(history.some((e) => /quote protection/.test(e.reason ?? ''))).toBe(true);
      expect(await lossOf(victim, btc, await fairOf(btc))).toBeLessThanOrEqual(LIMIT);
    } finally {
      w.devnet.exchange.steerOracle(btc.symbolId, { offset: 0n });
      await sleep(1_500);
    }
  }, 120_000);

  it('orders resting on a market taken off the list are still watched: moved past the band, main cancels them', async () => {
    const victim = await w.freshAccount(nextKey++);
    const d = w.t.settings.getSettings().deployments[0]!;
    const list = d.markets!;
    await stalePair(victim, async () => {
      // The window hides the market: its orders keep resting there.
      await w.ok('deployments.removeMarket', { deploymentId: d.id, assetId: btc.assetId.toString() });
      const shown = await w.ok<{ assetId: string }[]>('markets.list');
      expect(shown.some((m) => m.assetId === btc.assetId.toString())).toBe(false);
    });
    w.t.settings.updateSettings({ deployments: [{ ...w.t.settings.getSettings().deployments[0]!, markets: list }] });
  }, 120_000);

  it('orders left resting on an account the window selected away from are still watched', async () => {
    const other = await w.freshAccount(nextKey++);
    const victim = await w.freshAccount(nextKey++);
    const notices: string[] = [];
    const off = w.t.core.on('notice', (n) => notices.push(n.message));
    try {
      await stalePair(victim, async () => {
        await w.ok('account.select', { master: other, agent: null, tradeAs: 'master' });
      });
      expect(notices.some((n) => n.includes('no longer selected') && /Quote protection/.test(n))).toBe(true);
    } finally {
      off();
    }
  }, 120_000);

  it('a watch-only master traded through an agent key here keeps its day', async () => {
    // The master's key is on another machine (watch-only here); this vault holds its agent.
    const { master, agent } = await deskWithAgent(14, 15);
    const asAgent = (o: ReturnType<typeof order>) => ({ ...o, signAs: 'agent' });
    // Up to the limit against the colluder's far ask.
    const fair = await fairOf(btc);
    const edge = onTick(fair + 140_000n);
    await quotes(btc, edge, null, 3_000n * N);
    for (let i = 0; i < 10; i++) {
      const o = await w.t.core.invoke('orders.place', [asAgent(order(btc, 'buy', edge, 100n * N))]);
      if (!o.ok && o.error.code === 'risk.daily_loss') break;
    }
    const spent = await w.ok<{ lossToday: string }>('risk.status');
    // More watched accounts looked at than any bounded store keeps of others: its day stays.
    for (let i = 0; i < 70; i++) {
      const address = `0x${(0xa9e000 + i).toString(16).padStart(40, '0')}`;
      await w.ok('airgap.watchAdd', { address, label: `looked at ${i}` });
      await w.ok('account.select', { master: address, agent: null, tradeAs: 'master' });
      await w.ok('risk.status');
      // The watch list holds 64: each one looked at makes room for the next.
      await w.ok('airgap.watchRemove', address);
    }
    await w.ok('account.select', { master, agent, tradeAs: 'agent' });
    const again = await w.ok<{ lossToday: string }>('risk.status');
    expect(BigInt(again.lossToday)).toBeGreaterThanOrEqual(BigInt(spent.lossToday) - D);
    const refused = await w.t.core.invoke('orders.place', [asAgent(order(btc, 'buy', edge, 100n * N))]);
    expect(refused.ok ? null : refused.error.code).toBe('risk.daily_loss');
    expect(await lossOf(master, btc, await fairOf(btc))).toBeLessThanOrEqual(LIMIT + 20n * ROUNDING);
    await w.mallory.cancelAll({ assetId: btc.assetId, epoch: btc.epoch }).catch(() => undefined);
  }, 180_000);

  it('quotes left resting by an agent for a watch-only master are still watched when the window selects away', async () => {
    const { master, agent } = await deskWithAgent(16, 17);
    const other = await w.freshAccount(nextKey++);
    await w.ok('account.select', { master, agent, tradeAs: 'agent' });
    await until(
      async () =>
        (await w.ok<{ balance: { available: string } | null }>('account.get')).balance?.available === START.toString(),
    );
    const notices: string[] = [];
    const off = w.t.core.on('notice', (n) => notices.push(n.message));
    try {
      await stalePair(
        master,
        async () => {
          await w.ok('account.select', { master: other, agent: null, tradeAs: 'master' });
        },
        'agent',
      );
      expect(notices.some((n) => n.includes('no longer selected') && /Quote protection/.test(n))).toBe(true);
    } finally {
      off();
    }
  }, 180_000);
});

/**
 * The stale-quote attack with a twist: `victim` rests an ask and a bid 0.5¢ around fair (150 contracts
 * each: 400 are refused, since either side taken stale after a jump could lose more than the limit), `blind` tries to take the ledger's eyes off them, the oracle jumps so fair is far
 * above the ask, and the colluder takes whatever still rests. Main's quote protection must still cancel
 * the ask, and the victim's loss stays within the limit.
 */
/** A funded master whose key is elsewhere (watch-only here) and an agent of it in this vault, selected as the agent. */
async function deskWithAgent(masterIndex: number, agentIndex: number): Promise<{ master: Address; agent: Address }> {
  const { address: master, privateKey } = w.devnet.accounts[masterIndex]!;
  await w.devnet.exchange.credit(master, START);
  // Room on the watch list (64 at most), which an earlier attack filled.
  for (const e of await w.ok<{ address: Address }[]>('airgap.watchList')) await w.ok('airgap.watchRemove', e.address);
  const agent = (
    await w.ok<{ address: Address }>('keys.importPrivateKey', {
      privateKey: w.devnet.accounts[agentIndex]!.privateKey,
      label: `agent ${agentIndex}`,
      role: 'agent',
    })
  ).address;
  await devnetClient(w.devnet, privateKey, { timeoutMs: 10_000, doctor: false }).approveAgent({ agent });
  await w.ok('airgap.watchAdd', { address: master, label: `desk ${masterIndex}` });
  await w.ok('account.select', { master, agent, tradeAs: 'agent' });
  await until(
    async () =>
      (await w.ok<{ balance: { available: string } | null }>('account.get')).balance?.available === START.toString(),
  );
  return { master, agent };
}

async function stalePair(victim: Address, blind: () => Promise<void>, signAs = 'master'): Promise<void> {
  const fair = await fairOf(btc);
  const ask = onTick(fair + 5_000n);
  const bid = onTick(fair - 5_000n);
  await w.mallory.cancelAll({ assetId: btc.assetId, epoch: btc.epoch }).catch(() => undefined);
  // A side taken stale could lose ~$200 (fair jumping to 0 or $1 before main's cancel lands): refused.
  const big = await w.t.core.invoke('orders.place', [{ ...order(btc, 'sell', ask, 400n * N, 'GTC'), signAs }]);
  expect(big.ok ? null : big.error.code).toBe('risk.daily_loss');
  await w.ok('orders.place', { ...order(btc, 'sell', ask, 150n * N, 'GTC'), signAs });
  await w.ok('orders.place', { ...order(btc, 'buy', bid, 150n * N, 'GTC'), signAs });
  await blind();
  w.devnet.exchange.steerOracle(btc.symbolId, { offset: 2_000n * D });
  try {
    // Main's quote protection takes the ask off, though the window no longer shows it.
    await until(async () => (await w.mallory.getBookOrders(btc.assetId, btc.epoch, victim)).sells.length === 0, 30_000);
    await takeAsk(btc, ask, 150n * N);
    // Fair from the referee: the app's list may not show this market now.
    expect(await lossOf(victim, btc, (await w.referee(btc, btc.epoch)) ?? fair)).toBeLessThanOrEqual(LIMIT);
  } finally {
    w.devnet.exchange.steerOracle(btc.symbolId, { offset: 0n });
    await sleep(1_500);
    await w.mallory.cancelAll({ assetId: btc.assetId, epoch: btc.epoch }).catch(() => undefined);
  }
}
