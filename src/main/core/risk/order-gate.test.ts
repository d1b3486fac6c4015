import { describe, expect, it } from 'vitest';
import type { Address } from '../../../shared/protocol';
import type { RiskLimits } from '../../../shared/settings-schema';
import { silentLogger } from '../../log';
import { SettingsService } from '../../settings';
import { createMemoryStore } from '../../store/key-value-store';
import type { ConfirmRequest } from '../dialogs/dialogs';
import { Clearances } from './clearances';
import { LossBudget } from './loss-budget';
import { OrderGate, type AccountSnapshot, type GateOrder, type GateView } from './order-gate';
import { OrderRate } from './order-rate';
import { Reservations } from './reservations';

const C = 10_000n;
const N = 1_000_000n;
const D = 1_000_000n;
const MASTER = ('0x' + '11'.repeat(20)) as Address;
const AGENT = ('0x' + '22'.repeat(20)) as Address;

function setup(
  opts: {
    confirm?: boolean;
    answer?: boolean;
    snapshot?: AccountSnapshot | null;
    now?: () => number;
    limits?: Partial<RiskLimits>;
  } = {},
) {
  const settings = new SettingsService({ store: createMemoryStore() });
  settings.updateSettings({
    confirmations: { ...settings.getSettings().confirmations, orders: opts.confirm ?? false },
  });
  if (opts.limits) settings.updateSettings({ riskLimits: { ...settings.getSettings().riskLimits, ...opts.limits } });
  const asked: ConfirmRequest[] = [];
  let identity = 'A';
  const clearances = new Clearances();
  let ended = false;
  const reservations = new Reservations(() => ended);
  const budget = new LossBudget(createMemoryStore(), opts.now);
  const reads = { account: 0, accountIfRead: 0 };
  const snapshot = (): AccountSnapshot | null =>
    opts.snapshot === undefined
      ? { inventory: 0n, sameSide: 0n, openOrders: 0, restingCost: 0n, equity: 1000n * D, fair: 50n * C }
      : opts.snapshot;
  let ifRead = snapshot;
  const gate = new OrderGate({
    settings,
    dialogs: {
      confirm: (r) => {
        asked.push(r);
        return Promise.resolve(opts.answer ?? false);
      },
    },
    labelOf: (a) => (a === MASTER ? 'Main\u202e evil' : null),
    budget,
    rate: new OrderRate(),
    clearances,
    reservations,
    logger: silentLogger,
  });
  const view: GateView = {
    fair: () =>
      ({
        known: true,
        price: 50n * C,
        sigma: 0.6,
        sigmaClamped: null,
        spot: 1n,
        strike: 1n,
        secondsLeft: 30,
        at: 0,
      }) as never,
    marketName: () => 'BTC\u0007 1m #7',
    openIfRead: () => {
      const s = ifRead();
      return s && { restingCost: s.restingCost };
    },
    account: () => {
      reads.account++;
      return Promise.resolve(snapshot());
    },
    accountIfRead: () => {
      reads.accountIfRead++;
      return ifRead();
    },
    deploymentName: 'Local devnet',
    identity: () => identity,
    listed: () => true,
  };
  const order = (o: Partial<GateOrder> = {}): GateOrder => ({
    path: 'place',
    signer: MASTER,
    master: MASTER,
    role: 'master',
    assetId: 1n,
    epoch: 7n,
    sell: false,
    price: 55n * C,
    size: 10n * N,
    timeInForce: 'GTC',
    signsHere: true,
    ...o,
  });
  return {
    gate,
    view,
    order,
    reservations,
    asked,
    clearances,
    budget,
    reads,
    setIdentity: (i: string) => (identity = i),
    endEpoch: () => (ended = true),
    setIfRead: (f: () => AccountSnapshot | null) => (ifRead = f),
  };
}

