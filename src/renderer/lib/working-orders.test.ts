import { describe, expect, it } from 'vitest';
import type { WorkingLegView, WorkingOrderView } from '../../shared/bridge';
import {
  bracketPrices,
  cancelledText,
  cancelLegLabel,
  contractLevels,
  defaultRollQuotes,
  exitLegs,
  kindName,
  ladderMarks,
  legCancellable,
  legText,
  oracleLevels,
  rollDraft,
  rollQuoteText,
  rollStepText,
  stateWord,
  whyText,
  workingIn,
} from './working-orders';

const leg = (over: Partial<WorkingLegView>): WorkingLegView => ({
  id: 'l1',
  type: 'take-profit',
  state: 'armed',
  side: 'sell',
  price: '550000',
  double: false,
  oracleLevel: null,
  direction: null,
  fireAt: null,
  secondsBeforeEnd: null,
  size: null,
  armed: null,
  slippage: '50000',
  retries: 0,
  attempts: [],
  orderId: null,
  filled: '0',
  ...over,
});

const order = (over: Partial<WorkingOrderView>): WorkingOrderView => ({
  id: 'wo-1',
  kind: 'exit',
  state: 'armed',
  account: `0x${'11'.repeat(20)}`,
  signAs: 'master',
  assetId: '42',
  epoch: '7',
  market: 'BTC 5m #7',
  createdAt: 1,
  waiting: null,
  reason: null,
  legs: [leg({})],
  roll: null,
  ...over,
});

const bracket = order({
  id: 'wo-2',
  kind: 'bracket',
  state: 'pending',
  legs: [
    leg({ id: 'e', type: 'entry', side: 'buy', price: '450000', size: '3000000', state: 'resting' }),
    leg({ id: 'tp', type: 'take-profit', price: '500000', state: 'idle', armed: '0' }),
    leg({ id: 'sl', type: 'stop', price: '400000', state: 'idle', armed: '0' }),
  ],
});

describe('working orders in words', () => {
  it('says each trigger and what it sends with the window formatters', () => {
    expect(legText(leg({}))).toBe('Take-profit at 55.0¢ → sell the whole position');
    expect(legText(leg({ type: 'stop', price: '400000', double: true, size: '2000000' }))).toBe(
      'Stop at 40.0¢ (two quotes through) → sell 2',
    );
    expect(legText(leg({ type: 'oracle-stop', price: null, oracleLevel: '64980500000', direction: 'below' }))).toBe(
      'Oracle stop: oracle at or below $64,980.50 → sell the whole position',
    );
    expect(legText(leg({ type: 'time-exit', price: null, secondsBeforeEnd: 10 }))).toBe(
      'Time exit 10 s before the end → sell the whole position',
    );
    expect(legText(bracket.legs[0]!)).toBe('Entry: buy 3 at 45.0¢');
    expect(legText(bracket.legs[1]!)).toBe('Take-profit at 50.0¢ → sell nothing armed yet');
    expect(kindName(bracket)).toBe('Bracket');
    expect(kindName(order({}))).toBe('Take-profit');
    expect(stateWord(bracket)).toBe('waiting for its entry');
    expect(stateWord({ kind: 'exit', state: 'armed' })).toBe('armed');
    // A roll quotes from its first placement on: running, before and after, never "armed".
    expect(stateWord({ kind: 'roll', state: 'pending' })).toBe('running');
    expect(stateWord({ kind: 'roll', state: 'armed' })).toBe('running');
  });

  it("tells why it waits in main's words, else what its last try said", () => {
    expect(whyText(order({ waiting: 'waiting: the book of BTC 5m #7 is stale' }))).toBe(
      'Waiting: the book of BTC 5m #7 is stale',
    );
    expect(whyText(order({}))).toBeNull();
    const tried = leg({
      attempts: [
        { at: 1, side: 'sell', limit: '500000', size: '1000000', orderId: null, filled: '0', note: 'nothing filled' },
        { at: 2, side: 'sell', limit: '500000', size: '1000000', orderId: null, filled: null, note: 'sent' },
      ],
    });
    expect(whyText(order({ legs: [tried] }))).toBe('sent');
  });
});

