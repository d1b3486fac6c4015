// One leg alone: cancelling a bracket's or an OCO's leg while the rest keeps working, and editing an
// armed leg's trigger by create's rules; each across a restart too.
import { describe, expect, it } from 'vitest';
import type { WorkingOrderEdit } from '../../../shared/bridge';
import { createMemoryStore } from '../../store/key-value-store';
import { BridgeFailure } from '../bridge-runtime';
import { applyEdit } from './drafts';
import { cancelLeg, evaluate, onFill, onLimitPlaced, restore } from './engine';
import { WorkingOrderStore } from './store';
import { C, D, EXPIRY, M, N, STRIKE, T0, look, make, q, sends } from '../../../../test/support/working-orders-fixtures';
import type { ExitLeg, LimitLeg, MarketLook, WorkingOrder } from './types';

const ENTRY_ID = `0x${'1'.repeat(64)}`;

/** The fixtures' market with the bid (what a long's exits watch) at `bid` cents, the ask 2¢ over it. */
const lookAt = (bid: bigint, over: Partial<MarketLook> = {}): MarketLook =>
  look({ book: { bid: q(bid * C), ask: q(bid * C + 2n * C) }, ...over });

/** An OCO: a limit sell of 10 at 60¢, or a stop at 40¢. */
const limitOco = (): WorkingOrder =>
  make({
    kind: 'oco',
    ...M,
    signAs: 'master',
    legs: [
      { type: 'limit', side: 'sell', price: '60', size: '10' },
      { type: 'exit', trigger: { type: 'stop', price: '40' } },
    ],
  });
const legOf = (o: WorkingOrder, id: string) => o.legs.find((l) => l.id === id) as ExitLeg;
const entryOf = (o: WorkingOrder) => o.legs[0] as LimitLeg;

/** A bracket that bought 10 at 50¢ (its entry filled whole): take-profit at 60¢, stop at 40¢, both armed. */
function filledBracket(): WorkingOrder {
  const o = make(
    {
      kind: 'bracket',
      ...M,
      signAs: 'master',
      entry: { side: 'buy', price: '50', size: '10', timeInForce: 'GTC' },
      takeProfit: '60',
      stop: '40',
    },
    { inventory: 0n },
  );
  onLimitPlaced(o, 'wo-1.entry', { orderId: ENTRY_ID, filled: 10n * N, resting: false, refused: null, now: T0 });
  return o;
}

/** A bracket whose entry still rests with 4 of 10 filled. */
function restingBracket(): WorkingOrder {
  const o = filledBracket();
  Object.assign(entryOf(o), { state: 'resting', filled: 0n });
  for (const l of o.legs) if (l.type === 'exit') Object.assign(l, { state: 'idle', armed: 0n });
  onFill(o, ENTRY_ID, 4n * N, T0);
  return o;
}

/** The refusal a call makes: its code and sentence. */
function refusalOf(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof BridgeFailure) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('not refused');
}

/** The store round trip a restart makes: written, then read back by a new store. */
function restarted(o: WorkingOrder): WorkingOrder {
  const kv = createMemoryStore();
  new WorkingOrderStore(kv).add(o);
  const back = new WorkingOrderStore(kv).get(o.id)!;
  expect(back).toEqual(o);
  return back;
}

