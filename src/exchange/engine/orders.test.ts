import { beforeEach, describe, expect, it } from 'vitest';
import { checkInvariants } from './invariants';
import { ALICE, ASSET, BOB, CAROL, EPOCH, hexId, Script } from './testkit';
import type { NewOrderResult } from './types';

const C = 1_000_000n; // one contract / one token
let s: Script;

function bal(who: string) {
  const b = s.engine.balance(who);
  return { free: b.balance, pending: b.pending };
}

function expectConsistent(r: NewOrderResult, size: bigint) {
  expect(r.filled + r.remaining + r.cancelled).toBe(size);
}

beforeEach(() => {
  s = new Script();
  s.market();
  s.credit(ALICE, 1000n * C);
  s.credit(BOB, 1000n * C);
  s.credit(CAROL, 1000n * C);
});

describe('GTC', () => {
  it('rests without a match: ACCEPTED, reserves size × price', () => {
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 10n * C });
    expect(result).toMatchObject({ status: 'ACCEPTED', reason: '', filled: 0n, remaining: 10n * C, cancelled: 0n });
    expect(bal(ALICE)).toEqual({ free: 996n * C, pending: 4n * C });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'order',
      seqId: 1,
      data: { side: 'buy', price: '400000', size: '10000000', tif: 'GTC', type: 'limit' },
    });
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('a SELL reserves size × (1e6 − price)', () => {
    s.order({ account: ALICE, side: 'sell', price: 400_000n, size: 10n * C });
    expect(bal(ALICE)).toEqual({ free: 994n * C, pending: 6n * C });
  });

  it('partial fill: PARTIALLY_FILLED with the remainder resting after the trades', () => {
    const ask = s.order({ account: BOB, side: 'sell', price: 500_000n, size: 4n * C }).result;
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 10n * C });
    expect(result).toMatchObject({
      status: 'PARTIALLY_FILLED',
      reason: '',
      filled: 4n * C,
      remaining: 6n * C,
      cancelled: 0n,
    });
    expect(events.map((e) => e.type)).toEqual(['trade', 'order']);
    expect(events[0]).toMatchObject({
      data: { orderId: ask.orderId, fill: '4000000', fillPrice: '500000', size: '0', side: 'sell' },
    });
    expect(events[1]).toMatchObject({ data: { orderId: result.orderId, size: '6000000' } });
    expect(s.engine.l2(ASSET, EPOCH).bids[0]).toMatchObject({ price: 500_000n, size: 6n * C, orderCount: 1 });
    expect(bal(ALICE).pending).toBe(3n * C);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('full fill: FILLED and nothing rests', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 10n * C });
    const { result } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 10n * C });
    expect(result).toMatchObject({ status: 'FILLED', reason: '', filled: 10n * C, remaining: 0n, cancelled: 0n });
    const l2 = s.engine.l2(ASSET, EPOCH);
    expect(l2.bids).toEqual([]);
    expect(l2.asks).toEqual([]);
    expect(bal(ALICE)).toEqual({ free: 995n * C, pending: 0n });
    expect(bal(BOB)).toEqual({ free: 995n * C, pending: 0n });
  });
});

describe('IOC', () => {
  it('fills fully: FILLED', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 10n * C });
    const { result } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 10n * C, tif: 'IOC' });
    expect(result).toMatchObject({ status: 'FILLED', reason: '' });
  });

  it('fills partly: PARTIALLY_FILLED/IOC, the rest cancelled and released', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 3n * C });
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 600_000n, size: 10n * C, tif: 'IOC' });
    expect(result).toMatchObject({
      status: 'PARTIALLY_FILLED',
      reason: 'IOC',
      filled: 3n * C,
      remaining: 0n,
      cancelled: 7n * C,
    });
    expectConsistent(result, 10n * C);
    expect(events.map((e) => e.type)).toEqual(['trade']);
    expect(bal(ALICE)).toEqual({ free: 1000n * C - 1_500_000n, pending: 0n });
    expect(s.engine.l2(ASSET, EPOCH).bids).toEqual([]);
  });

  it('no liquidity: CANCELLED/IOC, no events, nothing reserved', () => {
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 600_000n, size: 10n * C, tif: 'IOC' });
    expect(result).toMatchObject({ status: 'CANCELLED', reason: 'IOC', filled: 0n, remaining: 0n, cancelled: 10n * C });
    expect(events).toEqual([]);
    expect(bal(ALICE)).toEqual({ free: 1000n * C, pending: 0n });
  });
});

