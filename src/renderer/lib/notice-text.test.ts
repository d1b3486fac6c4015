import { describe, expect, it } from 'vitest';
import type { FillView, OrderResult } from '../../shared/bridge';
import { cancelText, fillText, orderText, replaceText, resolutionText } from './notice-text';

const id = `0x${'1'.repeat(64)}`;
const base: OrderResult = { orderId: id, status: 'FILLED', reason: '', side: 'buy', price: '625000', filled: '0', remaining: '0', cancelled: '0', fillPrice: null, fillPriceIsLimit: false };

describe('order notices', () => {
  it('says what happened in one sentence', () => {
    expect(orderText({ ...base, status: 'FILLED', filled: '10000000' })).toBe('Bought 10 at 62.5¢');
    expect(orderText({ ...base, status: 'REJECTED', reason: 'MARGIN' })).toBe('Rejected: not enough collateral (MARGIN)');
    // A reason we do not know is the exchange's text: quoted, labelled, cleaned of invisible characters.
    expect(orderText({ ...base, status: 'REJECTED', reason: 'Call\u202e support "now"' })).toBe('Rejected: The exchange said: "Call support \'now\'".');
    // What the fill traded at, when known: exact, or only its limit ("at or better than").
    const filled = { ...base, status: 'FILLED' as const, filled: '10000000' };
    expect(orderText({ ...filled, fillPrice: '450000' })).toBe('Bought 10 at 45¢');
    expect(orderText({ ...filled, side: 'sell', price: '1000', fillPrice: '1000', fillPriceIsLimit: true })).toBe('Sold 10 at or better than 0.1¢');
    expect(orderText({ ...filled, filled: '2500000', price: '455000', fillPrice: '455000' })).toBe('Bought 2.5 at 45.5¢');
  });

  it('says what rests, what was cancelled and why', () => {
    expect(orderText({ ...base, status: 'ACCEPTED', price: '400000', remaining: '3000000' })).toBe('Buy 3 at 40¢ is resting');
    expect(orderText({ ...base, status: 'ACCEPTED', side: 'sell', price: '50000', remaining: '1000000' })).toBe('Sell 1 at 5¢ is resting');
    expect(orderText({ ...base, status: 'PARTIALLY_FILLED', filled: '2000000', remaining: '3000000', fillPrice: '620000' })).toBe('Bought 2 at 62¢; 3 resting');
    expect(orderText({ ...base, status: 'CANCELLED', filled: '1000000', cancelled: '4000000', fillPrice: '600000' })).toBe('Bought 1 at 60¢; the rest (4) was cancelled');
    expect(orderText({ ...base, status: 'CANCELLED', reason: 'IOC\u200b' })).toBe('Nothing filled at 62.5¢: the order was cancelled (IOC)');
    expect(orderText({ ...base, status: 'CANCELLED' })).toBe('Nothing filled at 62.5¢: the order was cancelled');
  });

  it('counts cancels and says when one did not take', () => {
    expect(cancelText({ status: 'CANCELLED', orderIds: [id] })).toBe('Cancelled 1 order');
    expect(cancelText({ status: 'CANCELLED', orderIds: [id, id] })).toBe('Cancelled 2 orders');
    expect(cancelText({ status: 'CANCEL_FAILED', orderIds: [] })).toBe('Cancel failed: the order was no longer open');
    expect(cancelText({ status: 'CANCEL_NOT_COMMITTED', orderIds: [] })).toBe('The cancel was not committed; check the order again');
  });

  it('words a replacement from its order', () => {
    const replacement = { ...base, status: 'ACCEPTED' as const, price: '410000', remaining: '2000000' };
    expect(replaceText({ status: 'SUCCESS', replacement, duplicate: false })).toBe('Replaced: Buy 2 at 41¢ is resting');
    expect(replaceText({ status: 'SUCCESS', replacement: null, duplicate: true })).toBe('The replacement had already been processed.');
    expect(replaceText({ status: 'CANCEL_FAILED', replacement: null, duplicate: false })).toBe('Not replaced: the order was no longer open');
    expect(replaceText({ status: 'CANCEL_COMMITTED_REPLACEMENT_FAILED', replacement: { ...replacement, status: 'REJECTED', reason: 'MARGIN' }, duplicate: false })).toBe(
      'The order was cancelled but the replacement failed: Rejected: not enough collateral (MARGIN)',
    );
  });
});

describe('event notices', () => {
  const fill: FillView = { assetId: '1', epoch: '3', orderId: id, side: 'buy', price: '400000', size: '3000000', liquidity: 'maker', at: 0 };

  it('a fill of a resting order names the market, the contracts and the price', () => {
    expect(fillText(fill, 'BTC 5m #3')).toBe('BTC 5m #3: bought 3 Up contracts at 40¢ (your resting order filled).');
    expect(fillText({ ...fill, side: 'sell', size: '1000000', price: '625000' }, 'BTC 5m #3')).toBe('BTC 5m #3: sold 1 Up contract at 62.5¢ (your resting order filled).');
  });

  it('a resolution says who won and which epoch trades now', () => {
    const r = { assetId: '1', epoch: '3', strike: '1', resolutionPrice: '2', upWon: true, resolvedAt: 0, txId: null, currentEpoch: '4' };
    expect(resolutionText(r, 'BTC 1m #3')).toBe('BTC 1m #3 resolved Up; #4 is trading.');
    expect(resolutionText({ ...r, upWon: false }, 'BTC 1m #3')).toBe('BTC 1m #3 resolved Down; #4 is trading.');
  });
});
