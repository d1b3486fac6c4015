// A resolved epoch's book keeps no levels of its own: its sides become the one shared, frozen, empty
// pair (book.ts RESOLVED_SIDE), so an exchange whose markets roll every minute does not keep 2 × 1,001
// levels per epoch for good. Claims and reads still work after it.
import { describe, expect, it } from 'vitest';
import { clearBook, newBook, retireSides } from './book';
import { Engine } from './engine';
import { checkInvariants } from './invariants';
import { ALICE, ASSET, BOB, Script } from './testkit';

const C = 1_000_000n;

describe('retired books', () => {
  it('share one frozen pair of empty sides, equal to what clearBook leaves', () => {
    const a = newBook(1n, 0n, 1n, 60n);
    const b = newBook(1n, 1n, 1n, 120n);
    clearBook(a);
    const cleared = JSON.stringify(a.bids);
    retireSides(a);
    retireSides(b);
    expect(a.bids).toBe(b.bids);
    expect(a.asks).toBe(b.bids);
    expect(JSON.stringify(a.bids)).toBe(cleared);
    expect(Object.isFrozen(a.bids)).toBe(true);
    expect(Object.isFrozen(a.bids[500])).toBe(true);
    expect(() => a.bids[500]!.q.push(undefined as never)).toThrow(TypeError);
  });

  it('after resolution: orders refused, the winner claims, the book reads empty, invariants hold', () => {
    const s = new Script();
    s.market();
    s.credit(ALICE, 100n * C);
    s.credit(BOB, 100n * C);
    s.order({ account: BOB, side: 'sell', price: 400_000n, size: 10n * C });
    s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 5n * C });
    s.order({ account: ALICE, side: 'buy', price: 300_000n, size: 5n * C }); // still resting at resolution
    s.resolve(10n ** 12n); // Up wins
    expect(s.order({ account: ALICE, side: 'buy', price: 500_000n, size: C }).result.reason).toBe('MARKET_RESOLVED');
    expect(s.engine.l2(ASSET, 0n)).toMatchObject({ bids: [], asks: [] });
    expect(s.claim(ALICE).result).toMatchObject({ status: 'CLAIMED', amount: 5n * C });
    expect(checkInvariants(s.engine)).toEqual([]);
  });
});

describe('forgetResolvedDigests', () => {
  const play = (engine: Engine) => {
    const s = new Script(engine);
    s.market();
    s.credit(ALICE, 100n * C);
    s.credit(BOB, 100n * C);
    const sell = s.order({ account: BOB, side: 'sell', price: 400_000n, size: 10n * C }).result.orderId;
    const buy = s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 5n * C }).result.orderId;
    s.cancel(BOB, sell);
    const w = s.withdraw(ALICE, C).result.id;
    return { s, sell, buy, w };
  };

  it("forgets an epoch's order and cancel digests at its resolution, never a withdrawal's", () => {
    const { s, buy, w } = play(new Engine({ forgetResolvedDigests: true }));
    expect(s.engine.isProcessed(buy)).toBe(true);
    s.resolve(10n ** 12n);
    expect(s.engine.isProcessed(buy)).toBe(false);
    expect(s.engine.isProcessed(w)).toBe(true);
    // The replay is refused all the same: the epoch no longer trades.
    expect(s.order({ id: buy, account: ALICE, side: 'buy', price: 400_000n, size: 5n * C }).result).toMatchObject({
      status: 'REJECTED',
      reason: 'MARKET_RESOLVED',
    });
    expect(s.claim(ALICE).result).toMatchObject({ status: 'CLAIMED', amount: 5n * C });
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('keeps them by default, and a replay of the same commands reaches the same state either way', () => {
    const kept = play(new Engine());
    kept.s.resolve(10n ** 12n);
    expect(kept.s.engine.isProcessed(kept.buy)).toBe(true);
    for (const options of [{}, { forgetResolvedDigests: true }]) {
      const live = new Engine(options);
      const replayed = new Engine(options);
      for (const cmd of kept.s.log) live.apply(cmd);
      for (const cmd of kept.s.log) replayed.apply(cmd);
      expect(replayed.stateHash()).toBe(live.stateHash());
    }
  });
});
