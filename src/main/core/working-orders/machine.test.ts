// The working-order state machines, pure: each trigger, the double trigger, stale feeds, retries,
// brackets armed by partial fills, OCO races, restarts in every state, and never firing twice.
import { describe, expect, it } from 'vitest';
import type { WorkingOrderDraft } from '../../../shared/bridge';
import { createMemoryStore } from '../../store/key-value-store';
import { end, evaluate, onExitResult, onFill, onLimitPlaced, onQuotesPlaced, reconcile, restore } from './engine';
import { GONE_GRACE_MS, RETRY_MS } from './exits';
import { WorkingOrderStore } from './store';
import {
  C,
  D,
  EXPIRY,
  M,
  N,
  STRIKE,
  T0,
  look,
  make,
  q,
  rollDraft,
  sends,
} from '../../../../test/support/working-orders-fixtures';
import { seeQuote } from './triggers';
import type { ExitLeg, LimitLeg, WorkingOrder } from './types';

const exitDraft = (trigger: Extract<WorkingOrderDraft, { kind: 'exit' }>['trigger'], more = {}): WorkingOrderDraft => ({
  kind: 'exit',
  ...M,
  signAs: 'master',
  trigger,
  ...more,
});
/** A bracket buying 10 at 50¢ with no position yet; its exits as given (a stop at 40¢ when none). */
const bracketOf = (exits: { takeProfit?: string; stop?: string } = { stop: '40' }): WorkingOrder =>
  make(
    {
      kind: 'bracket',
      ...M,
      signAs: 'master',
      entry: { side: 'buy', price: '50', size: '10', timeInForce: 'GTC' },
      ...exits,
    },
    { inventory: 0n },
  );
const leg = (o: WorkingOrder, i = 0) => o.legs[i] as ExitLeg;
const limit = (o: WorkingOrder, i = 0) => o.legs[i] as LimitLeg;

describe('take-profit and stop', () => {
  it('a long’s take-profit fires on the first bid at or above it, selling at its price less the slippage', () => {
    const o = make(exitDraft({ type: 'take-profit', price: '60' }));
    expect(evaluate(o, look({ book: { bid: q(59_900n), ask: q(61n * C) } }))).toEqual([]);
    const out = sends(evaluate(o, look({ book: { bid: q(60n * C), ask: q(61n * C) } })));
    expect(out).toEqual([
      {
        type: 'send-exit',
        order: 'wo-1',
        leg: 'wo-1.x',
        attempt: 0,
        sell: true,
        limit: 58n * C,
        size: 10n * N,
        best: 60n * C,
      },
    ]);
    expect(o.state).toBe('firing');
    expect(leg(o).attempts[0]).toMatchObject({ limit: 58n * C, size: 10n * N, filled: null });
  });

  it('a long’s stop fires on the bid at or below it; a short’s on the ask at or above it, buying', () => {
    const long = make(exitDraft({ type: 'stop', price: '45' }));
    expect(evaluate(long, look({ book: { bid: q(451n * 1_000n), ask: q(50n * C) } }))).toEqual([]);
    expect(sends(evaluate(long, look({ book: { bid: q(45n * C), ask: q(50n * C) } })))[0]).toMatchObject({
      sell: true,
      limit: 43n * C,
    });
    const short = make(exitDraft({ type: 'stop', price: '55' }), { inventory: -4n * N });
    const shortLook = (ask: bigint) => look({ inventory: -4n * N, book: { bid: q(40n * C), ask: q(ask) } });
    expect(evaluate(short, shortLook(54n * C))).toEqual([]);
    expect(sends(evaluate(short, shortLook(56n * C)))[0]).toMatchObject({ sell: false, limit: 57n * C, size: 4n * N });
  });

  it('never fires on no quote, and its IOC is on the tick and inside the price range', () => {
    const o = make(exitDraft({ type: 'stop', price: '1' }, { slippage: '5' }));
    expect(evaluate(o, look({ book: { bid: null, ask: q(2n * C) } }))).toEqual([]);
    expect(sends(evaluate(o, look({ book: { bid: q(1n * C), ask: q(2n * C) } })))[0]).toMatchObject({ limit: 1_000n });
  });

  it('double: two consecutive distinct quotes through; one not through starts again; a quote restated is not new', () => {
    const o = make(exitDraft({ type: 'stop', price: '45', double: true }));
    const bid = (price: bigint, size = 5n * N) => look({ book: { bid: q(price, size), ask: q(50n * C) } });
    expect(evaluate(o, bid(45n * C))).toEqual([]);
    // The same quote again (the book moved elsewhere): still one.
    expect(evaluate(o, bid(45n * C))).toEqual([]);
    expect(leg(o).through).toBe(1);
    // A quote back above: the count starts again.
    expect(evaluate(o, bid(46n * C))).toEqual([]);
    expect(leg(o).through).toBe(0);
    expect(evaluate(o, bid(44n * C))).toEqual([]);
    // A second, different quote through (its size changed): fires.
    expect(sends(evaluate(o, bid(44n * C, 7n * N)))).toHaveLength(1);
    const pure = seeQuote(
      { through: 0, lastQuote: null },
      { type: 'stop', price: 45n * C, double: true },
      true,
      q(40n * C),
    );
    expect(pure).toMatchObject({ fire: false, through: 1 });
  });
});

