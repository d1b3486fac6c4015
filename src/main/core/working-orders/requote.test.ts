// A roll's offset quotes following fair value inside an epoch (requote.ts): the step, the interval,
// fixed quotes, refusals retried on the next move once per reason told, partial fills and restarts.
import { describe, expect, it } from 'vitest';
import { workingOrderEdit, workingOrderDraft } from '../../../shared/bridge';
import { createMemoryStore } from '../../store/key-value-store';
import { applyEdit, recordOf } from './drafts';
import { evaluate, onQuoteFill, onQuotesPlaced, onRequoted, reconcile, restore, type RequoteOutcome } from './engine';
import { DEFAULT_STEP, REQUOTE_MS } from './requote';
import { WorkingOrderStore } from './store';
import { toStored, workingOrderRecord, type Effect, type MarketLook, type WorkingOrder } from './types';
import { viewOf } from './view';
import { C, N, T0, facts, look as base, rollDraft } from '../../../../test/support/working-orders-fixtures';

const BID = `0x${'1'.repeat(64)}`;
const ASK = `0x${'2'.repeat(64)}`;
const NEW = `0x${'3'.repeat(64)}`;

/** The fixtures' market at T0 with no book, no position and fair 50¢, its epoch ten minutes long. */
const look = (over: Partial<MarketLook> = {}): MarketLook =>
  base({ now: T0, expiry: T0 + 600_000, book: null, inventory: 0n, fair: 50n * C, ...over });

/** A roll bidding 5 at fair − 2.5¢ and offering 5 at a fixed 70¢ (or as given), placed at fair 50¢ and resting. */
function placed(step?: string, quotes?: Parameters<typeof recordOf>[0] & { kind: 'roll' }): WorkingOrder {
  const o = recordOf(quotes ?? rollDraft(step ? { requoteStep: step } : {}), facts({ inventory: 0n, strike: null }));
  const first = evaluate(o, look());
  expect(first).toHaveLength(1);
  const e = first[0]!;
  if (e.type !== 'place-quotes') throw new Error('no placement');
  if (!quotes)
    expect(e.quotes).toMatchObject([
      { sell: false, price: 475n * 1_000n },
      { sell: true, price: 70n * C },
    ]);
  onQuotesPlaced(
    o,
    3n,
    e.quotes.map((q, i) => ({ orderId: [BID, ASK][i]!, resting: true, refused: null, filled: 0n, price: q.price })),
  );
  return o;
}

const requotes = (effects: Effect[]) => effects.filter((e) => e.type === 'requote');
const ok = (price: bigint, size: bigint, orderId = NEW): RequoteOutcome => ({
  orderId,
  price,
  size,
  resting: true,
  filled: 0n,
  refused: null,
  oldRests: false,
  unknown: false,
});
const refused = (price: bigint, size: bigint, code = 'risk.daily_loss'): RequoteOutcome => ({
  ...ok(price, size),
  orderId: null,
  resting: false,
  refused: { code, message: 'Refused: the day’s loss budget is spent.' },
});

