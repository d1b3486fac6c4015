import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../shared/protocol';
import type { MarketUpdate } from '../feeds/market-feed';
import type { BookOrders, ExchangePosition } from '../http/schemas';
import { AccountState, type AccountStateOptions } from './account-state';

const ACCOUNT = '0x00000000000000000000000000000000000000aa' as Address;
const id = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** A reader that answers every market with `resting` orders and a position of `inventory`. */
function reader(
  resting: (epoch: bigint) => Hex[],
  inventory: (epoch: bigint) => bigint,
): AccountStateOptions['reader'] {
  return {
    getBalance: () => Promise.resolve({ account: ACCOUNT, ts: 1, balance: 0n, pending: 0n }),
    getBookOrders: (assetId, epoch) =>
      Promise.resolve({
        assetId,
        epoch,
        seqId: 1n,
        ts: 1,
        buys: resting(epoch).map((o) => ({ id: o, size: 1n, price: 1n })),
        sells: [],
      } satisfies BookOrders),
    getPosition: (_account, assetId, epoch) =>
      Promise.resolve({
        account: ACCOUNT,
        assetId,
        epoch,
        ts: 1,
        size: 0n,
        inventory: inventory(epoch),
        margin: 0n,
        realisedPnl: 0n,
      } satisfies ExchangePosition),
  };
}

const trade = (orderId: Hex, epoch: bigint, seqId: bigint): MarketUpdate =>
  ({
    type: 'trade',
    assetId: 7n,
    epoch,
    seqId,
    data: { orderId, side: false, fill: 1n, fillPrice: 1n },
  }) as unknown as MarketUpdate;

describe('AccountState bounds', () => {
  it('keeps the newest own fills only', () => {
    const s = new AccountState({
      reader: reader(
        () => [],
        () => 0n,
      ),
      account: ACCOUNT,
      currentEpoch: () => undefined,
      fillsKept: 5,
    });
    s.trackOrder(id(1));
    for (let i = 0; i < 12; i++) s.onMarketUpdate(trade(id(1), 1n, BigInt(i)));
    expect(s.fills).toHaveLength(5);
    expect(s.fills.map((f) => f.seqId)).toEqual([7n, 8n, 9n, 10n, 11n]);
  });

  it('remembers at most the newest own order ids, and a resting order is renewed by every read', async () => {
    const s = new AccountState({
      reader: reader(
        () => [id(1)],
        () => 0n,
      ),
      account: ACCOUNT,
      currentEpoch: () => undefined,
      ownOrdersKept: 4,
    });
    s.trackOrder(id(1));
    for (let n = 2; n <= 10; n++) {
      s.trackOrder(id(n));
      await s.refresh(7n, 1n);
    }
    expect(s.isOwnOrder(id(1))).toBe(true); // resting: read again each time
    expect(s.isOwnOrder(id(2))).toBe(false); // sent long ago, no longer resting
    expect([7, 8, 9, 10].map((n) => s.isOwnOrder(id(n)))).toEqual([false, true, true, true]); // the newest three and the resting one
  });

  it('keeps at most `marketsKept` markets of orders and positions', async () => {
    const s = new AccountState({
      reader: reader(
        () => [],
        () => 1n,
      ),
      account: ACCOUNT,
      currentEpoch: () => undefined,
      marketsKept: 3,
    });
    for (let e = 0n; e < 8n; e++) await s.refresh(7n, e);
    expect(s.orders.size).toBe(3);
    expect(s.positions.size).toBe(3);
    expect(s.position(7n, 7n)?.inventory).toBe(1n);
    expect(s.position(7n, 4n)).toBeUndefined();
  });

  it('drops what old epochs hold that shows nothing on roll-over, and keeps held positions and resting orders', async () => {
    const held = (e: bigint): bigint => (e === 1n ? 5n : 0n);
    const s = new AccountState({
      reader: reader((e) => (e === 2n ? [id(9)] : []), held),
      account: ACCOUNT,
      currentEpoch: () => undefined,
    });
    for (let e = 0n; e < 6n; e++) await s.refresh(7n, e);
    await s.refresh(8n, 0n);
    s.forgetEpochsBefore(7n, 4n);
    expect([...s.positions.keys()].sort()).toEqual(['7:1', '7:4', '7:5', '8:0']);
    expect([...s.orders.keys()].sort()).toEqual(['7:2', '7:4', '7:5', '8:0']);
  });
});