describe('oracle stop and time exit', () => {
  it('an oracle stop 20 $ below the strike fires when the oracle is at or below it (a long), above for a short', () => {
    const o = make(exitDraft({ type: 'oracle-stop', level: { from: 'strike', offset: '-20' } }));
    expect(leg(o).trigger).toMatchObject({ level: STRIKE - 20n * D, direction: 'below' });
    expect(evaluate(o, look({ oracle: STRIKE - 19n * D }))).toEqual([]);
    // Sent at the best bid now less the slippage: an oracle stop has no contract price of its own.
    expect(sends(evaluate(o, look({ oracle: STRIKE - 20n * D })))[0]).toMatchObject({ sell: true, limit: 48n * C });
    const short = make(exitDraft({ type: 'oracle-stop', level: { from: 'absolute', price: '65010.5' } }), {
      inventory: -1n * N,
    });
    expect(leg(short).trigger).toMatchObject({ level: 65_010_500_000n, direction: 'above' });
    expect(sends(evaluate(short, look({ inventory: -1n * N, oracle: 65_010_500_000n })))[0]).toMatchObject({
      sell: false,
      limit: 54n * C,
    });
  });

  it('a time exit fires N seconds before the epoch ends by the exchange clock, not before', () => {
    const o = make(exitDraft({ type: 'time-exit', secondsBeforeEnd: 10 }));
    expect(evaluate(o, look({ now: EXPIRY - 10_001 }))).toEqual([]);
    expect(sends(evaluate(o, look({ now: EXPIRY - 10_000 })))).toHaveLength(1);
  });

  it('waits with no quote to trade against, saying so, and fires once there is one', () => {
    const o = make(exitDraft({ type: 'time-exit', secondsBeforeEnd: 10 }));
    expect(evaluate(o, look({ now: EXPIRY - 5_000, book: { bid: null, ask: null } }))).toEqual([]);
    expect(o.waiting).toBe('waiting: no bid to sell into on BTC 1m #3');
    expect(sends(evaluate(o, look({ now: EXPIRY - 4_000 })))).toHaveLength(1);
  });
});

