import { describe, expect, it } from 'vitest';
import type { OrderHistoryEntry } from '../../../shared/bridge';
import { createMemoryStore } from '../../store/key-value-store';
import {
  DAY_ACCOUNTS_KEPT,
  DAY_FILLS_KEPT,
  DAY_HISTORY_KEPT,
  DAY_RECORDS_KEY,
  DayRecordStore,
  type DayFill,
  type DayRecords,
} from './day-records';
import { missingFills } from './day-merge';

const DAY = 86_400_000;
const NOON = Date.UTC(2025, 4, 6, 12);
const ALICE = '0x00000000000000000000000000000000000000Aa';
const BOB = '0x00000000000000000000000000000000000000bb';
const DEV = { id: 'devnet', chainId: '31337' };
const id = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

const fill = (n: number, at: number, over: Partial<DayFill> = {}): DayFill => ({
  assetId: '7',
  epoch: '3',
  orderId: id(n),
  side: 'buy',
  price: '450000',
  size: '1000000',
  liquidity: 'maker',
  at,
  seq: String(n),
  ...over,
});
/** A taker fill: keyed by its order id, no sequence id. */
const taker = (n: number, at: number): DayFill => {
  const { seq: _seq, ...f } = fill(n, at, { liquidity: 'taker' });
  return f;
};
const entry = (n: number, at: number): OrderHistoryEntry => ({
  assetId: '7',
  epoch: '3',
  orderId: id(n),
  side: 'sell',
  price: '550000',
  size: '2000000',
  filled: '0',
  outcome: 'cancelled',
  reason: 'cancelled by you',
  timeInForce: 'GTC',
  signedBy: 'master',
  placedAt: at,
  updatedAt: at,
});
const records = (over: Partial<DayRecords> = {}): DayRecords => ({
  fills: [fill(1, NOON), taker(2, NOON + 1)],
  history: [entry(2, NOON + 1), entry(1, NOON)],
  positions: [
    { assetId: '7', epoch: '2', size: '0', inventory: '0', margin: '0', realisedPnl: '-200000' },
    { assetId: '7', epoch: '3', size: '3000000', inventory: '-3000000', margin: '1350000', realisedPnl: '0' },
  ],
  ...over,
});
const plain = (r: DayRecords): DayRecords => JSON.parse(JSON.stringify(r)) as DayRecords;

function storeAt(now: { t: number }, initial: Record<string, unknown> = {}) {
  const store = createMemoryStore(initial);
  return { store, records: () => new DayRecordStore(store, { now: () => now.t, writeDelayMs: 0 }) };
}

