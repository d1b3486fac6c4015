import { get } from 'svelte/store';
import { describe, expect, it } from 'vitest';
import type { AccountView, OrderHistoryEntry, OrderResult, OrderTicket } from '../../shared/bridge';
import {
  answeredLevels,
  OwnOrderEcho,
  pendingAt,
  pendingLevels,
  REJECTED_SHOWN_MS,
  RESTING_ECHO_MS,
} from './own-orders';

const ticket = (over: Partial<OrderTicket> = {}): OrderTicket => ({
  assetId: '7',
  epoch: '3',
  side: 'buy',
  price: '40',
  size: '2',
  timeInForce: 'GTC',
  signAs: 'master',
  ...over,
});
const id = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const entry = (n: number, over: Partial<OrderHistoryEntry> = {}): OrderHistoryEntry => ({
  assetId: '7',
  epoch: '3',
  orderId: id(n),
  side: 'buy',
  price: '400000',
  size: '2000000',
  filled: '0',
  outcome: 'open',
  reason: '',
  timeInForce: 'GTC',
  signedBy: 'master',
  placedAt: 1,
  updatedAt: 1,
  ...over,
});
const account = (ids: string[]): AccountView =>
  ({ openOrders: ids.map((orderId) => ({ orderId })) }) as unknown as AccountView;

describe('own orders on screen at once', () => {
  it('shows an order as sending when it is sent, resting when main has the answer, and leaves it to the account view', () => {
    let now = 1_000;
    const echo = new OwnOrderEcho(() => now);
    const key = echo.sending(ticket());
    expect(get(echo.orders).map((p) => [p.state, p.price, p.size])).toEqual([['sending', '400000', '2000000']]);
    // The answer, as main's order-history event (before its account re-read): resting, with its id.
    echo.answered([entry(1)]);
    expect(get(echo.orders).map((p) => [p.state, p.orderId])).toEqual([['resting', id(1)]]);
    // The call returns later: nothing changes; the account view then lists it, and the echo goes.
    echo.settled(key, { orderId: id(1), status: 'ACCEPTED' } as OrderResult);
    expect(get(echo.orders)).toHaveLength(1);
    echo.account(account([id(1)]));
    expect(get(echo.orders)).toEqual([]);
    // A resting echo the account never lists (filled meanwhile) does not stay.
    echo.sending(ticket());
    echo.answered([entry(2)]);
    now += RESTING_ECHO_MS;
    echo.account(account([]));
    expect(get(echo.orders)).toEqual([]);
  });

  it('shows a rejection with its reason for a while; a fill or a cancel leaves nothing resting', () => {
    let now = 1_000;
    const echo = new OwnOrderEcho(() => now);
    echo.sending(ticket());
    echo.sending(ticket({ price: '55', size: '1' }));
    echo.answered([
      entry(3, { outcome: 'rejected', reason: 'not enough collateral' }),
      entry(4, { price: '550000', size: '1000000', outcome: 'filled', filled: '1000000' }),
    ]);
    expect(get(echo.orders).map((p) => [p.state, p.reason])).toEqual([['rejected', 'not enough collateral']]);
    now += REJECTED_SHOWN_MS;
    echo.account(account([]));
    expect(get(echo.orders)).toEqual([]);
  });

  it('drops an order main refused before sending, and never echoes a ticket that does not parse', () => {
    const echo = new OwnOrderEcho();
    const key = echo.sending(ticket());
    echo.settled(key, null);
    expect(get(echo.orders)).toEqual([]);
    expect(echo.sending(ticket({ price: 'abc' }))).toBeNull();
    expect(get(echo.orders)).toEqual([]);
  });

  it('adds what is on its way to the ladder row the book would show it in', () => {
    const echo = new OwnOrderEcho();
    echo.sending(ticket({ price: '40.3' }));
    echo.sending(ticket({ side: 'sell', price: '60.1', size: '1' }));
    const levels = pendingLevels(get(echo.orders), '7', '3');
    expect(pendingAt(levels.bids, 403_000n, 1_000n, 'bid')).toBe(2_000_000n);
    // Grouped by 1¢: a bid rounds down, an ask up.
    expect(pendingAt(levels.bids, 400_000n, 10_000n, 'bid')).toBe(2_000_000n);
    expect(pendingAt(levels.asks, 610_000n, 10_000n, 'ask')).toBe(1_000_000n);
    expect(pendingLevels(get(echo.orders), '7', '4').bids.size).toBe(0);
  });

  it('counts an order as resting (●) from the answer on, and as on its way (◌) only until then', () => {
    const echo = new OwnOrderEcho();
    echo.sending(ticket());
    echo.sending(ticket({ price: '41' }));
    echo.answered([entry(1)]);
    // 40¢ answered as resting, 41¢ still on its way.
    const waiting = pendingLevels(get(echo.orders), '7', '3');
    expect([...waiting.bids]).toEqual([['410000', 2_000_000n]]);
    const resting = answeredLevels(get(echo.orders), [], '7', '3');
    expect([...resting.bids]).toEqual([['400000', 2_000_000n]]);
    // Once the account view lists it the echo goes, and the account's open order carries it on: no gap, no double.
    const open = { assetId: '7', epoch: '3', side: 'buy' as const, price: '400000', remaining: '2000000' };
    echo.account({ openOrders: [{ ...open, orderId: id(1) }] } as unknown as AccountView);
    expect([...answeredLevels(get(echo.orders), [open], '7', '3').bids]).toEqual([['400000', 2_000_000n]]);
    expect(answeredLevels(get(echo.orders), [open], '7', '4').bids.size).toBe(0);
  });
});