describe('what the ladder and charts draw', () => {
  it('marks take-profits and stops that have not fired, in the running orders of the market', () => {
    const ended = order({ id: 'wo-3', state: 'stopped', legs: [leg({ state: 'cancelled' })] });
    const other = order({ id: 'wo-4', epoch: '8' });
    const here = workingIn([order({}), bracket, ended, other], { assetId: '42', epoch: '7' });
    expect(here.map((o) => o.id)).toEqual(['wo-1', 'wo-2']);
    const marks = ladderMarks(here);
    expect(marks.map((m) => [m.key, m.short, m.price, m.armed, m.grouped])).toEqual([
      ['wo-1:l1', 'TP', 550000n, true, false],
      ['wo-2:tp', 'TP', 500000n, false, true],
      ['wo-2:sl', 'SL', 400000n, false, true],
    ]);
    expect(marks[1]!.title).toMatch(
      /armed when the entry fills\. Drag to move it; click to cancel this leg alone, keeping the rest of the bracket\./,
    );
    expect(marks[0]!.title).toMatch(/click to cancel it\.$/);
    // The entry rests on the exchange (the ladder's Mine column shows it); the chart draws it too.
    expect(contractLevels(here).map((l) => [l.title, l.price])).toEqual([
      ['TP', '550000'],
      ['entry', '450000'],
      ['TP', '500000'],
      ['SL', '400000'],
    ]);
  });

  it('draws an oracle stop at its level on the oracle chart', () => {
    const stop = order({ legs: [leg({ type: 'oracle-stop', price: null, oracleLevel: '64980500000' })] });
    expect(oracleLevels([stop])).toEqual([
      { key: 'wo-1:l1', price: '64980500000', title: 'oracle stop', tone: 'down' },
    ]);
  });
});

describe('one leg alone', () => {
  /** The bracket with its entry filled and its take-profit cancelled alone: the stop is all that works. */
  const stopLeft = order({
    ...bracket,
    state: 'armed',
    legs: [
      leg({ id: 'e', type: 'entry', side: 'buy', price: '450000', size: '3000000', state: 'filled' }),
      leg({ id: 'tp', type: 'take-profit', price: '500000', state: 'cancelled', armed: '3000000' }),
      leg({ id: 'sl', type: 'stop', price: '400000', state: 'armed', armed: '3000000' }),
    ],
  });

  it('offers each live leg its own cancel while another leg is live, named for people', () => {
    expect(bracket.legs.map((l) => legCancellable(bracket, l))).toEqual([true, true, true]);
    expect(stopLeft.legs.map((l) => legCancellable(stopLeft, l))).toEqual([false, false, false]);
    expect(legCancellable(order({}), leg({}))).toBe(false);
    expect(cancelLegLabel(leg({ type: 'stop' }))).toBe('Cancel stop leg');
    expect(cancelLegLabel(leg({ type: 'take-profit' }))).toBe('Cancel take-profit leg');
  });

  it('a bracket left with one exit is that plain exit: named by it, drawn alone, not offered as a leg', () => {
    expect(kindName(stopLeft)).toBe('Stop');
    const marks = ladderMarks([stopLeft]);
    expect(marks.map((m) => [m.key, m.grouped])).toEqual([['wo-2:sl', false]]);
    expect(marks[0]!.title).toMatch(/click to cancel it\.$/);
    // The cancelled take-profit is no longer among the position's exits.
    expect(exitLegs([stopLeft], { assetId: '42', epoch: '7' }).map((x) => x.leg.id)).toEqual(['sl']);
  });

  it('says what a leg cancel left working, or that it was the last', () => {
    expect(cancelledText(stopLeft, { type: 'take-profit' })).toBe('take-profit cancelled; the stop keeps working');
    const ended = order({
      ...stopLeft,
      state: 'stopped',
      legs: stopLeft.legs.map((l) => ({ ...l, state: 'cancelled' })),
    });
    expect(cancelledText(ended, { type: 'stop' })).toBe('stop cancelled; that was its last leg, so the bracket ended');
    expect(cancelledText(ended)).toBe('bracket cancelled');
  });
});