describe('what stops or holds a trigger', () => {
  it('a stale feed holds every trigger, saying why, and breaks a double count', () => {
    const all: WorkingOrderDraft[] = [
      exitDraft({ type: 'take-profit', price: '50' }),
      exitDraft({ type: 'stop', price: '50' }),
      exitDraft({ type: 'oracle-stop', level: { from: 'strike', offset: '0' } }),
      exitDraft({ type: 'time-exit', secondsBeforeEnd: 59 }),
    ];
    for (const d of all) {
      const o = make(d);
      expect(evaluate(o, look({ book: null, bookNote: 'the book of BTC 1m #3 is stale' }))).toEqual([]);
      expect(o.waiting).toBe('waiting: feed not live (the book of BTC 1m #3 is stale)');
      expect(evaluate(o, look({ oracle: null, oracleNote: 'no oracle price for BTC 1m #3 in 4 s' }))).toEqual([]);
      expect(o.waiting).toBe('waiting: feed not live (no oracle price for BTC 1m #3 in 4 s)');
      expect(o.state).toBe('armed');
      expect(sends(evaluate(o, look()))).toHaveLength(1);
    }
    const double = make(exitDraft({ type: 'stop', price: '50', double: true }));
    evaluate(double, look());
    expect(leg(double).through).toBe(1);
    evaluate(double, look({ book: null }));
    expect(leg(double).through).toBe(0);
  });

  it('stops when the position is gone (once that lasts), and when the epoch ended', () => {
    const o = make(exitDraft({ type: 'stop', price: '40' }));
    expect(evaluate(o, look({ inventory: 0n }))).toEqual([]);
    expect(o.state).toBe('armed');
    evaluate(o, look({ inventory: 0n, now: T0 + 1_000 + GONE_GRACE_MS }));
    expect(o).toMatchObject({ state: 'stopped', reason: 'Stopped: the position it exits is gone.' });
    const e = make(exitDraft({ type: 'stop', price: '40' }));
    evaluate(e, look({ now: EXPIRY }));
    expect(e).toMatchObject({ state: 'stopped', reason: 'Stopped: BTC 1m #3 ended.' });
    // A position that flipped to the other side is not the one it exits.
    const flipped = make(exitDraft({ type: 'stop', price: '40' }));
    evaluate(flipped, look({ inventory: -3n * N }));
    evaluate(flipped, look({ inventory: -3n * N, now: T0 + 1_000 + GONE_GRACE_MS }));
    expect(flipped.state).toBe('stopped');
  });

  it('refuses an exit with no position to attach to', () => {
    expect(() => make(exitDraft({ type: 'stop', price: '40' }), { inventory: 0n })).toThrow(/no position/);
  });
});

describe('retries', () => {
  it('retries what did not fill at most as set, says when none are left, and never exceeds the position', () => {
    const o = make(exitDraft({ type: 'stop', price: '45' }, { retries: 1 }));
    const first = sends(evaluate(o, look({ book: { bid: q(44n * C), ask: q(50n * C) } })))[0]!;
    const now = T0 + 2_000;
    onExitResult(o, first.leg, first.attempt, {
      orderId: null,
      filled: 4n * N,
      refused: null,
      inventory: 6n * N,
      note: 'filled',
      now,
    });
    expect(leg(o).retryAt).toBe(now + RETRY_MS);
    // Before its time: nothing; at its time: the rest of the position, same limit.
    expect(evaluate(o, look({ now: now + RETRY_MS - 1, inventory: 6n * N }))).toEqual([]);
    const second = sends(evaluate(o, look({ now: now + RETRY_MS, inventory: 6n * N })))[0]!;
    expect(second).toMatchObject({ attempt: 1, size: 6n * N, limit: 43n * C });
    onExitResult(o, second.leg, 1, {
      orderId: null,
      filled: 0n,
      refused: null,
      inventory: 6n * N,
      note: 'nothing filled',
      now,
    });
    expect(o.state).toBe('stopped');
    expect(o.reason).toBe('Stopped: 4 closed in 2 tries within 2.0¢ of its price; 6 still open.');
    expect(evaluate(o, look({ now: now + 10_000 }))).toEqual([]);
  });

  it('is done once the position is closed; a refusal by the gate stops it with the gate’s sentence', () => {
    const o = make(exitDraft({ type: 'take-profit', price: '50' }));
    const s = sends(evaluate(o, look()))[0]!;
    onExitResult(o, s.leg, 0, {
      orderId: null,
      filled: 10n * N,
      refused: null,
      inventory: 0n,
      note: 'filled',
      now: T0,
    });
    expect(o).toMatchObject({ state: 'done', reason: 'Done: closed 10 contracts.' });
    const r = make(exitDraft({ type: 'take-profit', price: '50' }));
    const rs = sends(evaluate(r, look()))[0]!;
    const refused = {
      code: 'risk.price_band',
      message: 'Refused: 48¢ is 20.0¢ below fair value 68.0¢; your band is 15¢.',
    };
    onExitResult(r, rs.leg, 0, { orderId: null, filled: 0n, refused, inventory: 10n * N, note: 'refused', now: T0 });
    expect(r).toMatchObject({ state: 'stopped', reason: `Stopped: its exit was refused. ${refused.message}` });
  });
});