describe('OrderGate', () => {
  it('lets an order inside every limit through without a dialog when confirmation is off, and clears it once', async () => {
    const { gate, view, order, asked, clearances } = setup();
    const passed = await gate.pass(order(), view);
    expect(asked).toHaveLength(0);
    expect(clearances.outstanding).toBe(1);
    clearances.take(passed.terms!);
    expect(() => clearances.take(passed.terms!)).toThrow(/did not pass the app’s order checks/);
  });

  it('asks with confirmation on and names the account, market, fair value and cost, stripped and labelled', async () => {
    const { gate, view, order, asked, clearances } = setup({ confirm: true });
    await expect(gate.pass(order(), view)).rejects.toMatchObject({ code: 'orders.not_confirmed' });
    expect(clearances.outstanding).toBe(0);
    const text = asked[0]!.detail;
    expect(text).toContain(`Account: “Main evil” (your label), master key 0x1111111111111111111111111111111111111111`);
    expect(text).toContain('Market: “BTC 1m #7” (name from the market list)');
    expect(text).toContain('Order: Buy 10 Up at 55¢, GTC');
    expect(text).toContain('Fair value: Buy price is 5.0¢ above fair value 50.0¢');
    expect(text).toContain('Cost: $5.50; pays $10.00 if right');
    expect([...text].some((c) => c === '\u0007' || c === '\u202e')).toBe(false);
  });

  it('names the agent and the account it trades for', async () => {
    const { gate, view, order, asked } = setup({ confirm: true });
    await expect(gate.pass(order({ signer: AGENT, role: 'agent' }), view)).rejects.toThrow();
    expect(asked[0]!.detail).toContain('Signed by: agent key 0x2222222222222222222222222222222222222222');
  });

  it('offers a one-off override for a band breach in main’s dialog, and refuses with the numbers on no', async () => {
    const { gate, view, order, asked } = setup();
    await expect(gate.pass(order({ price: 99n * C }), view)).rejects.toMatchObject({
      code: 'risk.price_band',
      message: 'Refused: 99¢ is 49.0¢ above fair value 50.0¢; your band is 15¢.',
    });
    expect(asked[0]!.title).toBe('Place order');
    expect(asked[0]!.confirmLabel).toBe('Buy anyway');
    const yes = setup({ answer: true });
    await expect(yes.gate.pass(yes.order({ price: 99n * C }), yes.view)).resolves.toBeDefined();
  });

  it('refuses at a fixed daily loss amount, whatever the percentage of the day’s equity allows', async () => {
    // Buy 100 at 56¢ at once (IOC) against fair 50¢: $6 given away, within 10% of $1,000 but over a fixed $5.
    const over = { price: 56n * C, size: 100n * N, timeInForce: 'IOC' as const };
    const percent = setup();
    await expect(percent.gate.pass(percent.order(over), percent.view)).resolves.toBeDefined();
    const { gate, view, order } = setup({ limits: { dailyLossAmount: '5' } });
    const refusal = await gate.pass(order(over), view).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'risk.daily_loss' });
    expect((refusal as Error).message).toContain('over your daily limit of $5.00');
    await expect(gate.pass(order({ price: 54n * C, size: 100n * N, timeInForce: 'IOC' }), view)).resolves.toBeDefined();
    // The same bid left resting could lose $54 if fair fell to 0 before main cancelled it.
    await expect(gate.pass(order({ price: 54n * C, size: 100n * N }), view)).rejects.toMatchObject({
      code: 'risk.daily_loss',
    });
  });

  it('asks when the account cannot be read here, and says which limits were not applied', async () => {
    const { gate, view, order, asked } = setup({ snapshot: null, answer: true });
    await gate.pass(order({ path: 'offline-sign' }), view);
    expect(asked[0]!.title).toBe('Sign an order for another machine');
    expect(asked[0]!.detail).toContain(
      'Not checked here: your position, open orders and today’s loss could not be read',
    );
  });

  it('refuses when the account or domain changed while the dialog was open', async () => {
    const s = setup({ confirm: true, answer: true });
    const asking = s.gate.pass(s.order(), s.view);
    s.setIdentity('B');
    await expect(asking).rejects.toMatchObject({ code: 'orders.changed_meanwhile' });
    expect(s.clearances.outstanding).toBe(0);
  });

  it('issues nothing to sign for an order only sent, and voids an unused clearance on release', async () => {
    const { gate, view, order, clearances } = setup();
    const sent = await gate.pass(order({ signsHere: false, path: 'offline-send' }), view);
    expect(sent.terms).toBeNull();
    const passed = await gate.pass(order(), view);
    passed.release();
    expect(clearances.outstanding).toBe(0);
  });

  it('counts every order toward the rate limit', async () => {
    const { gate, view, order } = setup();
    for (let i = 0; i < 3; i++) (await gate.pass(order(), view)).release();
    expect(gate.sentInLastMinute(MASTER)).toBe(3);
  });

  describe('rehearse', () => {
    it('runs the last order’s checks again on the account as read, and keeps and sends nothing', async () => {
      const s = setup({ confirm: true, answer: true });
      (await s.gate.pass(s.order(), s.view)).release();
      const before = { asked: s.asked.length, sent: s.gate.sentInLastMinute(MASTER), reads: { ...s.reads } };
      s.gate.rehearse();
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(2);
      // No read of the account started, no dialog, no clearance, no count toward the rate limit.
      expect(s.reads.account).toBe(before.reads.account);
      expect(s.asked).toHaveLength(before.asked);
      expect(s.clearances.outstanding).toBe(0);
      expect(s.gate.sentInLastMinute(MASTER)).toBe(before.sent);
    });

    it('has nothing to rehearse before an order passed, or after one was refused', async () => {
      const s = setup();
      s.gate.rehearse();
      await expect(s.gate.pass(s.order({ price: 99n * C }), s.view)).rejects.toMatchObject({
        code: 'risk.price_band',
      });
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(0);
    });

    it('never starts a day’s loss baseline: a new UTC day waits for an order', async () => {
      let now = Date.UTC(2026, 10, 26, 23, 59, 0);
      const s = setup({ now: () => now });
      (await s.gate.pass(s.order(), s.view)).release();
      expect(s.budget.peek(MASTER)?.day).toBe('2026-11-26');
      now += 120_000;
      s.gate.rehearse();
      expect(s.budget.peek(MASTER)).toBeNull();
      expect(s.reads.accountIfRead).toBe(0);
      (await s.gate.pass(s.order(), s.view)).release();
      expect(s.budget.peek(MASTER)?.day).toBe('2026-11-27');
    });

    it('forgets the order once the account or signing domain changed, even if it changes back', async () => {
      const s = setup();
      (await s.gate.pass(s.order(), s.view)).release();
      s.setIdentity('B');
      s.gate.rehearse();
      s.setIdentity('A');
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(0);
    });

    it('forgets the order when the account is not read (or its session stopped)', async () => {
      const s = setup();
      (await s.gate.pass(s.order(), s.view)).release();
      s.setIfRead(() => null);
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(1);
      s.setIfRead(() => ({ inventory: 0n, sameSide: 0n, openOrders: 0, restingCost: 0n, equity: D, fair: null }));
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(1);
    });

    it('swallows a throw from the view and forgets the order', async () => {
      const s = setup();
      (await s.gate.pass(s.order(), s.view)).release();
      s.setIfRead(() => {
        throw new Error('gone');
      });
      expect(() => s.gate.rehearse()).not.toThrow();
      expect(s.reads.accountIfRead).toBe(1);
      s.setIfRead(() => ({ inventory: 0n, sameSide: 0n, openOrders: 0, restingCost: 0n, equity: D, fair: null }));
      s.gate.rehearse();
      expect(s.reads.accountIfRead).toBe(1);
    });
  });
});

