import { describe, expect, it } from 'vitest';
import {
  centsInputToPrice,
  marketLabel,
  formatCountdown,
  formatDate,
  formatDistance,
  formatFairPrice,
  formatOracle,
  formatPrice,
  formatSignedUsd,
  formatSize,
  formatUsd,
  impliedProbability,
  fairDistance,
  formatEdge,
  formatContracts,
  pnlTone,
  priceToCentsInput,
  stepPrice,
} from './format';

describe('price formatting', () => {
  it('shows protocol prices in cents with one decimal', () => {
    expect(formatPrice('625000')).toBe('62.5¢');
    expect(formatPrice('1000')).toBe('0.1¢');
    expect(formatPrice('999000')).toBe('99.9¢');
    expect(formatPrice('500000')).toBe('50.0¢');
    expect(formatPrice(null)).toBe('—');
  });

  it('round-trips the ticket input', () => {
    expect(priceToCentsInput('625000')).toBe('62.5');
    expect(priceToCentsInput('620000')).toBe('62');
    expect(centsInputToPrice('62.5')).toBe(625000n);
    expect(centsInputToPrice('0.1')).toBe(1000n);
    expect(centsInputToPrice('.5')).toBe(5000n); // typed without its leading zero
    expect(centsInputToPrice('0')).toBeNull();
    expect(centsInputToPrice('100')).toBeNull();
    expect(centsInputToPrice('99.89')).toBeNull();
    // As the ticket reads a typed price (the same parse as main's): "62.50¢" is 62.5¢.
    expect(centsInputToPrice(' 62.50¢ ')).toBe(625000n);
  });

  it('steps by ticks inside the tradable range', () => {
    expect(stepPrice(625000n, 1)).toBe(626000n);
    expect(stepPrice(1000n, -1)).toBe(1000n);
    expect(stepPrice(999000n, 5)).toBe(999000n);
  });
});

describe('sizes and money', () => {
  it('shows sizes with up to two decimals', () => {
    expect(formatSize('10250000')).toBe('10.25');
    expect(formatSize('5000000')).toBe('5');
    expect(formatSize('1234500000')).toBe('1,234.5');
    expect(formatSize('10000')).toBe('0.01');
  });

  it('formats USD exactly, beyond float precision', () => {
    expect(formatUsd('1234567890')).toBe('$1,234.57');
    expect(formatUsd('0')).toBe('$0.00');
    expect(formatUsd('90071992547409930000001')).toBe('$90,071,992,547,409,930.00');
    expect(formatSignedUsd('-400000')).toBe('−$0.40');
    expect(formatSignedUsd('1200000')).toBe('+$1.20');
    expect(formatSignedUsd('4')).toBe('$0.00');
  });

  it('formats oracle prices and the distance to strike', () => {
    expect(formatOracle('65282497628')).toBe('$65,282.50');
    expect(formatOracle('500000')).toBe('$0.5000');
    expect(formatDistance('65282497628', '65000000000')).toEqual({ text: '▲ $282.50 0.43%', direction: 'up' });
    expect(formatDistance('49000000', '50000000').direction).toBe('down');
    expect(formatDistance(null, '1').text).toBe('—');
    // At the strike (just after the roll): words, not "· $0.0000"; a BTC-sized strike keeps cents.
    expect(formatDistance('65000000000', '65000000000')).toEqual({ text: 'at strike', direction: 'flat' });
    expect(formatDistance('65000004000', '65000000000')).toEqual({ text: 'at strike', direction: 'flat' });
    expect(formatDistance('64999500000', '65000000000')).toEqual({ text: '▼ $0.50 0.00%', direction: 'down' });
    // A strike under $1 keeps the oracle's four decimals.
    expect(formatDistance('512300', '500000')).toEqual({ text: '▲ $0.0123 2.46%', direction: 'up' });
  });
});