describe('brackets', () => {
  it('arms on the entry’s fills, the filled size only, and exits what was armed', () => {
    const o = bracketOf({ takeProfit: '60', stop: '40' });
    expect(o.state).toBe('pending');
    expect(leg(o, 1)).toMatchObject({ state: 'idle', armed: 0n, sell: true });
    // Not armed: no trigger, even through, and no "position gone".
    expect(evaluate(o, look({ inventory: 0n, book: { bid: q(61n * C), ask: q(62n * C) } }))).toEqual([]);
    onLimitPlaced(o, 'wo-1.entry', {
      orderId: `0x${'1'.repeat(64)}`,
      filled: 3n * N,
      resting: true,
      refused: null,
      now: T0,
    });
    expect(o.state).toBe('armed');
    expect(leg(o, 1).armed).toBe(3n * N);
    onFill(o, `0x${'1'.repeat(64)}`, 2n * N, T0);
    expect([leg(o, 1).armed, leg(o, 2).armed]).toEqual([5n * N, 5n * N]);
    // Holding 9 (4 from before): the take-profit sells only the 5 its entry armed, and the stop and the entry's rest go.
    const out = evaluate(o, look({ inventory: 9n * N, book: { bid: q(60n * C), ask: q(62n * C) } }));
    expect(sends(out)[0]).toMatchObject({ leg: 'wo-1.tp', size: 5n * N, sell: true });
    expect(out.find((e) => e.type === 'cancel')).toMatchObject({ orderIds: [`0x${'1'.repeat(64)}`] });
    expect(leg(o, 2).state).toBe('cancelled');
    expect(limit(o).state).toBe('cancelled');
  });

  it('an IOC entry that fills nothing stops it; a take-profit on the wrong side of the entry is refused', () => {
    const o = make(
      {
        kind: 'bracket',
        ...M,
        signAs: 'master',
        entry: { side: 'sell', price: '50', size: '10', timeInForce: 'IOC' },
        stop: '60',
      },
      { inventory: 0n },
    );
    expect(leg(o, 1).sell).toBe(false);
    onLimitPlaced(o, 'wo-1.entry', { orderId: null, filled: 0n, resting: false, refused: null, now: T0 });
    expect(o).toMatchObject({ state: 'stopped', reason: 'Stopped: its entry did not fill.' });
    expect(() =>
      make({
        kind: 'bracket',
        ...M,
        signAs: 'master',
        entry: { side: 'buy', price: '50', size: '1', timeInForce: 'GTC' },
        takeProfit: '40',
      }),
    ).toThrow(/take-profit above it/);
  });
});

describe('OCO', () => {
  it('two triggers holding on the same tick: one fires, the other is cancelled in the same step', () => {
    const o = make({
      kind: 'oco',
      ...M,
      signAs: 'master',
      legs: [
        { type: 'exit', trigger: { type: 'stop', price: '55' } },
        { type: 'exit', trigger: { type: 'oracle-stop', level: { from: 'strike', offset: '0' } } },
      ],
    });
    const out = evaluate(o, look({ oracle: STRIKE - D }));
    expect(sends(out)).toHaveLength(1);
    expect(sends(out)[0]!.leg).toBe('wo-1.1');
    expect(leg(o, 1).state).toBe('cancelled');
    expect(sends(evaluate(o, look({ oracle: STRIKE - D })))).toHaveLength(0);
  });

  it('two limit legs both filling on one tick: the first cancels the other, the second is recorded and said, nothing more is sent', () => {
    const o = make(
      {
        kind: 'oco',
        ...M,
        signAs: 'master',
        legs: [
          { type: 'limit', side: 'sell', price: '60', size: '10' },
          { type: 'limit', side: 'sell', price: '40', size: '10' },
        ],
      },
      { inventory: 10n * N },
    );
    const [a, b] = [`0x${'a'.repeat(64)}`, `0x${'b'.repeat(64)}`];
    onLimitPlaced(o, 'wo-1.1', { orderId: a, filled: 0n, resting: true, refused: null, now: T0 });
    onLimitPlaced(o, 'wo-1.2', { orderId: b, filled: 0n, resting: true, refused: null, now: T0 });
    const first = onFill(o, a, 10n * N, T0);
    expect(first).toEqual([{ type: 'cancel', order: 'wo-1', orderIds: [b], assetId: 7n, epoch: 3n }]);
    expect(o.state).toBe('done');
    const second = onFill(o, b, 10n * N, T0);
    expect(second).toEqual([
      {
        type: 'notice',
        level: 'warning',
        message:
          'Working order OCO: Both legs filled before the other could be cancelled: sold 10 at 60.0¢ and sold 10 at 40.0¢.',
      },
    ]);
    expect(limit(o, 1).filled).toBe(10n * N);
  });

  it('a partial fill of a limit leg shrinks a sized exit leg by as much', () => {
    const o = make({
      kind: 'oco',
      ...M,
      signAs: 'master',
      legs: [
        { type: 'limit', side: 'sell', price: '60', size: '10' },
        { type: 'exit', trigger: { type: 'stop', price: '40' }, size: '10' },
      ],
    });
    const a = `0x${'a'.repeat(64)}`;
    onLimitPlaced(o, 'wo-1.1', { orderId: a, filled: 3n * N, resting: true, refused: null, now: T0 });
    expect(leg(o, 1).size).toBe(7n * N);
    expect(o.state).toBe('armed');
  });
});