describe('DayRecordStore', () => {
  it('keeps an account’s day per deployment, read back by a new store over the same key-value store', () => {
    const now = { t: NOON };
    const { store, records: open } = storeAt(now);
    const port = open().port(DEV);
    port.save(ALICE, () => records());
    const again = open();
    expect(again.port(DEV).load(ALICE.toUpperCase().replace('0X', '0x'))).toEqual(plain(records()));
    // Another account, or the same account on another deployment or chain, has nothing.
    expect(again.port(DEV).load(BOB)).toEqual({ fills: [], history: [], positions: [] });
    expect(again.port({ id: 'devnet', chainId: '1' }).load(ALICE)).toEqual({ fills: [], history: [], positions: [] });
    expect(again.port({ id: 'practice', chainId: '31337' }).load(ALICE).fills).toEqual([]);
    expect(store.get(DAY_RECORDS_KEY)).toHaveLength(1);
  });

  it('is bounded: the newest fills and history entries, and a few accounts', () => {
    const now = { t: NOON };
    const { store, records: open } = storeAt(now);
    const port = open().port(DEV);
    const many = Array.from({ length: DAY_FILLS_KEPT + 50 }, (_, i) => fill(i + 1, NOON - 10_000 + i));
    const history = Array.from({ length: DAY_HISTORY_KEPT + 20 }, (_, i) => entry(i + 1, NOON - i));
    port.save(ALICE, () => records({ fills: many, history }));
    const back = open().port(DEV).load(ALICE);
    expect(back.fills).toHaveLength(DAY_FILLS_KEPT);
    expect(back.fills[0]!.orderId).toBe(id(51));
    expect(back.history).toHaveLength(DAY_HISTORY_KEPT);
    expect(back.history[0]!.orderId).toBe(id(1));
    for (let i = 0; i < DAY_ACCOUNTS_KEPT + 3; i++) {
      port.save(`0x${(i + 1).toString(16).padStart(40, '0')}`, () => records());
    }
    const kept = store.get(DAY_RECORDS_KEY) as { account: string }[];
    expect(kept).toHaveLength(DAY_ACCOUNTS_KEPT);
    // The one saved longest ago went first.
    expect(kept.some((r) => r.account === ALICE.toLowerCase())).toBe(false);
  });

  it('keeps a vault key’s day whatever other accounts are saved, and takes no slot for an empty day', () => {
    const now = { t: NOON };
    const store = createMemoryStore({});
    const signs = (a: string): boolean => a === ALICE.toLowerCase();
    const port = new DayRecordStore(store, { now: () => now.t, writeDelayMs: 0, signs }).port(DEV);
    port.save(ALICE, () => records());
    // A window selecting many watched accounts that traded today: the vault key's record stays.
    for (let i = 0; i < DAY_ACCOUNTS_KEPT + 3; i++)
      port.save(`0x${(i + 1).toString(16).padStart(40, '0')}`, () => records());
    const kept = store.get(DAY_RECORDS_KEY) as { account: string }[];
    expect(kept).toHaveLength(DAY_ACCOUNTS_KEPT + 1);
    expect(kept.some((r) => r.account === ALICE.toLowerCase())).toBe(true);
    expect(new DayRecordStore(store, { now: () => now.t, signs }).port(DEV).load(ALICE)).toEqual(plain(records()));
    // An account only looked at (nothing today) is not written at all.
    port.save(BOB, () => ({ fills: [], history: [], positions: [] }));
    expect((store.get(DAY_RECORDS_KEY) as { account: string }[]).some((r) => r.account === BOB.toLowerCase())).toBe(
      false,
    );
  });

  it('ignores a damaged store, and only the damaged record of one', () => {
    const now = { t: NOON };
    for (const junk of ['nonsense', 42, { dayRecords: true }, null]) {
      const { records: open } = storeAt(now, { [DAY_RECORDS_KEY]: junk });
      expect(open().port(DEV).load(ALICE)).toEqual({ fills: [], history: [], positions: [] });
    }
    const { store, records: open } = storeAt(now);
    open()
      .port(DEV)
      .save(ALICE, () => records());
    open()
      .port(DEV)
      .save(BOB, () => records());
    const stored = store.get(DAY_RECORDS_KEY) as Record<string, unknown>[];
    // Bob's record edited by hand: a fill price that is no number, an extra member.
    stored[1] = { ...stored[1], fills: [{ ...fill(9, NOON), price: '-1' }] };
    stored.push({ ...stored[0], account: 'not an address' }, { ...stored[0], extra: 1 });
    store.set(DAY_RECORDS_KEY, stored);
    const again = open().port(DEV);
    expect(again.load(BOB)).toEqual({ fills: [], history: [], positions: [] });
    expect(again.load(ALICE)).toEqual(plain(records()));
  });

  it('drops yesterday: a record of another day, and entries of yesterday in today’s', () => {
    const now = { t: NOON };
    const { store, records: open } = storeAt(now);
    const yesterday = NOON - DAY;
    open()
      .port(DEV)
      .save(ALICE, () =>
        records({
          fills: [fill(1, yesterday), fill(2, NOON), fill(3, 0)],
          history: [entry(2, NOON), entry(1, yesterday)],
        }),
      );
    const today = open().port(DEV).load(ALICE);
    expect(today.fills.map((f) => f.orderId)).toEqual([id(2), id(3)]);
    expect(today.history.map((h) => h.orderId)).toEqual([id(2)]);
    // The next day nothing of it comes back, and the next write leaves it out of the store.
    now.t += DAY;
    const next = open();
    expect(next.port(DEV).load(ALICE)).toEqual({ fills: [], history: [], positions: [] });
    next.port(DEV).save(BOB, () => records({ fills: [fill(5, now.t)], history: [] }));
    expect((store.get(DAY_RECORDS_KEY) as { account: string }[]).map((r) => r.account)).toEqual([BOB]);
  });

  it('gathers writes, writes what is pending on flush or close, and nothing for an account the desk left', () => {
    const now = { t: NOON };
    const store = createMemoryStore();
    const days = new DayRecordStore(store, { now: () => now.t, writeDelayMs: 60_000 });
    const port = days.port(DEV);
    let made = 0;
    port.save(ALICE, () => (made++, records()));
    port.save(ALICE, () => (made++, records()));
    port.save(BOB, () => null);
    expect(store.get(DAY_RECORDS_KEY)).toBeUndefined();
    port.close();
    expect(made).toBe(1);
    expect((store.get(DAY_RECORDS_KEY) as { account: string }[]).map((r) => r.account)).toEqual([ALICE.toLowerCase()]);
    // Closed: later changes of that session are not written.
    port.save(BOB, () => records());
    days.flush();
    expect(store.get(DAY_RECORDS_KEY)).toHaveLength(1);
  });

  it('forgets a deployment that starts over; its older ports write and read nothing more', () => {
    const now = { t: NOON };
    const { store, records: open } = storeAt(now);
    const days = open();
    const practice = { id: 'practice', chainId: '1337' };
    const old = days.port(practice);
    old.save(ALICE, () => records());
    days.port(DEV).save(ALICE, () => records());
    days.forget('practice');
    old.save(ALICE, () => records());
    expect(old.load(ALICE).fills).toEqual([]);
    expect(days.port(practice).load(ALICE).fills).toEqual([]);
    expect(days.port(DEV).load(ALICE)).toEqual(plain(records()));
    expect(store.get(DAY_RECORDS_KEY)).toHaveLength(1);
  });
});