describe('cancel one leg alone', () => {
  it('cancelling the take-profit keeps the stop armed, and the stop still fires', () => {
    const o = filledBracket();
    expect(cancelLeg(o, 'wo-1.tp', T0)).toEqual([]);
    expect(legOf(o, 'wo-1.tp').state).toBe('cancelled');
    expect(legOf(o, 'wo-1.stop').state).toBe('armed');
    expect(o.state).toBe('armed');
    // The take-profit's price is through: nothing fires there any more.
    expect(evaluate(o, lookAt(61n))).toEqual([]);
    const out = sends(evaluate(o, lookAt(40n)));
    expect(out).toEqual([expect.objectContaining({ leg: 'wo-1.stop', sell: true, size: 10n * N, limit: 38n * C })]);
    expect(o.state).toBe('firing');
  });

  it('cancelling the stop keeps the take-profit, which fires at its price and nothing below', () => {
    const o = filledBracket();
    cancelLeg(o, 'wo-1.stop', T0);
    expect(legOf(o, 'wo-1.tp').state).toBe('armed');
    expect(evaluate(o, lookAt(30n))).toEqual([]);
    expect(sends(evaluate(o, lookAt(60n)))).toEqual([expect.objectContaining({ leg: 'wo-1.tp', limit: 58n * C })]);
  });

  it('cancelling both legs one at a time ends the working order; a leg cancelled twice is refused', () => {
    const o = filledBracket();
    cancelLeg(o, 'wo-1.stop', T0);
    expect(refusalOf(() => cancelLeg(o, 'wo-1.stop', T0))).toEqual({
      code: 'working.leg_ended',
      message: 'That leg has already filled, fired or been cancelled.',
    });
    expect(cancelLeg(o, 'wo-1.tp', T0 + 5)).toEqual([]);
    expect(o).toMatchObject({ state: 'stopped', reason: 'Stopped: cancelled by you.', endedAt: T0 + 5 });
    expect(o.legs.map((l) => l.state)).toEqual(['filled', 'cancelled', 'cancelled']);
    expect(evaluate(o, lookAt(30n))).toEqual([]);
    expect(refusalOf(() => cancelLeg(o, 'wo-1.tp', T0)).code).toBe('working.ended');
  });

  it('a bracket whose exits are all cancelled while its entry rests ends, leaving the entry on the exchange', () => {
    const o = restingBracket();
    cancelLeg(o, 'wo-1.tp', T0);
    expect(cancelLeg(o, 'wo-1.stop', T0)).toEqual([]);
    expect(o.state).toBe('stopped');
    expect(o.reason).toMatch(/its entry stays on the exchange as a plain order/);
    expect(entryOf(o).state).toBe('done');
  });

  it('cancelling a bracket’s entry cancels its rest; its exits stay armed by what filled, or end when nothing did', () => {
    const o = restingBracket();
    expect(cancelLeg(o, 'wo-1.entry', T0)).toEqual([
      { type: 'cancel', order: 'wo-1', orderIds: [ENTRY_ID], assetId: 7n, epoch: 3n },
    ]);
    expect(o.state).toBe('armed');
    expect(sends(evaluate(o, lookAt(40n)))[0]).toMatchObject({ leg: 'wo-1.stop', size: 4n * N });

    const none = restingBracket();
    Object.assign(entryOf(none), { filled: 0n });
    expect(cancelLeg(none, 'wo-1.entry', T0)).toEqual([
      { type: 'cancel', order: 'wo-1', orderIds: [ENTRY_ID], assetId: 7n, epoch: 3n },
    ]);
    expect(none.state).toBe('stopped');
    expect(none.reason).toBe('Stopped: its entry was cancelled by you before any of it filled.');
  });

  it('an OCO’s limit leg cancelled alone: its order is cancelled and the exit leg works on as a plain exit', () => {
    const o = limitOco();
    const id = `0x${'a'.repeat(64)}`;
    onLimitPlaced(o, 'wo-1.1', { orderId: id, filled: 0n, resting: true, refused: null, now: T0 });
    expect(cancelLeg(o, 'wo-1.1', T0)).toEqual([
      { type: 'cancel', order: 'wo-1', orderIds: [id], assetId: 7n, epoch: 3n },
    ]);
    expect(sends(evaluate(o, lookAt(40n)))).toEqual([expect.objectContaining({ leg: 'wo-1.2', size: 10n * N })]);
  });

  it('refuses a leg that has fired, one being placed, and one it does not have, each with a sentence', () => {
    const o = make({
      kind: 'oco',
      ...M,
      signAs: 'master',
      legs: [
        { type: 'exit', trigger: { type: 'stop', price: '40' } },
        { type: 'exit', trigger: { type: 'take-profit', price: '60' } },
      ],
    });
    evaluate(o, lookAt(40n));
    const fired = refusalOf(() => cancelLeg(o, 'wo-1.1', T0));
    expect(fired.code).toBe('working.leg_fired');
    expect(fired.message).toMatch(/^That leg has fired and its order is on its way/);
    expect(refusalOf(() => cancelLeg(o, 'wo-1.9', T0)).code).toBe('working.which_leg');
    const placing = limitOco();
    expect(refusalOf(() => cancelLeg(placing, 'wo-1.1', T0)).code).toBe('working.leg_placing');
  });

  it('after a restart, only the remaining leg is restored, armed, and fires', () => {
    const o = filledBracket();
    cancelLeg(o, 'wo-1.tp', T0);
    const r = restarted(o);
    expect(restore(r, T0)).toEqual([]);
    expect(r.state).toBe('armed');
    expect(r.legs.map((l) => [l.id, l.state])).toEqual([
      ['wo-1.entry', 'filled'],
      ['wo-1.tp', 'cancelled'],
      ['wo-1.stop', 'armed'],
    ]);
    expect(evaluate(r, lookAt(65n))).toEqual([]);
    expect(sends(evaluate(r, lookAt(39n)))).toEqual([expect.objectContaining({ leg: 'wo-1.stop' })]);
  });
});