describe('FOK', () => {
  it('not enough liquidity: CANCELLED/FOK and the book is untouched', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 3n * C });
    s.order({ account: BOB, side: 'sell', price: 700_000n, size: 30n * C });
    const before = s.engine.l2(ASSET, EPOCH);
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 600_000n, size: 5n * C, tif: 'FOK' });
    expect(result).toMatchObject({ status: 'CANCELLED', reason: 'FOK', filled: 0n, remaining: 0n, cancelled: 5n * C });
    expect(events).toEqual([]);
    expect(s.engine.l2(ASSET, EPOCH)).toEqual(before);
    expect(bal(ALICE)).toEqual({ free: 1000n * C, pending: 0n });
  });

  it('enough liquidity across levels: FILLED', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 3n * C });
    s.order({ account: CAROL, side: 'sell', price: 600_000n, size: 3n * C });
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 600_000n, size: 5n * C, tif: 'FOK' });
    expect(result).toMatchObject({ status: 'FILLED', reason: '', filled: 5n * C });
    expect(events.map((e) => (e.type === 'trade' ? e.data.fillPrice : e.type))).toEqual(['500000', '600000']);
  });

  it('own resting orders do not count as liquidity', () => {
    s.order({ account: ALICE, side: 'sell', price: 500_000n, size: 10n * C });
    const { result } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 5n * C, tif: 'FOK' });
    expect(result).toMatchObject({ status: 'CANCELLED', reason: 'FOK' });
    expect(s.engine.l2(ASSET, EPOCH).asks).toHaveLength(1);
  });
});

describe('ALO', () => {
  it('rests when it does not cross: ACCEPTED', () => {
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: 3n * C });
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 499_000n, size: 5n * C, tif: 'ALO' });
    expect(result).toMatchObject({ status: 'ACCEPTED', reason: '' });
    expect(events[0]).toMatchObject({ type: 'order', data: { tif: 'ALO' } });
  });

  it('is rejected when it would cross: REJECTED/ALO, nothing changes', () => {
    s.order({ account: BOB, side: 'buy', price: 500_000n, size: 3n * C });
    const { result, events } = s.order({ account: ALICE, side: 'sell', price: 500_000n, size: 5n * C, tif: 'ALO' });
    expect(result).toMatchObject({ status: 'REJECTED', reason: 'ALO', filled: 0n, remaining: 0n, cancelled: 5n * C });
    expect(result.error?.code).toBe('ALO_WOULD_CROSS');
    expect(events).toEqual([]);
    expect(bal(ALICE)).toEqual({ free: 1000n * C, pending: 0n });
  });
});