describe('missingFills', () => {
  const rec = (n: number, liquidity: 'maker' | 'taker', ts: number) => ({
    orderId: id(n) as `0x${string}`,
    assetId: 7n,
    epoch: 3n,
    side: false,
    price: 450_000n,
    size: 1_000_000n,
    liquidity,
    ts,
  });

  it('adds only what the kept fills lack: a taker order by its id, a maker order beyond the count held', () => {
    // Newest first, as the exchange serves them.
    const records = [
      rec(3, 'maker', NOON + 5),
      rec(2, 'taker', NOON + 4),
      rec(2, 'taker', NOON + 4),
      rec(1, 'maker', NOON + 3),
      rec(1, 'maker', NOON + 2),
      rec(4, 'taker', NOON + 1),
      rec(5, 'maker', NOON - DAY),
    ];
    const held = [
      { orderId: id(1), liquidity: 'maker' as const },
      { orderId: id(4).toUpperCase().replace('0X', '0x'), liquidity: 'taker' as const },
    ];
    const out = missingFills(records, held, NOON - 1000);
    expect(out.taker.map((f) => [f.orderId, f.at])).toEqual([
      [id(2), NOON + 4],
      [id(2), NOON + 4],
    ]);
    // Order 1 had one fill held: its newer one is added; order 3 wholly; order 5 was yesterday.
    expect(out.maker.map((f) => [f.orderId, f.at])).toEqual([
      [id(1), NOON + 3],
      [id(3), NOON + 5],
    ]);
    expect(missingFills(records, [...held, ...out.maker, ...out.taker], NOON - 1000)).toEqual({ maker: [], taker: [] });
  });
});