describe('market figures', () => {
  it('takes the implied probability from the mid; a missing side is "no quotes", not a stale last trade', () => {
    expect(impliedProbability('600000', '650000')).toBe('62.5%');
    expect(impliedProbability(null, '650000')).toBe('no quotes');
    expect(impliedProbability('350000', null)).toBe('no quotes');
    expect(impliedProbability(null, null)).toBe('no quotes');
    expect(impliedProbability(null, null, true)).toBe('only your orders');
  });

  it('says how far a price is from fair value, to the tenth of a cent', () => {
    expect(fairDistance(623_000n, '500000')).toEqual({ text: '12.3¢ above fair', direction: 'above' });
    expect(fairDistance('460000', '500000')).toEqual({ text: '4.0¢ below fair', direction: 'below' });
    expect(fairDistance(500_000n, '500000')).toEqual({ text: 'at fair', direction: 'at' });
    expect(fairDistance(500_000n, '500040')).toEqual({ text: 'at fair', direction: 'at' });
    expect(fairDistance(500_000n, null)).toBeNull();
    expect(fairDistance(null, '500000')).toBeNull();
  });

  it('shows the edge as fair − mid, signed, and nothing without fair or both sides', () => {
    expect(formatEdge('523000', '500000', '510000')).toEqual({ text: '+1.8¢', tone: 'up' });
    expect(formatEdge('480000', '500000', '510000')).toEqual({ text: '−2.5¢', tone: 'down' });
    expect(formatEdge('505000', '500000', '510000')).toEqual({ text: '0.0¢', tone: '' });
    // A mid on half a tick: 50.45¢ against fair 50.5¢ rounds to 0.1¢.
    expect(formatEdge('505000', '500000', '509000')).toEqual({ text: '+0.1¢', tone: 'up' });
    expect(formatEdge(null, '500000', '510000').text).toBe('—');
    expect(formatEdge('500000', null, '510000').text).toBe('—');
    expect(formatEdge('500000', '0', '510000').text).toBe('—');
  });

  it('counts down in minutes and seconds, rounded down (never more time than is left)', () => {
    expect(formatCountdown(299_999)).toBe('4:59');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(10_999)).toBe('0:10');
  });

  it('shows tenths in the last ten seconds and 0:00.0 from the end on', () => {
    expect(formatCountdown(9_999)).toBe('0:09.9');
    expect(formatCountdown(4_900)).toBe('0:04.9');
    expect(formatCountdown(800)).toBe('0:00.8');
    expect(formatCountdown(99)).toBe('0:00.0');
    expect(formatCountdown(0)).toBe('0:00.0');
    expect(formatCountdown(-5)).toBe('0:00.0');
  });
});

describe('empty sides', () => {
  it('treats a zero top-of-book price as no price', () => {
    expect(formatPrice('0')).toBe('—');
    expect(impliedProbability('0', '0')).toBe('no quotes');
    expect(impliedProbability('0', '650000')).toBe('no quotes');
  });
});

describe('marketLabel', () => {
  it('names a market by symbol, timeframe and epoch', () => {
    const markets = [{ assetId: '123', symbol: 'BTC', timeframe: '1m' }];
    expect(marketLabel(markets, '123', '3')).toBe('BTC 1m #3');
    expect(marketLabel(markets, '987654321987', '4')).toBe('98765432… #4');
  });
});

describe('units and tone', () => {
  it('says contracts', () => {
    expect(formatContracts('12000000')).toBe('12 contracts');
    expect(formatContracts('1000000')).toBe('1 contract');
    expect(formatContracts('500000')).toBe('0.5 contracts');
    expect(formatContracts(null)).toBe('—');
  });

  it('colours a P&L by what is shown: a loss that rounds to $0.00 is neither red nor "−$0.00"', () => {
    expect(pnlTone('-16110000')).toBe('down');
    expect(pnlTone('3800000')).toBe('up');
    expect(pnlTone('-4999')).toBe('');
    expect(formatSignedUsd('-4999')).toBe('$0.00');
    expect(pnlTone('-5000')).toBe('down');
    expect(formatSignedUsd('-5000')).toBe('−$0.01');
    expect(pnlTone('0')).toBe('');
    expect(pnlTone(null)).toBe('');
  });
});

describe('fair value', () => {
  it('shows 0 and 100 as values, never as missing (a quote of 0 is an empty side; a fair value of 0 is not)', () => {
    expect(formatFairPrice('0')).toBe('0.0¢');
    expect(formatFairPrice('1000000')).toBe('100.0¢');
    expect(formatFairPrice('623000')).toBe('62.3¢');
    expect(formatFairPrice(null)).toBe('—');
    expect(fairDistance(500_000n, '0')).toEqual({ text: '50.0¢ above fair', direction: 'above' });
    expect(formatEdge('1000000', '980000', '990000')).toEqual({ text: '+1.5¢', tone: 'up' });
  });
});

describe('dates', () => {
  it('reads a release date as people do', () => {
    expect(formatDate('2026-11-20T10:00:00.000Z')).toBe('20 Nov 2026');
  });
});