describe('rejections', () => {
  const bad: [string, { price?: bigint; size?: bigint; tif?: bigint }, string][] = [
    ['price off tick', { price: 500_500n }, 'INVALID_PRICE'],
    ['price 0', { price: 0n }, 'INVALID_PRICE'],
    ['price 1e6', { price: 1_000_000n }, 'INVALID_PRICE'],
    ['size below lot', { size: 5_000n }, 'INVALID_SIZE'],
    ['size off lot', { size: 15_000n }, 'INVALID_SIZE'],
    ['size above practical max', { size: 100_000_010_000n }, 'INVALID_SIZE'],
    ['tif 4', { tif: 4n }, 'INVALID_TIME_IN_FORCE'],
  ];
  it.each(bad)('%s: REJECTED/INVALID_ORDER', (_name, patch, code) => {
    const f = { ...s.orderFields({ account: ALICE, side: 'buy', price: 500_000n, size: C }), ...patch };
    const { result, events } = s.engine.apply({ type: 'placeOrder', ...f, time: s.tick() });
    expect(result).toMatchObject({ status: 'REJECTED', reason: 'INVALID_ORDER', filled: 0n, remaining: 0n });
    expect(result.error?.code).toBe(code);
    expect(events).toEqual([]);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('unknown market and duplicate digest are INVALID_ORDER', () => {
    const r1 = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C, epoch: 9n }).result;
    expect(r1).toMatchObject({
      status: 'REJECTED',
      reason: 'INVALID_ORDER',
      error: { code: 'ASSET_ID_NOT_REGISTERED' },
    });
    const id = hexId(777);
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C, id }).result.status).toBe('ACCEPTED');
    const r2 = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C, id }).result;
    expect(r2).toMatchObject({ status: 'REJECTED', reason: 'INVALID_ORDER', error: { code: 'ENTRY_PROCESSED' } });
    expect(s.engine.accountOrders(ALICE, ASSET, EPOCH).buys).toHaveLength(1);
  });

  it('MARGIN when the reservation exceeds the free balance; exactly enough is accepted', () => {
    // 1000 tokens buy 2000 contracts at 0.50 exactly.
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 2000n * C + 20_000n }).result).toMatchObject({
      status: 'REJECTED',
      reason: 'MARGIN',
      error: { code: 'INSUFFICIENT_MARGIN' },
    });
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 2000n * C }).result.status).toBe('ACCEPTED');
    expect(bal(ALICE)).toEqual({ free: 0n, pending: 1000n * C });
    expect(s.order({ account: ALICE, side: 'sell', price: 990_000n, size: 10_000n }).result.reason).toBe('MARGIN');
  });

  it('MARKET_RESOLVED after resolution and at expiration', () => {
    s.market(ASSET, 1n, 1n, BigInt(Math.floor(s.time / 1000) + 5));
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C, epoch: 1n }).result.status).toBe(
      'ACCEPTED',
    );
    s.tick(10_000);
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C, epoch: 1n }).result).toMatchObject({
      status: 'REJECTED',
      reason: 'MARKET_RESOLVED',
    });
    s.resolve(1n);
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C }).result).toMatchObject({
      status: 'REJECTED',
      reason: 'MARKET_RESOLVED',
    });
  });
});

describe('matching', () => {
  it('price-time priority: better price first, then earlier arrival', () => {
    const late = s.order({ account: BOB, side: 'sell', price: 500_000n, size: C }).result.orderId;
    const early = s.order({ account: CAROL, side: 'sell', price: 500_000n, size: C }).result.orderId;
    const better = s.order({ account: CAROL, side: 'sell', price: 490_000n, size: C }).result.orderId;
    const { events } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 3n * C });
    expect(events.map((e) => e.data.orderId)).toEqual([better, late, early]);
  });

  it('trades at the maker price and returns the taker excess', () => {
    s.order({ account: BOB, side: 'sell', price: 550_000n, size: 10n * C });
    const { events } = s.order({ account: ALICE, side: 'buy', price: 600_000n, size: 10n * C });
    expect(events[0]).toMatchObject({ type: 'trade', data: { fillPrice: '550000' } });
    expect(bal(ALICE)).toEqual({ free: 1000n * C - 5_500_000n, pending: 0n });
    expect(bal(BOB)).toEqual({ free: 1000n * C - 4_500_000n, pending: 0n });
    expect(s.engine.top(ASSET, EPOCH)).toMatchObject({ last: 550_000n, bid: null, ask: null });
    // A SELL taker hitting a higher bid trades at the bid.
    s.order({ account: CAROL, side: 'buy', price: 620_000n, size: C });
    s.order({ account: BOB, side: 'sell', price: 600_000n, size: C });
    expect(s.engine.top(ASSET, EPOCH).last).toBe(620_000n);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('self-trade: the own resting order is cancelled and matching continues', () => {
    const own = s.order({ account: ALICE, side: 'sell', price: 500_000n, size: 2n * C }).result.orderId;
    const other = s.order({ account: BOB, side: 'sell', price: 500_000n, size: 2n * C }).result.orderId;
    const { result, events } = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 2n * C });
    expect(result.status).toBe('FILLED');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: 'cancel', data: { orderId: result.orderId, cancelId: own } });
    expect(events[1]).toMatchObject({ type: 'trade', data: { orderId: other } });
    expect(bal(ALICE).pending).toBe(0n);
    expect(s.engine.position(ALICE, ASSET, EPOCH).net).toBe(2n * C);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('records own fills with maker/taker', () => {
    const ask = s.order({ account: BOB, side: 'sell', price: 500_000n, size: C }).result.orderId;
    const bid = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C }).result.orderId;
    expect(s.engine.fills(BOB)).toMatchObject([
      { orderId: ask, side: true, price: 500_000n, size: C, liquidity: 'maker' },
    ]);
    expect(s.engine.fills(ALICE)).toMatchObject([
      { orderId: bid, side: false, price: 500_000n, size: C, liquidity: 'taker' },
    ]);
  });
});