describe('OrderGate reservations (the risk ledger’s orders on their way)', () => {
  // Buys of 100 at 64¢ against fair 50¢: each could give away $14 of a $100 budget.
  const costly = { price: 64n * C, size: 100n * N, timeInForce: 'IOC' as const };

  it('counts each passed order until its path releases it, so a burst fired without awaiting stops at the limit', async () => {
    const { gate, view, order, reservations } = setup();
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => gate.pass(order(costly), view)));
    const passed = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    // 7 × $14 = $98 fits the $100 limit; the 8th would make $112.
    expect(passed).toHaveLength(7);
    expect(refused.map((r) => (r.reason as { code: string }).code)).toEqual(Array(3).fill('risk.daily_loss'));
    expect(String((refused[0]!.reason as Error).message)).toContain('orders on their way');
    expect(reservations.total(MASTER)).toBe(98n * D);
    // Answered and read again: the orders are now what the account figures count, the reservations go.
    for (const p of passed) (p as PromiseFulfilledResult<{ release(): void }>).value.release();
    expect(reservations.total(MASTER)).toBe(0n);
    await expect(gate.pass(order(costly), view)).resolves.toBeTruthy();
  });

  it('keeps an order signed for a later send reserved at the most it can lose until its epoch ends', async () => {
    const { gate, view, order, reservations, endEpoch } = setup();
    const passed = await gate.pass(order({ path: 'offline-sign', price: 55n * C, size: 10n * N }), view);
    passed.release();
    // 10 × 55¢: its whole cost, whatever fair value does before it is sent.
    expect(reservations.total(MASTER)).toBe(5_500_000n);
    endEpoch();
    expect(reservations.total(MASTER)).toBe(0n);
  });

  it('counts an order with no fair value at the most it can lose', async () => {
    const { gate, order, reservations, view } = setup({
      snapshot: { inventory: 0n, sameSide: 0n, openOrders: 0, restingCost: 0n, equity: 1000n * D, fair: null },
    });
    const blind: GateView = { ...view, fair: () => ({ known: false, reason: 'no oracle yet' }) as never };
    const passed = await gate.pass(order({ price: 60n * C, size: 100n * N, timeInForce: 'IOC' }), blind);
    expect(reservations.total(MASTER)).toBe(60n * D);
    // The meter's figure is the gate's own: what rests (nothing) and what is reserved.
    expect(gate.openWorst(MASTER, blind)).toBe(60n * D);
    passed.release();
    expect(reservations.total(MASTER)).toBe(0n);
    // One that may rest is counted with its market's resting orders, as if it rested, until released.
    const resting = await gate.pass(order({ price: 60n * C, size: 100n * N }), blind);
    expect(reservations.total(MASTER)).toBe(0n);
    expect(reservations.resting(MASTER)).toEqual([
      { assetId: 1n, epoch: 7n, sell: false, price: 60n * C, size: 100n * N },
    ]);
    // On its way it counts with its market as if it rested: with no market read, at the most it can lose.
    expect(gate.openWorst(MASTER, blind)).toBe(60n * D);
    resting.release();
    expect(reservations.resting(MASTER)).toEqual([]);
  });

  it('refuses, in words, an order on a market that is not in the market list', async () => {
    const { gate, view, order, reservations } = setup();
    const refusal = await gate.pass(order(), { ...view, listed: () => false }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'orders.unlisted_market' });
    expect((refusal as Error).message).toMatch(/^Refused: BTC.? 1m #7 is not in your market list/);
    expect(reservations.count(MASTER)).toBe(0);
  });
});

