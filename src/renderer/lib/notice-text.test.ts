import { describe, expect, it } from 'vitest';
import type { CloseResult, FillView, OrderResult, PayloadDescription, PendingRequestView } from '../../shared/bridge';
import {
  airgapSentText,
  cancelText,
  closeText,
  fillText,
  orderText,
  replaceText,
  resolutionText,
  sentNoticeLevel,
  signedFileSentText,
  tightenedNote,
} from './notice-text';

const id = `0x${'1'.repeat(64)}`;
const base: OrderResult = {
  orderId: id,
  status: 'FILLED',
  reason: '',
  side: 'buy',
  price: '625000',
  filled: '0',
  remaining: '0',
  cancelled: '0',
  fillPrice: null,
  fillPriceIsLimit: false,
};

describe('order notices', () => {
  it('says what happened in one sentence', () => {
    expect(orderText({ ...base, status: 'FILLED', filled: '10000000' })).toBe('Bought 10 at 62.5¢');
    expect(orderText({ ...base, status: 'REJECTED', reason: 'MARGIN' })).toBe('Rejected: not enough collateral');
    // A reason we do not know is the exchange's text: quoted, labelled, cleaned of invisible characters.
    expect(orderText({ ...base, status: 'REJECTED', reason: 'Call\u202e support "now"' })).toBe(
      'Rejected: The exchange said: "Call support \'now\'".',
    );
    // What the fill traded at, when known: exact, or only its limit ("at or better than").
    const filled = { ...base, status: 'FILLED' as const, filled: '10000000' };
    expect(orderText({ ...filled, fillPrice: '450000' })).toBe('Bought 10 at 45¢');
    expect(orderText({ ...filled, side: 'sell', price: '1000', fillPrice: '1000', fillPriceIsLimit: true })).toBe(
      'Sold 10 at or better than 0.1¢',
    );
    expect(orderText({ ...filled, filled: '2500000', price: '455000', fillPrice: '455000' })).toBe(
      'Bought 2.5 at 45.5¢',
    );
  });

  it('says what rests, what was cancelled and why', () => {
    expect(orderText({ ...base, status: 'ACCEPTED', price: '400000', remaining: '3000000' })).toBe(
      'Buy 3 at 40¢ is resting',
    );
    expect(orderText({ ...base, status: 'ACCEPTED', side: 'sell', price: '50000', remaining: '1000000' })).toBe(
      'Sell 1 at 5¢ is resting',
    );
    expect(
      orderText({ ...base, status: 'PARTIALLY_FILLED', filled: '2000000', remaining: '3000000', fillPrice: '620000' }),
    ).toBe('Bought 2 at 62¢; 3 resting');
    // An IOC that part filled rests nothing: not "0 resting"; an average reads to a tenth of a cent.
    expect(
      orderText({
        ...base,
        status: 'PARTIALLY_FILLED',
        filled: '7000000',
        remaining: '0',
        cancelled: '3000000',
        fillPrice: '498857',
      }),
    ).toBe('Bought 7 at 49.9¢; the rest (3) was cancelled');
    expect(
      orderText({ ...base, status: 'CANCELLED', filled: '1000000', cancelled: '4000000', fillPrice: '600000' }),
    ).toBe('Bought 1 at 60¢; the rest (4) was cancelled');
    expect(orderText({ ...base, status: 'CANCELLED', reason: 'IOC\u200b' })).toBe(
      'Nothing filled at 62.5¢: the order was cancelled (IOC)',
    );
    expect(orderText({ ...base, status: 'CANCELLED' })).toBe('Nothing filled at 62.5¢: the order was cancelled');
  });

  it('counts cancels and says when one did not take', () => {
    expect(cancelText({ status: 'CANCELLED', orderIds: [id] })).toBe('Cancelled 1 order');
    expect(cancelText({ status: 'CANCELLED', orderIds: [id, id] })).toBe('Cancelled 2 orders');
    expect(cancelText({ status: 'CANCEL_FAILED', orderIds: [] })).toBe('Cancel failed: the order was no longer open');
    expect(cancelText({ status: 'CANCEL_NOT_COMMITTED', orderIds: [] })).toBe(
      'The cancel was not committed; check the order again',
    );
  });

  it('words a replacement from its order', () => {
    const replacement = { ...base, status: 'ACCEPTED' as const, price: '410000', remaining: '2000000' };
    expect(replaceText({ status: 'SUCCESS', replacement, duplicate: false })).toBe('Replaced: Buy 2 at 41¢ is resting');
    expect(replaceText({ status: 'SUCCESS', replacement: null, duplicate: true })).toBe(
      'The replacement had already been processed.',
    );
    expect(replaceText({ status: 'CANCEL_FAILED', replacement: null, duplicate: false })).toBe(
      'Not replaced: the order was no longer open',
    );
    expect(
      replaceText({
        status: 'CANCEL_COMMITTED_REPLACEMENT_FAILED',
        replacement: { ...replacement, status: 'REJECTED', reason: 'MARGIN' },
        duplicate: false,
      }),
    ).toBe('The order was cancelled but the replacement failed: Rejected: not enough collateral');
  });
});

