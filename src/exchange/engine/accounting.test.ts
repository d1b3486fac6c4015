import { beforeEach, describe, expect, it } from 'vitest';
import { mulDiv } from './accounting';
import { checkInvariants } from './invariants';
import { ALICE, ASSET, BOB, CAROL, EPOCH, Script, STRIKE } from './testkit';

const C = 1_000_000n;
let s: Script;

const free = (who: string) => s.engine.balance(who).balance;
const pos = (who: string) => s.engine.position(who, ASSET, EPOCH);

/** `who` trades `size` at `price` against CAROL (a resting maker), `side` being `who`'s side. */
function trade(who: string, side: 'buy' | 'sell', price: bigint, size: bigint) {
  s.order({ account: CAROL, side: side === 'buy' ? 'sell' : 'buy', price, size });
  const r = s.order({ account: who, side, price, size }).result;
  expect(r.status).toBe('FILLED');
  expect(checkInvariants(s.engine)).toEqual([]);
}

beforeEach(() => {
  s = new Script();
  s.market();
  for (const who of [ALICE, BOB, CAROL]) s.credit(who, 1000n * C);
});

describe('mulDiv', () => {
  it('floors exactly, also beyond 2^53', () => {
    expect(mulDiv(7, 3, 2)).toBe(10);
    expect(mulDiv(10, 0, 3)).toBe(0);
    expect(mulDiv(9_000_000_000_000, 999_999, 1_000_000)).toBe(Number((9_000_000_000_000n * 999_999n) / 1_000_000n));
  });
});