describe('roll', () => {
  const roll = (epochs?: number): WorkingOrder => make(rollDraft(epochs ? { epochs } : {}));

  it('places once per epoch, at fair ± offset on the tick, and again in the next epoch', () => {
    const o = roll();
    const e3 = evaluate(o, look({ fair: 51_234n }));
    expect(e3).toEqual([
      {
        type: 'place-quotes',
        order: 'wo-1',
        epoch: 3n,
        quotes: [
          { sell: false, price: 26_000n, size: 5n * N },
          { sell: true, price: 70n * C, size: 5n * N },
        ],
      },
    ]);
    expect(evaluate(o, look())).toEqual([]);
    onQuotesPlaced(o, 3n, [
      { orderId: `0x${'1'.repeat(64)}`, resting: true, refused: null },
      { orderId: null, resting: false, refused: { code: 'risk.price_band', message: 'Refused: too far.' } },
    ]);
    expect(o.roll!.resting).toHaveLength(1);
    expect(o.roll!.held).toBe('Refused: too far.');
    const e4 = evaluate(o, look({ epoch: 4n, expiry: EXPIRY + 60_000, now: EXPIRY + 1 }));
    expect(e4).toHaveLength(1);
    expect(o).toMatchObject({ epoch: 4n, roll: { placedEpochs: 2, held: null, resting: [] } });
  });

  it('waits for a fair value, ends after its epochs, and cancels its quotes when stopped', () => {
    const o = roll(1);
    expect(evaluate(o, look({ fair: null }))).toEqual([]);
    expect(o.waiting).toBe('waiting: no fair value for BTC 1m #3 yet');
    expect(evaluate(o, look({ oracle: null, oracleNote: 'no oracle price for BTC 1m #3 in 5 s' }))).toEqual([]);
    expect(o.waiting).toMatch(/feed not live/);
    evaluate(o, look());
    onQuotesPlaced(o, 3n, [{ orderId: `0x${'1'.repeat(64)}`, resting: true, refused: null }]);
    evaluate(o, look({ epoch: 4n, expiry: EXPIRY + 60_000, now: EXPIRY + 1 }));
    expect(o).toMatchObject({ state: 'done', reason: 'Done: it placed its quotes in 1 epoch.' });
    const s = roll();
    evaluate(s, look());
    onQuotesPlaced(s, 3n, [{ orderId: `0x${'1'.repeat(64)}`, resting: true, refused: null }]);
    expect(end(s, 'stopped', 'Stopped: cancelled by you.', T0)).toEqual([
      { type: 'cancel', order: 'wo-1', orderIds: [`0x${'1'.repeat(64)}`], assetId: 7n, epoch: 3n },
    ]);
  });
});