describe('close notices', () => {
  const none: CloseResult = {
    status: 'NOTHING_TO_CLOSE',
    orderId: null,
    side: null,
    requested: '0',
    filled: '0',
    remaining: '0',
    averagePrice: null,
    worstPrice: null,
    pricesAreLimits: false,
    bestPrice: null,
    limitPrice: null,
    maxSlippage: '50000',
    reason: '',
    positionChanged: false,
  };
  const sent: CloseResult = {
    ...none,
    orderId: id,
    side: 'sell',
    requested: '20000000',
    bestPrice: '600000',
    limitPrice: '550000',
  };
  const name = 'BTC 5m #3';

  it('says what filled, at what average and worst price, and what is left', () => {
    expect(
      closeText(
        {
          ...sent,
          status: 'CLOSED',
          requested: '3500000',
          filled: '3500000',
          averagePrice: '420000',
          worstPrice: '420000',
        },
        name,
      ),
    ).toBe('Closed BTC 5m #3: sold 3.5 contracts at 42¢ average (worst 42¢); the position is closed.');
    expect(
      closeText(
        {
          ...sent,
          status: 'PARTIALLY_CLOSED',
          filled: '5000000',
          remaining: '15000000',
          averagePrice: '600000',
          worstPrice: '600000',
        },
        name,
      ),
    ).toBe(
      'Partly closed BTC 5m #3, 15 contracts still open: sold 5 contracts at 60¢ average (worst 60¢), stopped at the 55¢ limit (best 60¢ − 5¢ slippage).',
    );
    // An average to a tenth of a cent, like every price shown; "or better" when the prices are only the limit; a short closes by buying.
    expect(
      closeText(
        {
          ...sent,
          status: 'CLOSED',
          side: 'buy',
          filled: '3000000',
          remaining: '0',
          averagePrice: '490943',
          worstPrice: '500000',
          pricesAreLimits: true,
        },
        name,
      ),
    ).toBe('Closed BTC 5m #3: bought 3 contracts at or better than 49.1¢ average (worst 50¢); the position is closed.');
  });

  it('says why nothing closed', () => {
    expect(closeText(none, name)).toBe('Nothing to close: no position in BTC 5m #3.');
    expect(closeText({ ...none, positionChanged: true }, name)).toBe(
      'Nothing to close: the position in BTC 5m #3 changed to flat before the order was sent.',
    );
    expect(closeText({ ...none, positionChanged: true, remaining: '-1000000' }, name)).toBe(
      'Nothing to close: the position in BTC 5m #3 changed to the other side before the order was sent.',
    );
    expect(closeText({ ...none, status: 'NO_LIQUIDITY', side: 'sell', remaining: '3000000' }, name)).toBe(
      'Nothing closed: no bids in BTC 5m #3 to close against; 3 contracts still open.',
    );
    expect(
      closeText({ ...sent, status: 'NOT_FILLED', side: 'buy', remaining: '-1000000', limitPrice: '650000' }, name),
    ).toBe(
      'Nothing closed in BTC 5m #3: no offers within the 65¢ limit (best 60¢ + 5¢ slippage); 1 contract still open.',
    );
    expect(closeText({ ...sent, status: 'REJECTED', reason: 'MARGIN', remaining: '2000000' }, name)).toBe(
      'Not closed: not enough collateral; 2 contracts still open in BTC 5m #3.',
    );
  });
});