describe('positions', () => {
  it('open: the buyer pays the price, the seller 1e6 − price, the pool holds the complete sets', () => {
    s.order({ account: BOB, side: 'sell', price: 400_000n, size: 10n * C });
    s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 10n * C });
    expect(pos(ALICE)).toMatchObject({
      net: 10n * C,
      size: 10n * C,
      margin: 4n * C,
      avgEntryPrice: 400_000n,
      bSide: false,
      realisedPnl: 0n,
    });
    expect(pos(BOB)).toMatchObject({
      net: -10n * C,
      size: 10n * C,
      margin: 6n * C,
      avgEntryPrice: 600_000n,
      bSide: true,
      side: true,
    });
    expect(free(ALICE)).toBe(996n * C);
    expect(free(BOB)).toBe(994n * C);
    expect(s.engine.totals()).toMatchObject({ positionCollateral: 10n * C, credited: 3000n * C });
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('add, reduce with profit, flip, and merge back to flat', () => {
    trade(ALICE, 'buy', 400_000n, 10n * C); // long 10 @ .40
    trade(ALICE, 'buy', 600_000n, 10n * C); // long 20, cost 10
    expect(pos(ALICE)).toMatchObject({ net: 20n * C, margin: 10n * C, avgEntryPrice: 500_000n });

    trade(ALICE, 'sell', 700_000n, 5n * C); // close 5: proceeds 3.5, cost removed 2.5
    expect(pos(ALICE)).toMatchObject({
      net: 15n * C,
      margin: 7_500_000n,
      realisedPnl: 1_000_000n,
      pnl: 1_000_000n,
      pSide: false,
    });
    expect(free(ALICE)).toBe(1000n * C - 10n * C + 3_500_000n);

    trade(ALICE, 'sell', 400_000n, 20n * C); // close 15 at .40 (loss 1.5), open short 5 paying .60 each
    expect(pos(ALICE)).toMatchObject({
      net: -5n * C,
      margin: 3n * C,
      realisedPnl: -500_000n,
      pnl: 500_000n,
      pSide: true,
      bSide: true,
    });
    expect(free(ALICE)).toBe(1000n * C - 10n * C + 3_500_000n + 6n * C - 3n * C);

    trade(ALICE, 'buy', 300_000n, 5n * C); // close the short: receives 1e6 − .30 = .70 each
    expect(pos(ALICE)).toMatchObject({ net: 0n, margin: 0n, realisedPnl: 0n });
    expect(free(ALICE)).toBe(1000n * C);
  });

  it('merging a long and a short between two accounts shrinks the pool', () => {
    trade(ALICE, 'buy', 400_000n, 10n * C); // ALICE long 10 vs CAROL short 10
    s.order({ account: CAROL, side: 'buy', price: 500_000n, size: 10n * C }); // CAROL closes her short
    s.order({ account: ALICE, side: 'sell', price: 500_000n, size: 10n * C }); // ALICE closes her long
    expect(pos(ALICE).net).toBe(0n);
    expect(pos(CAROL).net).toBe(0n);
    expect(s.engine.totals().positionCollateral).toBe(0n);
    expect(free(ALICE)).toBe(1001n * C); // bought at .40, sold at .50
    expect(free(CAROL)).toBe(999n * C);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('a reducing order reserves the position instead of collateral', () => {
    trade(ALICE, 'buy', 400_000n, 10n * C);
    const before = free(ALICE);
    const id = s.order({ account: ALICE, side: 'sell', price: 700_000n, size: 10n * C }).result.orderId;
    expect(s.engine.balance(ALICE).pending).toBe(0n);
    expect(free(ALICE)).toBe(before);
    expect(s.engine.ledgerOrders(ASSET, EPOCH, ALICE)[0]).toMatchObject({
      id,
      reservedPosition: 10n * C,
      reservedMargin: 0n,
      reservedSize: 0n,
    });
    // Beyond the position, collateral again: 5 more at 1e6 − .70.
    s.order({ account: ALICE, side: 'sell', price: 700_000n, size: 5n * C });
    expect(s.engine.balance(ALICE).pending).toBe(1_500_000n);
    s.cancel(ALICE, id);
    expect(pos(ALICE).reserved).toBe(0n);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('when an unreserved order closes reserved units, the reserving order switches to collateral', () => {
    trade(ALICE, 'buy', 500_000n, 10n * C); // long 10
    const x = s.order({ account: ALICE, side: 'sell', price: 900_000n, size: 8n * C }).result.orderId; // reserves 8
    s.order({ account: ALICE, side: 'sell', price: 600_000n, size: 5n * C }); // reserves 2, collateral for 3
    expect(s.engine.balance(ALICE).pending).toBe(1_200_000n);
    s.order({ account: BOB, side: 'buy', price: 600_000n, size: 5n * C }); // fills the .60 sell: long 10 → 5
    expect(pos(ALICE).net).toBe(5n * C);
    const lx = s.engine.ledgerOrders(ASSET, EPOCH, ALICE).find((o) => o.id === x);
    expect(lx).toMatchObject({ reservedPosition: 5n * C, reservedMargin: 300_000n });
    expect(s.engine.balance(ALICE).pending).toBe(300_000n);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('cancel, fill and resolve release every reservation', () => {
    const id = s.order({ account: ALICE, side: 'buy', price: 300_000n, size: 10n * C }).result.orderId;
    s.order({ account: ALICE, side: 'sell', price: 800_000n, size: 10n * C });
    expect(s.engine.balance(ALICE).pending).toBe(5n * C);
    s.cancel(ALICE, id);
    expect(s.engine.balance(ALICE).pending).toBe(2n * C);
    const { events } = s.resolve(STRIKE);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'resolution', data: { price: STRIKE.toString() } });
    expect(s.engine.balance(ALICE)).toMatchObject({ balance: 1000n * C, pending: 0n });
    expect(s.engine.l2(ASSET, EPOCH)).toMatchObject({ bids: [], asks: [] });
    expect(checkInvariants(s.engine)).toEqual([]);
  });
});

describe('claims', () => {
  beforeEach(() => {
    s.order({ account: BOB, side: 'sell', price: 400_000n, size: 10n * C });
    s.order({ account: ALICE, side: 'buy', price: 400_000n, size: 10n * C });
  });

  it('fails before resolution', () => {
    expect(s.claim(ALICE).result).toMatchObject({ status: 'CLAIM_FAILED', error: { code: 'EPOCH_NOT_RESOLVED' } });
    expect(() => s.engine.claimable(ALICE, ASSET, EPOCH)).toThrow(/not resolved/);
  });

  it('Up wins at price == strike: the long gets 1e6 per contract once, the short nothing', () => {
    s.resolve(STRIKE);
    expect(s.engine.market(ASSET, EPOCH)).toMatchObject({ resolved: true, upWins: true });
    expect(s.engine.claimable(ALICE, ASSET, EPOCH)).toBe(10n * C);
    expect(s.engine.claimable(BOB, ASSET, EPOCH)).toBe(0n);
    expect(s.claim(ALICE).result).toMatchObject({ status: 'CLAIMED', amount: 10n * C });
    expect(free(ALICE)).toBe(1006n * C);
    expect(pos(ALICE)).toMatchObject({ net: 0n, margin: 0n, realisedPnl: 6n * C, claimed: true });
    expect(s.claim(ALICE).result).toMatchObject({ status: 'CLAIM_FAILED', error: { code: 'ALREADY_CLAIMED' } });
    expect(s.claim(BOB).result).toMatchObject({ status: 'CLAIM_FAILED', error: { code: 'NO_CLAIMABLE_AMOUNT' } });
    expect(free(BOB)).toBe(994n * C);
    expect(s.engine.totals().positionCollateral).toBe(0n);
    expect(checkInvariants(s.engine)).toEqual([]);
  });

  it('Down wins below strike: the short is paid', () => {
    s.resolve(STRIKE - 1n);
    expect(s.claim(ALICE).result.error?.code).toBe('NO_CLAIMABLE_AMOUNT');
    expect(s.claim(BOB).result).toMatchObject({ status: 'CLAIMED', amount: 10n * C });
    expect(free(BOB)).toBe(1004n * C);
    expect(s.resolve(STRIKE).result).toMatchObject({ status: 'FAIL', error: { code: 'ALREADY_RESOLVED' } });
    expect(checkInvariants(s.engine)).toEqual([]);
  });
});

describe('funds', () => {
  it('credit is idempotent by deposit index', () => {
    const cmd = { type: 'credit', owner: ALICE, amount: 5n * C, index: 424242n, time: s.tick() } as const;
    expect(s.engine.apply(cmd).result.status).toBe('CREDITED');
    expect(s.engine.apply(cmd).result.status).toBe('DUPLICATE');
    expect(free(ALICE)).toBe(1005n * C);
    expect(s.engine.apply({ ...cmd, index: 1n << 70n, amount: 0n }).result.status).toBe('REJECTED');
  });

  it('withdraw debits the free balance into the payout queue; paid leaves the ledger', () => {
    s.order({ account: ALICE, side: 'buy', price: 500_000n, size: 1000n * C }); // 500 pending
    expect(s.withdraw(ALICE, 600n * C).result).toMatchObject({
      status: 'WITHDRAWAL_FAILED',
      error: { code: 'INSUFFICIENT_LEDGER_BALANCE' },
    });
    const w = s.withdraw(ALICE, 500n * C).result;
    expect(w.status).toBe('WITHDRAWN');
    expect(free(ALICE)).toBe(0n);
    expect(s.engine.pendingPayouts()).toMatchObject([{ id: w.id, account: ALICE, amount: 500n * C, paid: false }]);
    expect(s.engine.totals()).toMatchObject({ queuedWithdrawals: 500n * C, paidOut: 0n });
    expect(checkInvariants(s.engine)).toEqual([]);
    expect(s.markPaid(w.id).result.status).toBe('PAID');
    expect(s.markPaid(w.id).result).toMatchObject({ status: 'FAIL', error: { code: 'ALREADY_PAID' } });
    expect(s.engine.pendingPayouts()).toEqual([]);
    expect(s.engine.withdrawals(ALICE)[0]).toMatchObject({ paid: true });
    expect(s.engine.totals()).toMatchObject({ queuedWithdrawals: 0n, paidOut: 500n * C });
    expect(checkInvariants(s.engine)).toEqual([]);
  });
});
