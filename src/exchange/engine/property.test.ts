// Randomised command sequences: after every step the invariants hold, results are well-formed, the event feed
// reproduces the book, and replaying the recorded commands gives the same state hash.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZERO_HASH } from '../../shared/protocol/constants';
import { BookMirror, comparableSnapshot } from './book-mirror';
import { Engine } from './engine';
import { checkInvariants } from './invariants';
import { ALICE, ASSET, BOB, CAROL, DAVE, EPOCH, Script, STRIKE } from './testkit';
import type { Hex, MarketEvent, NewOrderResult, TifName } from './types';
import { TIF_NAMES } from './types';

const ACCOUNTS = [ALICE, BOB, CAROL, DAVE];
const EPOCHS = [EPOCH, 1n, 2n];
const C = 1_000_000n;

const acct = fc.integer({ min: 0, max: 3 });
const market = fc.integer({ min: 0, max: 2 });
// Mostly around the mid so orders cross and rest; sometimes at the extremes of the price range.
const tick = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 490, max: 510 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, 2, 998, 999) },
);
const lots = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 50 }) },
  { weight: 1, arbitrary: fc.integer({ min: 51, max: 3000 }) },
);
const tif = fc.integer({ min: 0, max: 3 });

const op = fc.oneof(
  {
    weight: 30,
    arbitrary: fc.record({
      k: fc.constant('order' as const),
      a: acct,
      m: market,
      sell: fc.boolean(),
      t: tick,
      l: lots,
      tif,
    }),
  },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('cancel' as const), a: acct, m: market, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), a: acct, m: market }) },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('replace' as const),
      a: acct,
      m: market,
      pick: fc.nat(),
      t: tick,
      l: lots,
      tif,
      flip: fc.boolean(),
      aon: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('credit' as const), a: acct, amount: fc.integer({ min: 1, max: 200 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('withdraw' as const), a: acct, amount: fc.integer({ min: 1, max: 100 }) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('pay' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('resolve' as const), m: market, up: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('claim' as const), a: acct, m: market }) },
);

const ALLOWED: Record<TifName, string[]> = {
  GTC: ['ACCEPTED/', 'PARTIALLY_FILLED/', 'FILLED/'],
  IOC: ['FILLED/', 'PARTIALLY_FILLED/IOC', 'CANCELLED/IOC'],
  FOK: ['FILLED/', 'CANCELLED/FOK'],
  ALO: ['ACCEPTED/'],
};
const REJECTIONS = ['REJECTED/MARGIN', 'REJECTED/INVALID_ORDER', 'REJECTED/MARKET_RESOLVED', 'REJECTED/ALO'];

/** Outcomes seen across all runs, to prove the generator reaches them. */
const seen = new Set<string>();