describe('OrderGate tightened limits (a marketable order at the guards’ edge)', () => {
  it('buys at the band’s edge when the hotkey’s slippage went past it and the ask is inside it', async () => {
    const { gate, view, order } = setup();
    // Fair 50¢, band 15¢, best ask 62¢: the hotkey's limit 67¢ (ask + 5¢) is 17¢ above fair.
    const passed = await gate.pass(order({ price: 67n * C, timeInForce: 'IOC', tighten: { best: 62n * C } }), view);
    expect(passed.price).toBe(65n * C);
    expect(passed.tightened).toEqual({ from: 67n * C, by: 'band' });
    expect(passed.terms?.price).toBe(65n * C);
  });

  it('is refused as before when no price inside the guards can reach the book', async () => {
    const { gate, view, order } = setup();
    await expect(
      gate.pass(order({ price: 71n * C, timeInForce: 'IOC', tighten: { best: 66n * C } }), view),
    ).rejects.toMatchObject({ code: 'risk.price_band' });
    // Without a best price to reach (unknown), nothing is tightened either.
    await expect(
      gate.pass(order({ price: 67n * C, timeInForce: 'IOC', tighten: { best: null } }), view),
    ).rejects.toMatchObject({ code: 'risk.price_band' });
  });

  it('closes at the limit at the worst price the budget allows, which still reaches the bid', async () => {
    const long: AccountSnapshot = {
      inventory: 10n * N,
      sameSide: 0n,
      openOrders: 0,
      restingCost: 0n,
      equity: 900n * D,
      fair: 50n * C,
    };
    const { gate, view, order, budget } = setup({ snapshot: long });
    budget.status(MASTER, 1000n * D, 1000n); // the day started at $1,000: $100 lost, the limit reached
    // Bid 52¢ over fair 50¢; the close's limit is the bid minus 5¢ slippage, 47¢: 3¢ a contract below fair.
    const close = order({ path: 'close', sell: true, price: 47n * C, timeInForce: 'IOC', tighten: { best: 52n * C } });
    const passed = await gate.pass(close, view);
    expect(passed.price).toBe(50n * C);
    expect(passed.tightened).toEqual({ from: 47n * C, by: 'budget' });
  });

  it('tightens within what the budget has left, for an order that adds risk', async () => {
    const { gate, view, order, budget } = setup({
      snapshot: { inventory: 0n, sameSide: 0n, openOrders: 0, restingCost: 0n, equity: 996n * D, fair: 50n * C },
    });
    budget.status(MASTER, 1000n * D, 1000n); // $4 lost of $100: $96 left
    // 750 contracts at up to 64¢ against fair 50¢ could give away $105; $96 allows 12.8¢ over fair.
    const passed = await gate.pass(
      order({ price: 64n * C, size: 750n * N, timeInForce: 'IOC', tighten: { best: 55n * C } }),
      view,
    );
    expect(passed.price).toBe(628n * 1_000n);
    expect(passed.tightened?.by).toBe('budget');
  });
});

describe('OrderGate: an order signed for later, then sent', () => {
  it('ends the signature’s kept reservation when the same order is sent through the gate', async () => {
    const { gate, view, order, reservations } = setup();
    const terms = { price: 55n * C, size: 10n * N, timeInForce: 'IOC' as const };
    (await gate.pass(order({ path: 'offline-sign', ...terms }), view)).release();
    expect(reservations.total(MASTER)).toBe(5_500_000n);
    const sending = await gate.pass(order({ path: 'offline-send', signsHere: false, ...terms }), view);
    // Now only the send's own reservation (5¢ over fair on 10: 50¢), until the exchange answered.
    expect(reservations.total(MASTER)).toBe(500_000n);
    sending.release();
    expect(reservations.total(MASTER)).toBe(0n);
  });
});