describe('edit an armed leg', () => {
  const edit = (o: WorkingOrder, e: Omit<WorkingOrderEdit, 'id'>, inventory = 10n * N): void =>
    applyEdit(o, { id: o.id, ...e }, STRIKE, inventory);

  it('moving an armed stop re-arms it at the new price: the old price no longer fires, the new one does', () => {
    const o = filledBracket();
    evaluate(o, lookAt(45n));
    edit(o, { leg: 'wo-1.stop', price: '35' });
    expect(legOf(o, 'wo-1.stop')).toMatchObject({ state: 'armed', trigger: { price: 35n * C }, through: 0 });
    expect(evaluate(o, lookAt(40n))).toEqual([]);
    expect(evaluate(o, lookAt(36n))).toEqual([]);
    expect(sends(evaluate(o, lookAt(35n)))).toEqual([expect.objectContaining({ leg: 'wo-1.stop', limit: 33n * C })]);
  });

  it('a double trigger moved starts its count again', () => {
    const o = make({ kind: 'exit', ...M, signAs: 'master', trigger: { type: 'stop', price: '45', double: true } });
    evaluate(o, lookAt(44n));
    expect((o.legs[0] as ExitLeg).through).toBe(1);
    edit(o, { price: '44' });
    expect((o.legs[0] as ExitLeg).through).toBe(0);
    expect(evaluate(o, lookAt(43n))).toEqual([]);
    expect(sends(evaluate(o, lookAt(42n)))).toHaveLength(1);
  });

  it('an oracle stop’s level and a time exit’s seconds move by create’s rules', () => {
    const oracle = make({
      kind: 'exit',
      ...M,
      signAs: 'master',
      trigger: { type: 'oracle-stop', level: { from: 'strike', offset: '-20' } },
    });
    edit(oracle, { level: { from: 'strike', offset: '-50' } });
    expect(oracle.legs[0]).toMatchObject({ trigger: { level: STRIKE - 50n * D, strikeOffset: -50n * D } });
    expect(evaluate(oracle, lookAt(50n, { oracle: STRIKE - 20n * D }))).toEqual([]);
    expect(sends(evaluate(oracle, lookAt(50n, { oracle: STRIKE - 50n * D })))).toHaveLength(1);

    const timed = make({ kind: 'exit', ...M, signAs: 'master', trigger: { type: 'time-exit', secondsBeforeEnd: 10 } });
    edit(timed, { secondsBeforeEnd: 30 });
    expect(sends(evaluate(timed, lookAt(50n, { now: EXPIRY - 30_000 })))).toHaveLength(1);
  });

  it('refuses what create would refuse: an off-tick price, a take-profit below its buy entry, no position', () => {
    const o = filledBracket();
    expect(refusalOf(() => edit(o, { leg: 'wo-1.tp', price: '60.05' })).code).toBe('working.invalid_price');
    expect(refusalOf(() => edit(o, { leg: 'wo-1.tp', price: '45' }))).toEqual({
      code: 'working.bracket_prices',
      message: 'A buy entry at 50¢ needs its take-profit above it.',
    });
    expect(refusalOf(() => edit(o, { leg: 'wo-1.stop', price: '55' })).code).toBe('working.bracket_prices');
    const oco = make({
      kind: 'oco',
      ...M,
      signAs: 'master',
      legs: [
        { type: 'exit', trigger: { type: 'stop', price: '40' } },
        { type: 'exit', trigger: { type: 'take-profit', price: '60' } },
      ],
    });
    expect(refusalOf(() => edit(oco, { leg: 'wo-1.1', price: '41' }, 0n)).code).toBe('working.no_position');
  });

  it('refuses a fired leg, and a cancelled one, saying which', () => {
    const o = filledBracket();
    evaluate(o, lookAt(40n));
    expect(refusalOf(() => edit(o, { leg: 'wo-1.stop', price: '35' }))).toEqual({
      code: 'working.not_editable',
      message: 'That leg has fired and its order is on its way, so it can no longer be changed.',
    });
    const c = filledBracket();
    cancelLeg(c, 'wo-1.tp', T0);
    expect(refusalOf(() => edit(c, { leg: 'wo-1.tp', price: '65' })).message).toBe(
      'That leg was cancelled, so it can no longer be changed.',
    );
    // Unnamed, the leg is the one trigger still armed.
    edit(c, { price: '35' });
    expect(legOf(c, 'wo-1.stop').trigger).toMatchObject({ price: 35n * C });
  });

  it('an edited leg survives a restart at its new price', () => {
    const o = filledBracket();
    edit(o, { leg: 'wo-1.tp', price: '70' });
    const r = restarted(o);
    restore(r, T0);
    expect(evaluate(r, lookAt(65n))).toEqual([]);
    expect(sends(evaluate(r, lookAt(70n)))).toEqual([expect.objectContaining({ leg: 'wo-1.tp' })]);
  });
});