function checkOrderResult(r: NewOrderResult, size: bigint, tifName: TifName) {
  expect(r.filled + r.remaining + r.cancelled).toBe(size);
  const combo = `${r.status}/${r.reason}`;
  seen.add(`${tifName} ${combo}`);
  expect([
    ...ALLOWED[tifName],
    ...(tifName === 'ALO' ? REJECTIONS : REJECTIONS.filter((x) => x !== 'REJECTED/ALO')),
  ]).toContain(combo);
  if (r.status === 'ACCEPTED') expect(r.filled).toBe(0n);
  if (r.status === 'FILLED') expect(r.filled).toBe(size);
}

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function runScenario(ops: Op[]): Script {
  const s = new Script();
  for (const e of EPOCHS) s.market(ASSET, e);
  for (const a of ACCOUNTS) s.credit(a, 100n * C);
  const mirrors = EPOCHS.map((e) => new BookMirror(s.engine.l2(ASSET, e, 5000)));
  const orderIds: Hex[] = [];
  const withdrawalIds: Hex[] = [];
  const feed = (events: MarketEvent[]) => {
    for (const ev of events) mirrors[Number(ev.data.epoch)]?.apply(ev);
  };

  for (const o of ops) {
    switch (o.k) {
      case 'order': {
        const size = BigInt(o.l) * 10_000n;
        const tifName = TIF_NAMES[o.tif] as TifName;
        const out = s.order({
          account: ACCOUNTS[o.a] as string,
          side: o.sell ? 'sell' : 'buy',
          price: BigInt(o.t) * 1000n,
          size,
          tif: tifName,
          epoch: EPOCHS[o.m],
        });
        checkOrderResult(out.result, size, tifName);
        orderIds.push(out.result.orderId);
        feed(out.events);
        break;
      }
      case 'cancel': {
        if (orderIds.length === 0) break;
        feed(s.cancel(ACCOUNTS[o.a] as string, orderIds[o.pick % orderIds.length] as Hex, ASSET, EPOCHS[o.m]).events);
        break;
      }
      case 'cancelAll':
        feed(s.cancel(ACCOUNTS[o.a] as string, ZERO_HASH as Hex, ASSET, EPOCHS[o.m]).events);
        break;
      case 'replace': {
        if (orderIds.length === 0) break;
        const account = ACCOUNTS[o.a] as string;
        // Usually one of the account's own resting orders in that market; otherwise any id (a failing target).
        const own = s.engine.ledgerOrders(ASSET, EPOCHS[o.m] ?? EPOCH, account);
        const mine = own[o.pick % Math.max(1, own.length)];
        const fallback = orderIds[o.pick % orderIds.length] as Hex;
        const target = mine?.id ?? fallback;
        const side = mine?.side ?? false;
        const size = BigInt(o.l) * 10_000n;
        const tifName = TIF_NAMES[o.tif] as TifName;
        const out = s.cancelReplace(
          account,
          target,
          {
            epoch: EPOCHS[o.m],
            account,
            side: side !== o.flip ? 'sell' : 'buy',
            price: BigInt(o.t) * 1000n,
            size,
            tif: tifName,
          },
          o.aon,
        );
        const r = out.result;
        seen.add(`replace ${r.status}`);
        if (r.replacement !== null) checkOrderResult(r.replacement, size, tifName);
        if (r.status === 'SUCCESS') expect(r.cancel.status).toBe('CANCELLED');
        if (r.status === 'REPLACEMENT_FAILED') expect(out.events).toEqual([]);
        if (r.status === 'CANCEL_FAILED') expect(r.replacement).toBeNull();
        if (r.replacement !== null) orderIds.push(r.replacement.orderId);
        feed(out.events);
        break;
      }
      case 'credit':
        s.credit(ACCOUNTS[o.a] as string, BigInt(o.amount) * C);
        break;
      case 'withdraw': {
        const r = s.withdraw(ACCOUNTS[o.a] as string, BigInt(o.amount) * C).result;
        if (r.status === 'WITHDRAWN') withdrawalIds.push(r.id);
        break;
      }
      case 'pay':
        if (withdrawalIds.length > 0) s.markPaid(withdrawalIds[o.pick % withdrawalIds.length] as Hex);
        break;
      case 'resolve':
        feed(s.resolve(o.up ? STRIKE : STRIKE - 1n, ASSET, EPOCHS[o.m]).events);
        break;
      case 'claim':
        seen.add(`claim ${s.claim(ACCOUNTS[o.a] as string, ASSET, EPOCHS[o.m]).result.status}`);
        break;
    }
    expect(checkInvariants(s.engine)).toEqual([]);
    for (const [i, e] of EPOCHS.entries()) {
      expect((mirrors[i] as BookMirror).comparable()).toEqual(comparableSnapshot(s.engine.l2(ASSET, e, 5000)));
    }
  }
  return s;
}

function replay(s: Script): Engine {
  const e = new Engine();
  for (const cmd of s.log) e.apply(cmd);
  return e;
}

describe('random command sequences', () => {
  it('keep every invariant, a consistent feed and replay determinism', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 250, size: 'max' }), (ops) => {
        const s = runScenario(ops);
        expect(replay(s).stateHash()).toBe(s.engine.stateHash());
      }),
      { numRuns: 50, seed: 20260301 },
    );
    const expected = [
      ...['ACCEPTED/', 'PARTIALLY_FILLED/', 'FILLED/', 'REJECTED/MARGIN', 'REJECTED/MARKET_RESOLVED'].map(
        (x) => `GTC ${x}`,
      ),
      ...['FILLED/', 'PARTIALLY_FILLED/IOC', 'CANCELLED/IOC'].map((x) => `IOC ${x}`),
      ...['FILLED/', 'CANCELLED/FOK'].map((x) => `FOK ${x}`),
      ...['ACCEPTED/', 'REJECTED/ALO'].map((x) => `ALO ${x}`),
      ...['SUCCESS', 'CANCEL_FAILED', 'REPLACEMENT_FAILED', 'CANCEL_COMMITTED_REPLACEMENT_FAILED'].map(
        (x) => `replace ${x}`,
      ),
      'claim CLAIMED',
      'claim CLAIM_FAILED',
    ];
    expect([...seen].filter((x) => expected.includes(x)).sort()).toEqual(expected.sort());
  });

  it('different histories give different hashes', () => {
    const a = new Script();
    a.market();
    a.credit(ALICE, C);
    const b = new Script();
    b.market();
    b.credit(ALICE, 2n * C);
    expect(a.engine.stateHash()).not.toBe(b.engine.stateHash());
    expect(replay(a).stateHash()).toBe(a.engine.stateHash());
  });
});