describe('cancel', () => {
  it('cancels one order and releases its reservation', () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 10n * C }).result.orderId;
    const { result, events } = s.cancel(ALICE, id);
    expect(result).toMatchObject({ status: 'CANCELLED', orderIds: [id] });
    expect(events[0]).toMatchObject({ type: 'cancel', data: { orderId: result.id, cancelId: id } });
    expect(bal(ALICE)).toEqual({ free: 1000n * C, pending: 0n });
    expect(s.cancel(ALICE, id).result).toMatchObject({ status: 'CANCEL_FAILED', error: { code: 'ORDER_NOT_FOUND' } });
  });

  it("cannot cancel another account's order", () => {
    const id = s.order({ account: BOB, side: 'buy', price: 400_000n, size: C }).result.orderId;
    expect(s.cancel(ALICE, id).result.status).toBe('CANCEL_FAILED');
    expect(s.engine.accountOrders(BOB, ASSET, EPOCH).buys).toHaveLength(1);
  });

  it('cancel-all (zero hash) cancels only this account in this asset and epoch', () => {
    s.market(ASSET, 1n);
    const a1 = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: C }).result.orderId;
    const a2 = s.order({ account: ALICE, side: 'sell', price: 600_000n, size: C }).result.orderId;
    s.order({ account: ALICE, side: 'buy', price: 400_000n, size: C, epoch: 1n });
    s.order({ account: BOB, side: 'buy', price: 400_000n, size: C });
    const { result, events } = s.cancel(ALICE, `0x${'0'.repeat(64)}`);
    expect(result).toMatchObject({ status: 'CANCELLED', orderIds: [a1, a2] });
    expect(events).toHaveLength(2);
    expect(s.engine.accountOrders(ALICE, ASSET, EPOCH)).toMatchObject({ buys: [], sells: [] });
    expect(s.engine.accountOrders(ALICE, ASSET, 1n).buys).toHaveLength(1);
    expect(s.engine.accountOrders(BOB, ASSET, EPOCH).buys).toHaveLength(1);
    expect(bal(ALICE).pending).toBe(400_000n);
    expect(s.cancel(ALICE, `0x${'0'.repeat(64)}`).result).toMatchObject({ status: 'CANCELLED', orderIds: [] });
  });
});