describe('a roll’s offset quotes follow fair value', () => {
  it('a move of fair less than the step does nothing; a step or more replaces the quote at the rounded target', () => {
    const o = placed();
    expect(o.roll!.step).toBe(DEFAULT_STEP);
    // 0.95¢ up: the target (fair − 2.5¢, a bid rounded down) moves 0.9¢, under the 1¢ step.
    expect(evaluate(o, look({ now: T0 + 5_000, fair: 50n * C + 9_500n }))).toEqual([]);
    expect(o.roll!.slots[0]!.target).toBe(484_000n);
    // 1.05¢ up: 48.55¢ → 48.5¢ (down, a bid is never richer), 1¢ from 47.5¢.
    const out = evaluate(o, look({ now: T0 + 5_000, fair: 51n * C + 500n }));
    expect(out).toEqual([
      {
        type: 'requote',
        order: 'wo-1',
        epoch: 3n,
        round: 1,
        quote: 0,
        replaces: BID,
        sell: false,
        price: 485_000n,
        size: 5n * N,
      },
    ]);
    expect(o.roll!.slots[0]!.state).toBe('placing');
    // On its way: not asked again.
    expect(evaluate(o, look({ now: T0 + 9_000, fair: 60n * C }))).toEqual([]);
    onRequoted(o, 1, 0, ok(485_000n, 5n * N), 'BTC 1m #3');
    expect(o.roll!.slots[0]).toMatchObject({ state: 'resting', price: 485_000n, orderIds: [BID, NEW] });
    expect(o.roll!.resting).toEqual([NEW, ASK]);
    const live = viewOf(o, 'BTC 1m #3', null).roll!.live[0]!;
    expect(live).toMatchObject({ state: 'resting', resting: '485000' });
  });

  it('a sell’s target rounds up, and a step set on the roll (and edited) is the one used', () => {
    const o = placed(undefined, {
      kind: 'roll',
      assetId: '7',
      signAs: 'master',
      quotes: [{ side: 'sell', size: '2', price: { from: 'fair', offset: '2' } }],
      requoteStep: '0.5',
    });
    expect(o.roll!.step).toBe(5_000n);
    // 50.55 + 2 = 52.55 → 52.6¢ (up), 0.6¢ from 52.0¢: over the 0.5¢ step.
    expect(requotes(evaluate(o, look({ now: T0 + 3_000, fair: 505_500n })))).toMatchObject([
      { sell: true, price: 526_000n },
    ]);
    applyEdit(o, { id: 'wo-1', requoteStep: '3' }, null, 0n);
    expect(o.roll!.step).toBe(30_000n);
    expect(() => applyEdit(o, { id: 'wo-1', requoteStep: '0' }, null, 0n)).toThrow(/at least one tick/);
  });

  it('at most one re-quote per quote per interval: a move inside it waits, saying so, and goes after', () => {
    const o = placed();
    // Placed at T0: 1 s later a 3¢ move waits for the interval.
    expect(evaluate(o, look({ now: T0 + 1_000, fair: 53n * C }))).toEqual([]);
    expect(o.waiting).toMatch(/waiting to re-quote its bid at 50.5¢/);
    const out = requotes(evaluate(o, look({ now: T0 + REQUOTE_MS, fair: 53n * C })));
    expect(out).toHaveLength(1);
    expect(o.waiting).toBeNull();
    onRequoted(o, 1, 0, ok(505_000n, 5n * N), 'BTC 1m #3');
    expect(evaluate(o, look({ now: T0 + REQUOTE_MS + 1_999, fair: 56n * C }))).toEqual([]);
    expect(requotes(evaluate(o, look({ now: T0 + 2 * REQUOTE_MS, fair: 56n * C })))).toMatchObject([
      { replaces: NEW, price: 535_000n },
    ]);
  });

  it('a fixed-price quote never moves', () => {
    const o = placed();
    const out = requotes(evaluate(o, look({ now: T0 + 10_000, fair: 80n * C })));
    expect(out.map((e) => e.quote)).toEqual([0]);
    expect(o.roll!.slots[1]).toMatchObject({ state: 'resting', price: 70n * C, target: null });
  });

  it('a stale oracle or no fair value holds every re-quote, saying why', () => {
    const o = placed();
    expect(
      evaluate(o, look({ now: T0 + 10_000, fair: 60n * C, oracle: null, oracleNote: 'no oracle price in 5 s' })),
    ).toEqual([]);
    expect(o.waiting).toMatch(/feed not live/);
    expect(evaluate(o, look({ now: T0 + 10_000, fair: null }))).toEqual([]);
    expect(o.waiting).toMatch(/no fair value/);
    expect(requotes(evaluate(o, look({ now: T0 + 10_000, fair: 60n * C })))).toHaveLength(1);
  });

  it('a refused re-quote is off the book, told once per reason, and tried again on the next move after the interval', () => {
    const o = placed();
    const first = requotes(evaluate(o, look({ now: T0 + 3_000, fair: 53n * C })));
    expect(first).toHaveLength(1);
    const said = onRequoted(o, 1, 0, refused(505_000n, 5n * N), 'BTC 1m #3');
    expect(said).toMatchObject([{ type: 'notice', level: 'warning' }]);
    expect((said[0] as { message: string }).message).toMatch(/BTC 1m #3: its bid could not be re-quoted at 50.5¢/);
    expect(o.roll!.slots[0]).toMatchObject({ state: 'off', price: null });
    expect(o.roll!.resting).toEqual([ASK]);
    expect(viewOf(o, 'BTC 1m #3', null).waiting).toMatch(/^waiting to re-quote its bid when fair value next moves: /);
    // Fair unmoved since the try: nothing, however long.
    expect(evaluate(o, look({ now: T0 + 60_000, fair: 53n * C }))).toEqual([]);
    // Moved, but inside the interval: nothing yet.
    expect(evaluate(o, look({ now: T0 + 4_000, fair: 531_000n }))).toEqual([]);
    const again = requotes(evaluate(o, look({ now: T0 + 5_000, fair: 531_000n })));
    expect(again).toMatchObject([{ replaces: null, price: 506_000n, size: 5n * N }]);
    // The same reason again: no second notice.
    expect(onRequoted(o, 1, 0, refused(506_000n, 5n * N), 'BTC 1m #3')).toEqual([]);
    // Another reason: told.
    requotes(evaluate(o, look({ now: T0 + 8_000, fair: 54n * C })));
    expect(onRequoted(o, 1, 0, refused(515_000n, 5n * N, 'risk.price_band'), 'BTC 1m #3')).toHaveLength(1);
    // Accepted at last: resting, nothing said.
    requotes(evaluate(o, look({ now: T0 + 11_000, fair: 55n * C })));
    expect(onRequoted(o, 1, 0, ok(525_000n, 5n * N), 'BTC 1m #3')).toEqual([]);
    expect(o.roll!.slots[0]).toMatchObject({ state: 'resting', price: 525_000n, refused: null });
    expect(viewOf(o, 'BTC 1m #3', null).waiting).toBeNull();
  });

  it('a partly filled quote re-quotes what is left; a filled one is not placed again in the epoch', () => {
    const o = placed();
    onQuoteFill(o, BID, 2n * N);
    expect(requotes(evaluate(o, look({ now: T0 + 3_000, fair: 53n * C })))).toMatchObject([{ size: 3n * N }]);
    onRequoted(o, 1, 0, ok(505_000n, 3n * N), 'BTC 1m #3');
    // A late fill of the order it replaced still counts, and the new order's own fills.
    onQuoteFill(o, BID, 1n * N);
    onQuoteFill(o, NEW, 2n * N);
    expect(o.roll!.slots[0]).toMatchObject({ state: 'filled', filled: 5n * N });
    expect(evaluate(o, look({ now: T0 + 10_000, fair: 60n * C }))).toEqual([]);
    expect(viewOf(o, 'BTC 1m #3', null).roll!.live[0]).toMatchObject({ state: 'filled', filled: '5000000' });
  });

  it('an answer for an earlier placement (edited, or a new epoch) is not this one’s: what it placed is cancelled', () => {
    const o = placed();
    requotes(evaluate(o, look({ now: T0 + 3_000, fair: 53n * C })));
    evaluate(o, look({ epoch: 4n, now: T0 + 600_001, expiry: T0 + 1_200_000 }));
    expect(onRequoted(o, 1, 0, ok(505_000n, 5n * N), 'BTC 1m #3')).toEqual([
      { type: 'cancel', order: 'wo-1', orderIds: [NEW], assetId: 7n, epoch: 4n },
    ]);
  });
});

describe('a pegged roll across a restart', () => {
  function restarted(o: WorkingOrder): WorkingOrder {
    const kv = createMemoryStore();
    new WorkingOrderStore(kv).add(o);
    return new WorkingOrderStore(kv).get(o.id)!;
  }

  it('keeps its step and last re-quote time; a quote on its way is not placed again; one gone while closed neither', () => {
    const o = placed('2');
    requotes(evaluate(o, look({ now: T0 + 3_000, fair: 53n * C })));
    const r = restarted(o);
    expect(r.roll!.step).toBe(20_000n);
    expect(r.roll!.slots[0]!.at).toBe(T0 + 3_000);
    expect(restore(r, T0 + 3_500)).toEqual([]);
    expect(r.roll!.slots[0]).toMatchObject({ state: 'lost' });
    expect(evaluate(r, look({ now: T0 + 30_000, fair: 70n * C }))).toEqual([]);
    expect(viewOf(r, 'BTC 1m #3', null).waiting).toMatch(/being placed/);

    // Resting at the close: 1 filled meanwhile (4 still open), then re-quoted for the 4 after the interval.
    const p = placed();
    const back = restarted(p);
    restore(back, T0 + 1_000);
    reconcile(back, new Map([[BID.toLowerCase(), 4n * N]]), 0n, T0 + 1_000);
    expect(back.roll!.slots[0]).toMatchObject({ state: 'resting', filled: 1n * N });
    expect(evaluate(back, look({ now: T0 + 1_500, fair: 55n * C }))).toEqual([]);
    expect(requotes(evaluate(back, look({ now: T0 + REQUOTE_MS, fair: 55n * C })))).toMatchObject([{ size: 4n * N }]);
    // No longer open: it left the book while closed, not placed again in this epoch.
    const q = restarted(placed());
    restore(q, T0);
    reconcile(q, new Map(), 0n, T0);
    expect(q.roll!.slots[0]!.state).toBe('lost');
    expect(evaluate(q, look({ now: T0 + 30_000, fair: 60n * C }))).toEqual([]);
  });

  it('a roll stored before pegging still parses: step 1¢, no quotes tracked, its resting orders kept', () => {
    const o = placed();
    const stored = toStored(o) as { roll: Record<string, unknown> };
    for (const k of ['step', 'round', 'slots', 'noticed']) delete stored.roll[k];
    const old = workingOrderRecord.parse(stored);
    expect(old.roll).toMatchObject({ step: 10_000n, round: 0, slots: [], noticed: [], resting: [BID, ASK] });
    expect(evaluate(old, look({ now: T0 + 30_000, fair: 60n * C }))).toEqual([]);
    // The next epoch places and tracks as any roll.
    expect(evaluate(old, look({ epoch: 4n, now: T0 + 600_001, expiry: T0 + 1_200_000 }))).toHaveLength(1);
    expect(old.roll!.slots).toHaveLength(2);
  });
});

describe('the re-quote step at the bridge', () => {
  it('takes cents from one tick to 99.9 in the draft and the edit, and nothing else', () => {
    const draft = (requoteStep: string) =>
      workingOrderDraft.safeParse({
        kind: 'roll',
        assetId: '7',
        signAs: 'master',
        quotes: [{ side: 'buy', size: '1', price: { from: 'fair', offset: '-1' } }],
        requoteStep,
      }).success;
    expect(['0.1', '1', '2.5', '99.9'].map(draft)).toEqual([true, true, true, true]);
    expect(['0', '0.0', '0.05', '100', '-1', '1e1', ''].map(draft)).toEqual(Array(7).fill(false));
    expect(workingOrderEdit.safeParse({ id: 'wo-1', requoteStep: '0.5' }).success).toBe(true);
    expect(workingOrderEdit.safeParse({ id: 'wo-1', requoteStep: 1 }).success).toBe(false);
  });
});
