import { describe, expect, it } from 'vitest';
import { parseTicket } from './order-math';
import { shortfallOf } from './order-funds';

const USD = 1_000_000n;

describe('shortfallOf', () => {
  it('refuses a buy that costs more than the free balance, with the shortfall', () => {
    // 10 at 62.5¢ costs $6.25; $5 free is $1.25 short.
    expect(shortfallOf(parseTicket({ side: 'buy', price: '62.5', size: '10' }), 5n * USD, 0n)).toEqual({
      need: 6_250_000n,
      free: 5n * USD,
      short: 1_250_000n,
    });
    expect(shortfallOf(parseTicket({ side: 'buy', price: '62.5', size: '10' }), 6_250_000n, 0n)).toBeNull();
  });
  it('a sell costs (1 − price) per contract', () => {
    expect(shortfallOf(parseTicket({ side: 'sell', price: '62.5', size: '10' }), 3n * USD, 0n)?.short).toBe(750_000n);
  });
  it('the part that closes a position needs no collateral', () => {
    // Long 10: selling 10 needs nothing, selling 12 needs the 2 that open a short.
    expect(shortfallOf(parseTicket({ side: 'sell', price: '50', size: '10' }), 0n, 10n * USD)).toBeNull();
    expect(shortfallOf(parseTicket({ side: 'sell', price: '50', size: '12' }), 0n, 10n * USD)?.need).toBe(1n * USD);
    // Short 4: buying 4 closes it.
    expect(shortfallOf(parseTicket({ side: 'buy', price: '30', size: '4' }), 0n, -4n * USD)).toBeNull();
    // A buy does not reduce a long.
    expect(shortfallOf(parseTicket({ side: 'buy', price: '30', size: '4' }), 0n, 4n * USD)?.need).toBe(1_200_000n);
  });
  it('says nothing while the balance is not known', () => {
    expect(shortfallOf(parseTicket({ side: 'buy', price: '99.9', size: '100000' }), null, 0n)).toBeNull();
  });
});