describe('AccountState own order ids over time', () => {
  it('forgets an id not sent again nor seen resting within the grace, and keeps the resting one', async () => {
    let now = 0;
    const s = new AccountState({
      reader: reader(
        () => [id(1)],
        () => 0n,
      ),
      account: ACCOUNT,
      currentEpoch: () => undefined,
      ownOrderGraceMs: 60_000,
      now: () => now,
    });
    s.trackOrder(id(1));
    s.trackOrder(id(2));
    now = 50_000;
    await s.refresh(7n, 1n); // id 1 rests: renewed at 50 s
    s.trackOrder(id(3));
    now = 100_000; // id 2 last renewed at 0 s: past the grace; id 1 at 50 s: within
    s.trackOrder(id(4));
    expect([1, 2, 3, 4].map((n) => s.isOwnOrder(id(n)))).toEqual([true, false, true, true]);
  });
});

describe('AccountState re-reads', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => void process.off('unhandledRejection', onUnhandled));

  it('a re-read after an own fill, or coalesced behind another, that fails rejects nowhere unheard', async () => {
    let fail = false;
    const base = reader(
      () => [],
      () => 0n,
    );
    const failing: AccountStateOptions['reader'] = {
      ...base,
      getBookOrders: (...args) => (fail ? Promise.reject(new Error('EPIPE')) : base.getBookOrders(...args)),
    };
    const state = new AccountState({ reader: failing, account: ACCOUNT, currentEpoch: () => undefined });
    const order = id(5);
    state.trackOrder(order);
    fail = true;
    state.onMarketUpdate(trade(order, 1n, 1n)); // starts a re-read that fails
    state.onMarketUpdate(trade(order, 1n, 2n)); // queued behind it: fails too
    await expect(state.refresh(7n, 1n)).rejects.toThrow('EPIPE'); // a caller that waits hears it
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(state.fills).toHaveLength(2);
    expect(unhandled).toEqual([]);
  });
});

describe('AccountState balance re-reads', () => {
  it('hear of a balance moved elsewhere, and call onChange only when it moved', async () => {
    let balance = 0n;
    let pending = 0n;
    const base = reader(
      () => [],
      () => 0n,
    );
    let changes = 0;
    const state = new AccountState({
      reader: { ...base, getBalance: () => Promise.resolve({ account: ACCOUNT, ts: 1, balance, pending }) },
      account: ACCOUNT,
      currentEpoch: () => undefined,
      onChange: () => void changes++,
    });
    expect(await state.refreshBalance()).toBe(true); // the first read is news
    expect(changes).toBe(1);
    expect(await state.refreshBalance()).toBe(false);
    expect(changes).toBe(1);
    balance = 250_000_000n; // credited by the exchange: no market event says so
    expect(await state.refreshBalance()).toBe(true);
    expect(state.balance?.balance).toBe(250_000_000n);
    pending = 1_000_000n;
    expect(await state.refreshBalance()).toBe(true);
    expect(changes).toBe(3);
  });

  it('skip a re-read while the kept balance is fresher than asked, then read again', async () => {
    let reads = 0;
    let now = 1_000;
    const base = reader(
      () => [],
      () => 0n,
    );
    const state = new AccountState({
      reader: {
        ...base,
        getBalance: () => {
          reads++;
          return Promise.resolve({ account: ACCOUNT, ts: 1, balance: BigInt(reads), pending: 0n });
        },
      },
      account: ACCOUNT,
      currentEpoch: () => undefined,
      now: () => now,
    });
    await state.refresh(7n, 0n); // a market refresh reads the balance too
    expect(reads).toBe(1);
    now += 4_000;
    expect(await state.refreshBalance(5_000)).toBe(false);
    expect(reads).toBe(1);
    now += 1_000;
    expect(await state.refreshBalance(5_000)).toBe(true);
    expect(reads).toBe(2);
    expect(state.balance?.balance).toBe(2n);
  });

  it('never lets an older read answered late replace a newer one', async () => {
    // Reads answer when the test says: the periodic re-read is sent first, a market refresh after it,
    // and the refresh's answer (the newer state) arrives first.
    const answers: ((b: bigint) => void)[] = [];
    const base = reader(
      () => [],
      () => 0n,
    );
    const state = new AccountState({
      reader: {
        ...base,
        getBalance: () =>
          new Promise((resolve) =>
            answers.push((balance) => resolve({ account: ACCOUNT, ts: 1, balance, pending: 0n })),
          ),
      },
      account: ACCOUNT,
      currentEpoch: () => undefined,
    });
    const polled = state.refreshBalance();
    const refreshed = state.refresh(7n, 0n);
    await Promise.resolve();
    expect(answers).toHaveLength(2);
    answers[1]!(250_000_000n); // the newer read: after a credit
    expect(await refreshed).toBe(true);
    expect(state.balance?.balance).toBe(250_000_000n);
    answers[0]!(0n); // the older read, from before the credit
    expect(await polled).toBe(false);
    expect(state.balance?.balance).toBe(250_000_000n);
  });
});