describe('event notices', () => {
  const fill: FillView = {
    assetId: '1',
    epoch: '3',
    orderId: id,
    side: 'buy',
    price: '400000',
    size: '3000000',
    liquidity: 'maker',
    at: 0,
  };

  it('a fill of a resting order names the market, the contracts and the price', () => {
    expect(fillText(fill, 'BTC 5m #3')).toBe('BTC 5m #3: bought 3 Up contracts at 40¢ (your resting order filled).');
    expect(fillText({ ...fill, side: 'sell', size: '1000000', price: '625000' }, 'BTC 5m #3')).toBe(
      'BTC 5m #3: sold 1 Up contract at 62.5¢ (your resting order filled).',
    );
  });

  it('a resolution says who won and which epoch trades now', () => {
    const r = {
      assetId: '1',
      epoch: '3',
      strike: '1',
      resolutionPrice: '2',
      upWon: true,
      resolvedAt: 0,
      txId: null,
      currentEpoch: '4',
    };
    expect(resolutionText(r, 'BTC 1m #3')).toBe('BTC 1m #3 resolved Up; #4 is trading.');
    expect(resolutionText({ ...r, upWon: false }, 'BTC 1m #3')).toBe('BTC 1m #3 resolved Down; #4 is trading.');
  });
});

describe('notices of requests signed elsewhere, once sent', () => {
  it('name the request and its fingerprint, then the exchange’s answer, cleaned', () => {
    const request = { title: 'Withdrawal', fingerprint: 'MN2S-IF4E-F7RV-KEHQ-CZRJ' } as PendingRequestView;
    expect(airgapSentText(request, { status: 'WITHDRAWN' })).toBe(
      'Sent: Withdrawal, fingerprint MN2S-IF4E-F7RV-KEHQ-CZRJ. The exchange answered: accepted.',
    );
    expect(airgapSentText(request, { status: 'OK\u202e "x"' })).toBe(
      "Sent: Withdrawal, fingerprint MN2S-IF4E-F7RV-KEHQ-CZRJ. The exchange answered: OK 'x'.",
    );
  });

  it('a signed file says its first line, or that it was the file when nothing was read', () => {
    const described = { lines: ['Buy 10 contracts at 62.5¢ on BTC 5m epoch 12.', 'Nonce 1.'] } as PayloadDescription;
    expect(signedFileSentText(described, { status: 'ACCEPTED' })).toBe(
      'Sent: Buy 10 contracts at 62.5¢ on BTC 5m epoch 12. The exchange answered: resting.',
    );
    expect(signedFileSentText(null, { status: 'CANCELLED' })).toBe(
      'Sent: the signed file. The exchange answered: cancelled.',
    );
  });

  it('show as errors when the exchange failed or rejected them', () => {
    expect(sentNoticeLevel({ status: 'REJECTED' })).toBe('error');
    expect(sentNoticeLevel({ status: 'CANCEL_FAILED' })).toBe('error');
    expect(sentNoticeLevel({ status: 'WITHDRAWN' })).toBe('success');
    expect(sentNoticeLevel({ status: 'ACCEPTED' })).toBe('success');
  });
});

describe('tightenedNote', () => {
  it('says when main tightened a marketable limit, and to what, in words', () => {
    expect(tightenedNote({ price: '650000', tightenedFrom: '670000', tightenedBy: 'band' })).toBe(
      ' The limit was tightened from 67¢ to 65¢ to stay inside your price band around fair value.',
    );
    expect(tightenedNote({ price: '', tightenedFrom: '470000', tightenedBy: 'budget' }, '500000')).toBe(
      ' The limit was tightened from 47¢ to 50¢ to stay inside your daily loss budget.',
    );
    expect(tightenedNote({ price: '650000' })).toBe('');
  });
});
