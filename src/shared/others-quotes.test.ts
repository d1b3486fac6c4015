import { describe, expect, it } from 'vitest';
import { othersQuotes } from './others-quotes';

const level = (cents: number, size: number, ownSize = 0) => ({
  price: BigInt(cents * 10_000),
  size: BigInt(size * 1_000_000),
  ownSize: BigInt(ownSize * 1_000_000),
});

describe('othersQuotes', () => {
  it("skips the account's own orders: a lone 2¢/98¢ pair of one's own is 'only your orders', not 50%", () => {
    expect(othersQuotes([level(2, 5, 5)], [level(98, 5, 5)])).toEqual({ bid: null, ask: null, ownOnly: true });
  });

  it("reads others' best price past own levels, and keeps a level shared with others", () => {
    const q = othersQuotes([level(60, 3, 3), level(55, 4)], [level(70, 6, 2), level(75, 1)]);
    expect(q).toEqual({ bid: 550_000n, ask: 700_000n, ownOnly: false });
  });

  it('says nothing of own orders when there are none at all', () => {
    expect(othersQuotes([], [])).toEqual({ bid: null, ask: null, ownOnly: false });
    expect(othersQuotes([level(40, 1)], [])).toEqual({ bid: 400_000n, ask: null, ownOnly: false });
  });
});
