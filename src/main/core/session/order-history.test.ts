import { describe, expect, it } from 'vitest';
import type { OrderHistoryEntry } from '../../../shared/bridge';
import { OrderHistory, type PlacedOrder } from './order-history';

const id = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const order = (n: number, over: Partial<PlacedOrder> = {}): PlacedOrder => ({
  assetId: 7n,
  epoch: 3n,
  orderId: id(n),
  side: 'buy',
  price: 500_000n,
  size: 2_000_000n,
  timeInForce: 'GTC',
  signedBy: 'master',
  status: 'ACCEPTED',
  filled: 0n,
  reason: '',
  ...over,
});

describe('OrderHistory', () => {
  it('records outcomes, newest first, and reports each change', () => {
    const seen: OrderHistoryEntry[][] = [];
    let t = 1000;
    const h = new OrderHistory({ onChange: (e) => seen.push([...e]), now: () => t++ });
    h.placed(order(1));
    h.placed(order(2, { status: 'REJECTED', reason: 'not enough collateral (MARGIN)' }));
    h.placed(
      order(3, {
        status: 'CANCELLED',
        filled: 1_000_000n,
        timeInForce: 'IOC',
        reason: 'the unfilled rest of an IOC order',
      }),
    );
    h.placed(order(4, { status: 'FILLED', filled: 2_000_000n }));
    expect(h.list().map((e) => [e.orderId, e.outcome, e.filled])).toEqual([
      [id(4), 'filled', '2000000'],
      [id(3), 'cancelled', '1000000'],
      [id(2), 'rejected', '0'],
      [id(1), 'open', '0'],
    ]);
    expect(h.list()[2]!.reason).toBe('not enough collateral (MARGIN)');
    // A resting order fills in two parts; a cancel after that changes nothing.
    h.filled(id(1), 1_000_000n);
    expect(h.list()[3]).toMatchObject({ outcome: 'open', filled: '1000000' });
    h.filled(id(1).toUpperCase().replace('0X', '0x'), 1_000_000n);
    expect(h.list()[3]).toMatchObject({ outcome: 'filled', filled: '2000000' });
    h.cancelled([id(1)]);
    expect(h.list()[3]!.outcome).toBe('filled');
    expect(seen).toHaveLength(6);
  });

  it('marks open orders cancelled and ignores ids it never saw', () => {
    const h = new OrderHistory({ onChange: () => {} });
    h.placed(order(1));
    h.placed(order(2));
    h.cancelled([id(2), id(9)], 'cancelled with cancel all');
    expect(h.list().map((e) => e.outcome)).toEqual(['cancelled', 'open']);
    expect(h.list()[0]!.reason).toBe('cancelled with cancel all');
  });

  it('is bounded and keeps a resend as one entry', () => {
    const h = new OrderHistory({ onChange: () => {}, limit: 3 });
    for (let n = 1; n <= 5; n++) h.placed(order(n));
    h.placed(order(5));
    expect(h.list().map((e) => e.orderId)).toEqual([id(5), id(4), id(3)]);
  });
});