describe('cancel-replace', () => {
  it('SUCCESS moves the order and its reservation', () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 10n * C }).result.orderId;
    const { result, events } = s.cancelReplace(
      ALICE,
      id,
      { account: ALICE, side: 'buy', price: 450_000n, size: 10n * C },
      false,
    );
    expect(result.status).toBe('SUCCESS');
    expect(result.cancel).toMatchObject({ status: 'CANCELLED', orderIds: [id] });
    expect(result.replacement).toMatchObject({ status: 'ACCEPTED', reason: '' });
    expect(events.map((e) => e.type)).toEqual(['cancel', 'order']);
    expect(bal(ALICE)).toEqual({ free: 995_500_000n, pending: 4_500_000n });
  });

  it("SUCCESS when only the cancelled order's reservation makes room", () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 2000n * C }).result.orderId;
    expect(bal(ALICE).free).toBe(0n);
    const { result } = s.cancelReplace(
      ALICE,
      id,
      { account: ALICE, side: 'buy', price: 400_000n, size: 2500n * C },
      true,
    );
    expect(result.status).toBe('SUCCESS');
    expect(bal(ALICE)).toEqual({ free: 0n, pending: 1000n * C });
  });

  it('side mismatch: REPLACEMENT_FAILED, cancel not committed, order kept', () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: C }).result.orderId;
    const { result, events } = s.cancelReplace(
      ALICE,
      id,
      { account: ALICE, side: 'sell', price: 600_000n, size: C },
      false,
    );
    expect(result.status).toBe('REPLACEMENT_FAILED');
    expect(result.cancel.status).toBe('CANCEL_NOT_COMMITTED');
    expect(result.replacement).toMatchObject({
      status: 'REJECTED',
      reason: 'INVALID_ORDER',
      error: { code: 'REPLACEMENT_SIDE_MISMATCH' },
    });
    expect(events).toEqual([]);
    expect(s.engine.accountOrders(ALICE, ASSET, EPOCH).buys.map((o) => o.id)).toEqual([id]);
  });

  it('allOrNothing + failing replacement: REPLACEMENT_FAILED, the order keeps its place', () => {
    const id = s.order({ account: ALICE, side: 'sell', price: 600_000n, size: C }).result.orderId;
    const later = s.order({ account: BOB, side: 'sell', price: 600_000n, size: C }).result.orderId;
    const { result, events } = s.cancelReplace(
      ALICE,
      id,
      { account: ALICE, side: 'sell', price: 550_000n, size: 10_000n * C },
      true,
    );
    expect(result).toMatchObject({
      status: 'REPLACEMENT_FAILED',
      cancel: { status: 'CANCEL_NOT_COMMITTED', orderIds: [] },
    });
    expect(result.replacement).toMatchObject({ status: 'REJECTED', reason: 'MARGIN' });
    expect(events).toEqual([]);
    expect(s.engine.l2(ASSET, EPOCH).asks[0]?.orders.map((o) => o.id)).toEqual([id, later]);
  });

  it('no allOrNothing + failing replacement: CANCEL_COMMITTED_REPLACEMENT_FAILED', () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: C }).result.orderId;
    s.order({ account: BOB, side: 'sell', price: 500_000n, size: C });
    const { result, events } = s.cancelReplace(
      ALICE,
      id,
      { account: ALICE, side: 'buy', price: 500_000n, size: C, tif: 'ALO' },
      false,
    );
    expect(result).toMatchObject({
      status: 'CANCEL_COMMITTED_REPLACEMENT_FAILED',
      cancel: { status: 'CANCELLED', orderIds: [id] },
    });
    expect(result.replacement).toMatchObject({ status: 'REJECTED', reason: 'ALO' });
    expect(events.map((e) => e.type)).toEqual(['cancel']);
    expect(bal(ALICE)).toEqual({ free: 1000n * C, pending: 0n });
  });

  it('missing target or zero hash: CANCEL_FAILED and no replacement', () => {
    const r1 = s.cancelReplace(
      ALICE,
      hexId(999),
      { account: ALICE, side: 'buy', price: 400_000n, size: C },
      false,
    ).result;
    expect(r1).toMatchObject({
      status: 'CANCEL_FAILED',
      cancel: { status: 'CANCEL_FAILED' },
      replacement: null,
      error: { code: 'ORDER_NOT_FOUND' },
    });
    const r2 = s.cancelReplace(
      ALICE,
      `0x${'0'.repeat(64)}`,
      { account: ALICE, side: 'buy', price: 400_000n, size: C },
      false,
    ).result;
    expect(r2).toMatchObject({ status: 'CANCEL_FAILED', error: { code: 'CANCEL_REPLACE_CANCEL_ALL_NOT_SUPPORTED' } });
    expect(s.engine.accountOrders(ALICE, ASSET, EPOCH).buys).toEqual([]);
  });
});
