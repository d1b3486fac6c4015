import { describe, expect, it } from 'vitest';
import { cancelNotice, plan, type LedgerLook, type WatchedOrder } from './ledger-watch';

const C = 10_000n; // a cent in price units
const N = 1_000_000n; // a contract
const D = 1_000_000n; // a dollar

let next = 0;
const order = (o: Partial<WatchedOrder>): WatchedOrder => ({
  id: `0x${(next++).toString(16).padStart(64, '0')}`,
  assetId: 1n,
  epoch: 7n,
  sell: false,
  price: 50n * C,
  size: 10n * N,
  placedAt: 1_000,
  ...o,
});
const look = (l: Partial<LedgerLook>): LedgerLook => ({
  orders: [],
  inventory: () => 0n,
  fair: () => 50n * C,
  band: 15n * C,
  budget: { loss: 0n, limit: 100n * D },
  reserved: 0n,
  ...l,
});

describe('the risk ledger between orders', () => {
  it('cancels a resting order that fair value left outside the band, on either side', () => {
    const bid = order({ price: 50n * C });
    const ask = order({ sell: true, price: 52n * C });
    // Fair fell to 30¢: the bid at 50¢ is 20¢ above it; the ask at 52¢ is still fine to rest.
    expect(plan(look({ orders: [bid, ask], fair: () => 30n * C })).map((c) => [c.order.id, c.why])).toEqual([
      [bid.id, 'band'],
    ]);
    // Fair rose to 70¢: now the ask is 18¢ under it.
    expect(plan(look({ orders: [bid, ask], fair: () => 70n * C })).map((c) => c.order.id)).toEqual([ask.id]);
    // Inside the band: nothing.
    expect(plan(look({ orders: [bid, ask], fair: () => 60n * C }))).toEqual([]);
  });

  it('cancels orders that add risk, newest first, until the worst case fits the limit again', () => {
    // Fair 40¢, band 15¢: each bid at 54¢ for 10 gives $1.40 away now, and $5.40 if fair fell to 0
    // before main could cancel it (an oracle jump past the band): that is what each counts.
    const older = order({ price: 54n * C, size: 10n * N, placedAt: 1 });
    const newer = order({ price: 54n * C, size: 10n * N, placedAt: 2 });
    const elsewhere = order({ price: 54n * C, size: 10n * N, placedAt: null });
    const l = look({
      orders: [older, newer, elsewhere],
      fair: () => 40n * C,
      budget: { loss: 90n * D, limit: 100n * D },
    });
    // $90 lost + 3 × $5.40 open = $106.20: two must go ($95.40 then), the one placed elsewhere (unknown time) first.
    expect(plan(l).map((c) => [c.order.id, c.why])).toEqual([
      [elsewhere.id, 'budget'],
      [newer.id, 'budget'],
    ]);
    // Orders on their way count too: with $5 reserved, all three go ($95 + $5.40 > $100).
    expect(plan({ ...l, reserved: 5n * D }).map((c) => c.order.id)).toEqual([elsewhere.id, newer.id, older.id]);
    // And an order on its way that may rest counts with its market, as if it rested.
    const onWay = { assetId: 1n, epoch: 7n, sell: false, price: 54n * C, size: 9n * N };
    expect(plan({ ...l, onTheirWay: [onWay] }).map((c) => c.order.id)).toEqual([elsewhere.id, newer.id, older.id]);
    // One with the same terms as a resting order has landed (its path has not released it yet): once.
    const landed = { ...onWay, size: 10n * N };
    expect(plan({ ...l, onTheirWay: [landed] }).map((c) => c.order.id)).toEqual([elsewhere.id, newer.id]);
  });

  it('below the limit never cancels a close, nor an order whose market is no safer without it; at the limit cancels all', () => {
    // Long 10 on market 2: the ask closing it stays.
    const closing = order({ assetId: 2n, sell: true, price: 45n * C, size: 10n * N, placedAt: 7 });
    // Market 1: an ask that would give $40 away if fair rose to $1, and a bid that would give $3 away
    // if it fell to 0. Fair cannot do both: the market counts $40, and the bid adds nothing to it.
    const quiet = order({ price: 30n * C, size: 10n * N, placedAt: 6 });
    const ask = order({ sell: true, price: 60n * C, size: 100n * N, placedAt: 5 });
    const l = look({
      orders: [closing, quiet, ask],
      inventory: (assetId) => (assetId === 2n ? 10n * N : 0n),
      fair: () => 40n * C,
      budget: { loss: 95n * D, limit: 100n * D },
    });
    expect(plan(l).map((c) => [c.order.id, c.why])).toEqual([[ask.id, 'budget']]);
    // Once the market has taken today's loss past the limit, nothing rests, the close included: a
    // close resting at fair is taken stale when the oracle jumps the position's way.
    const spent = plan({ ...l, budget: { loss: 120n * D, limit: 100n * D } });
    expect(spent.map((c) => c.why)).toEqual(['spent', 'spent', 'spent']);
    expect(cancelNotice(spent[0]!, 'BTC 5m #12', 15n * C, { limit: 100n * D })).toMatch(
      /^Daily loss limit reached: cancelled your ask 10 @ 45¢ on BTC 5m #12\. At the limit nothing rests/,
    );
  });

  it('counts an order with no fair value at its worst, and does not ask twice for one being cancelled', () => {
    const blind = order({ price: 60n * C, size: 100n * N, placedAt: 3 });
    const l = look({ orders: [blind], fair: () => null, budget: { loss: 50n * D, limit: 100n * D } });
    // $50 lost + $60 it could lose (no fair value) = $110.
    expect(plan(l).map((c) => c.why)).toEqual(['budget']);
    expect(plan(l, new Set([blind.id]))).toEqual([]);
    // Before today's baseline there is no budget to break; the band still protects.
    expect(plan({ ...l, budget: null })).toEqual([]);
  });

  it('says what it cancelled and why, in the words of the order rows', () => {
    const c = { order: order({ price: 50n * C }), why: 'band' as const, fair: 30n * C };
    expect(cancelNotice(c, 'BTC 5m #12', 15n * C, null)).toBe(
      'Quote protection cancelled your bid 10 @ 50¢ on BTC 5m #12: fair value moved to 30.0¢, more than your 15¢ band away.',
    );
    expect(cancelNotice({ ...c, why: 'budget' }, 'BTC 5m #12', 15n * C, { limit: 100n * D })).toMatch(
      /^Daily loss limit: cancelled your bid 10 @ 50¢ on BTC 5m #12 \(newest first\).*\$100\.00 limit\. Positions stay yours to close\.$/,
    );
  });
});
