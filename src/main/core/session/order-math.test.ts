import { describe, expect, it } from 'vitest';
import { averagePrice, markPrice, parseTicket, quoteOf, unrealisedPnl } from './order-math';
import { orderSummary } from './order-text';

describe('order math', () => {
  it('quotes with the protocol margin rules', () => {
    expect(quoteOf(parseTicket({ side: 'buy', price: '62.5', size: '10' }))).toEqual({
      price: '625000',
      size: '10000000',
      cost: '6250000',
      payoutIfRight: '10000000',
      maxLoss: '6250000',
    });
    expect(quoteOf(parseTicket({ side: 'sell', price: '62.5', size: '10' })).cost).toBe('3750000');
  });

  it('refuses prices off the tick with the exchange sentence', () => {
    expect(() => parseTicket({ side: 'buy', price: '62.55', size: '1' })).toThrow(/price|Price/);
  });

  it('derives average price, mark and unrealised P&L', () => {
    expect(averagePrice(10_000_000n, 6_250_000n, false)).toBe(625_000n);
    expect(averagePrice(10_000_000n, 3_750_000n, true)).toBe(625_000n);
    expect(averagePrice(0n, 0n, false)).toBeNull();
    expect(markPrice(600_000n, 700_000n, 1n)).toBe(650_000n);
    expect(markPrice(null, 700_000n, 500_000n)).toBe(500_000n);
    expect(unrealisedPnl(10_000_000n, 625_000n, 650_000n, false)).toBe(250_000n);
    expect(unrealisedPnl(10_000_000n, 625_000n, 650_000n, true)).toBe(-250_000n);
  });

  it('says what happened in one sentence', () => {
    const base = { orderId: `0x${'1'.repeat(64)}`, reason: '', cancelled: '0' };
    expect(orderSummary({ ...base, status: 'FILLED', filled: '10000000', remaining: '0' }, false, 625_000n)).toBe('Bought 10 at 62.5¢');
    expect(orderSummary({ ...base, status: 'REJECTED', reason: 'MARGIN', filled: '0', remaining: '0' }, false, 625_000n)).toBe(
      'Rejected: not enough collateral (MARGIN)',
    );
    // A reason we do not know is the exchange's text: quoted, labelled, cleaned of invisible characters.
    expect(orderSummary({ ...base, status: 'REJECTED', reason: 'Call\u202e support "now"', filled: '0', remaining: '0' }, false, 625_000n)).toBe(
      'Rejected: The exchange said: "Call support \'now\'".',
    );
    // What the fill traded at, when known: exact, or only its limit ("at or better than").
    const filled = { ...base, status: 'FILLED' as const, filled: '10000000', remaining: '0' };
    expect(orderSummary(filled, false, 625_000n, { price: 450_000n, atOrBetter: false })).toBe('Bought 10 at 45¢');
    expect(orderSummary(filled, true, 1_000n, { price: 1_000n, atOrBetter: true })).toBe('Sold 10 at or better than 0.1¢');
  });
});
