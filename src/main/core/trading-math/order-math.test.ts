import { describe, expect, it } from 'vitest';
import { parseTicket, quoteOf } from './order-math';

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

  it('quotes the part that closes the position as proceeds, with no collateral and no payout', () => {
    // Long 15: selling 15 at 1¢ closes it for $0.15; it costs nothing and can lose nothing more.
    expect(quoteOf(parseTicket({ side: 'sell', price: '1', size: '15' }), 15_000_000n)).toEqual({
      price: '10000',
      size: '15000000',
      cost: '0',
      payoutIfRight: '0',
      maxLoss: '0',
      closing: '15000000',
      proceeds: '150000',
    });
    // Selling 20 against a long of 15: 15 close, 5 open a short at 99¢ of collateral each.
    expect(quoteOf(parseTicket({ side: 'sell', price: '1', size: '20' }), 15_000_000n)).toMatchObject({
      cost: '4950000',
      payoutIfRight: '5000000',
      closing: '15000000',
      proceeds: '150000',
    });
    // Short 4: a buy at 60¢ closes it for 4 × 40¢; a buy while long closes nothing.
    expect(quoteOf(parseTicket({ side: 'buy', price: '60', size: '4' }), -4_000_000n)).toMatchObject({
      cost: '0',
      closing: '4000000',
      proceeds: '1600000',
    });
    expect(quoteOf(parseTicket({ side: 'buy', price: '60', size: '4' }), 4_000_000n).closing).toBeUndefined();
  });

  it('refuses prices off the tick with the exchange sentence', () => {
    expect(() => parseTicket({ side: 'buy', price: '62.55', size: '1' })).toThrow(/price|Price/);
  });
});

describe('tickets as people type them', () => {
  it('"62.50" is 62.5¢ and "10.00" is 10 contracts', () => {
    expect(parseTicket({ side: 'buy', price: '62.50', size: '10.00' })).toEqual({
      sell: false,
      price: 625_000n,
      size: 10_000_000n,
    });
    expect(parseTicket({ side: 'buy', price: ' 62.5¢ ', size: '1.50' })).toEqual({
      sell: false,
      price: 625_000n,
      size: 1_500_000n,
    });
    expect(parseTicket({ side: 'buy', price: '7.', size: '1' }).price).toBe(70_000n);
    expect(parseTicket({ side: 'buy', price: '.5', size: '.5' })).toEqual({
      sell: false,
      price: 5_000n,
      size: 500_000n,
    });
  });
  it('names an empty field in plain words', () => {
    expect(() => parseTicket({ side: 'buy', price: '', size: '1' })).toThrow(/Enter a price in cents/);
    expect(() => parseTicket({ side: 'buy', price: '50', size: '  ' })).toThrow(/Enter a size/);
  });
  it('holds sizes to the exchange limits: at most 100,000 contracts in steps of 0.01', () => {
    expect(parseTicket({ side: 'buy', price: '50', size: '100000' }).size).toBe(100_000_000_000n);
    expect(() => parseTicket({ side: 'buy', price: '50', size: '100000.01' })).toThrow(
      'Size must be 0.01 to 100,000 contracts in steps of 0.01; "100000.01" is not one.',
    );
    expect(() => parseTicket({ side: 'buy', price: '50', size: '200000' })).toThrow(/100,000/);
    expect(() => parseTicket({ side: 'buy', price: '50', size: '0.001' })).toThrow(/steps of 0.01/);
    expect(() => parseTicket({ side: 'buy', price: '62.55', size: '1' })).toThrow(
      'Price must be 0.1¢ to 99.9¢ in steps of 0.1¢; "62.55" is not one.',
    );
  });
});