describe('restart: every state, never twice', () => {
  /** The store round trip a restart makes: written, then read back by a new store. */
  function restarted(o: WorkingOrder): WorkingOrder {
    const kv = createMemoryStore();
    new WorkingOrderStore(kv).add(o);
    const back = new WorkingOrderStore(kv).get(o.id)!;
    expect(back).toEqual(o);
    return back;
  }

  it('armed and pending re-arm (a double count starts again); done and stopped stay as they were', () => {
    const armed = make(exitDraft({ type: 'stop', price: '50', double: true }));
    evaluate(armed, look());
    const a = restarted(armed);
    expect(restore(a, T0)).toEqual([]);
    expect(a).toMatchObject({ state: 'armed' });
    expect(leg(a).through).toBe(0);
    expect(evaluate(a, look())).toEqual([]);
    expect(sends(evaluate(a, look({ book: { bid: q(49n * C), ask: q(52n * C) } })))).toHaveLength(1);

    const pending = bracketOf();
    onLimitPlaced(pending, 'wo-1.entry', {
      orderId: `0x${'1'.repeat(64)}`,
      filled: 0n,
      resting: true,
      refused: null,
      now: T0,
    });
    const p = restarted(pending);
    expect(restore(p, T0)).toEqual([]);
    expect(p.state).toBe('pending');

    for (const state of ['done', 'stopped'] as const) {
      const o = make(exitDraft({ type: 'stop', price: '50' }));
      end(o, state, 'Ended.', T0);
      const r = restarted(o);
      expect(restore(r, T0)).toEqual([]);
      expect(r).toMatchObject({ state, reason: 'Ended.' });
      expect(evaluate(r, look())).toEqual([]);
    }
  });

  it('fired (its send recorded, the answer unknown) or retrying: ends, and its trigger never sends again', () => {
    const fired = make(exitDraft({ type: 'stop', price: '50' }));
    expect(sends(evaluate(fired, look()))).toHaveLength(1);
    const f = restarted(fired);
    expect(restore(f, T0)).toEqual([]);
    expect(f.state).toBe('stopped');
    expect(f.reason).toMatch(/on its way; it is not sent again/);
    expect(evaluate(f, look())).toEqual([]);
    expect(leg(f).attempts).toHaveLength(1);

    const retrying = make(exitDraft({ type: 'stop', price: '50' }, { retries: 3 }));
    const s = sends(evaluate(retrying, look()))[0]!;
    onExitResult(retrying, s.leg, 0, {
      orderId: null,
      filled: 0n,
      refused: null,
      inventory: 10n * N,
      note: 'nothing filled',
      now: T0,
    });
    const r = restarted(retrying);
    restore(r, T0);
    expect(r.reason).toMatch(/being retried; it is not sent again/);
    expect(evaluate(r, look({ now: T0 + 10_000 }))).toEqual([]);
  });

  it('a leg being placed when the app closed is not placed again', () => {
    const o = bracketOf();
    expect(limit(o).state).toBe('placing');
    const r = restarted(o);
    expect(restore(r, T0)).toEqual([]);
    expect(r.reason).toMatch(/being placed; it is not placed again/);
  });

  it('a roll restarted in an epoch it placed does not place again there', () => {
    const o = make({
      kind: 'roll',
      assetId: '7',
      signAs: 'master',
      quotes: [{ side: 'buy', size: '1', price: { from: 'fixed', price: '40' } }],
    });
    expect(evaluate(o, look())).toHaveLength(1);
    const r = restarted(o);
    expect(restore(r, T0)).toEqual([]);
    expect(evaluate(r, look())).toEqual([]);
    expect(evaluate(r, look({ epoch: 4n, expiry: EXPIRY + 60_000, now: EXPIRY + 1 }))).toHaveLength(1);
  });

  it('a bracket’s entry that filled while the app was closed arms its exits by the position, up to the entry', () => {
    const id = `0x${'1'.repeat(64)}`;
    const o = bracketOf();
    onLimitPlaced(o, 'wo-1.entry', { orderId: id, filled: 2n * N, resting: true, refused: null, now: T0 });
    const still = restarted(o);
    restore(still, T0);
    // Still open with 6 resting: 4 filled, 2 of them new.
    reconcile(still, new Map([[id, 6n * N]]), 4n * N, T0);
    expect(leg(still, 1).armed).toBe(4n * N);
    // No longer open, holding 30: armed up to the entry's 10.
    reconcile(still, new Map(), 30n * N, T0);
    expect(leg(still, 1).armed).toBe(10n * N);
    expect(limit(still).state).toBe('done');
  });
});