describe('the default bracket', () => {
  it('puts the take-profit on the winning side of the entry and keeps both tradable', () => {
    const d = { takeProfitCents: '5', stopCents: '2.5' };
    expect(bracketPrices('buy', '45', d)).toEqual({ takeProfit: '50', stop: '42.5' });
    expect(bracketPrices('sell', '45', d)).toEqual({ takeProfit: '40', stop: '47.5' });
    expect(bracketPrices('buy', '98', d)).toEqual({ takeProfit: '99.9', stop: '95.5' });
    expect(bracketPrices('buy', 'abc', d)).toBeNull();
  });
});

describe('a pegged roll in words', () => {
  const bid = { side: 'buy' as const, size: '5', price: { from: 'fair' as const, offset: '-2' } };
  const ask = { side: 'sell' as const, size: '5', price: { from: 'fixed' as const, price: '70' } };
  const live = (over: Partial<Parameters<typeof rollQuoteText>[1] & object> = {}) => ({
    state: 'resting' as const,
    target: '475000',
    resting: '475000',
    filled: '0',
    note: null,
    ...over,
  });

  it('shows each offset quote’s rule, where it rests and its target when fair has moved it', () => {
    expect(rollQuoteText(bid, live())).toBe('bid 5 fair−2.0¢ → 47.5¢');
    expect(rollQuoteText(bid, live({ target: '482000' }))).toBe('bid 5 fair−2.0¢ → 47.5¢, target 48.2¢');
    expect(rollQuoteText({ ...bid, price: { from: 'fair', offset: '+1.5' } }, live())).toBe('bid 5 fair+1.5¢ → 47.5¢');
    expect(rollQuoteText(bid, live({ state: 'off', resting: null, filled: '2000000' }))).toBe(
      'bid 5 fair−2.0¢ → off the book (target 47.5¢), 2 filled',
    );
    expect(rollQuoteText(ask, live({ target: null, resting: '700000' }))).toBe('ask 5 70.0¢ → 70.0¢');
    expect(rollQuoteText(ask)).toBe('ask 5 70.0¢');
    expect(rollStepText('10000')).toMatch(/1.0¢ or more/);
  });

  it('the Why column says when a roll waits to re-quote', () => {
    const o = order({
      kind: 'roll',
      legs: [],
      waiting: 'waiting to re-quote its bid at 50.5¢ (at most one re-quote every 2 s)',
    });
    expect(whyText(o)).toBe('Waiting to re-quote its bid at 50.5¢ (at most one re-quote every 2 s)');
  });
});

describe('the roll form', () => {
  it('drafts the quotes as typed, a cent each side of fair value by default, until stopped', () => {
    const draft = rollDraft('7', 'master', defaultRollQuotes('5'), '', '0.5');
    expect(draft).toEqual({
      kind: 'roll',
      assetId: '7',
      signAs: 'master',
      quotes: [
        { side: 'buy', size: '5', price: { from: 'fair', offset: '-1' } },
        { side: 'sell', size: '5', price: { from: 'fair', offset: '+1' } },
      ],
      requoteStep: '0.5',
    });
  });

  it('sends a fixed price and an epoch count, and leaves the step to main when empty', () => {
    const draft = rollDraft('7', 'agent', [{ side: 'sell', from: 'fixed', cents: ' 62.5 ', size: '3' }], ' 12 ', '');
    expect(draft).toEqual({
      kind: 'roll',
      assetId: '7',
      signAs: 'agent',
      quotes: [{ side: 'sell', size: '3', price: { from: 'fixed', price: '62.5' } }],
      epochs: 12,
    });
  });

  it('says in a sentence when the epoch count is not a whole number from 1', () => {
    for (const typed of ['0', '2.5', 'ten', '-3', '10000'])
      expect(rollDraft('7', 'master', defaultRollQuotes(), typed, '1')).toMatch(/^Epochs: a whole number/);
  });
});
