import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountState, ExchangeHttpError, type Balance, type BookOrders, type ExchangePosition } from '../../../client';
import type { Address } from '../../../shared/protocol';
import { DEFAULT_RISK_LIMITS } from '../../../shared/settings-schema';
import { AccountFigures, type FiguresSource, type OrderFigures } from './account-figures';
import { equityAtFair, type HeldPosition } from './equity';
import { breachesOf, restingRisk, type CheckedOrder, type RestingOrder } from './guards';
import { parseLimits } from './limits';

const ACCOUNT = ('0x' + 'ab'.repeat(20)) as Address;
const ASSETS = [1n, 2n] as const;
const EPOCHS = [5n, 6n, 7n] as const;
const C = 10_000n;
const N = 1_000_000n;
const limits = parseLimits(DEFAULT_RISK_LIMITS);

type Order = { id: `0x${string}`; price: bigint; size: bigint };
type MarketState = { buys: Order[]; sells: Order[]; position: { inventory: bigint; margin: bigint } | null };

/** The exchange, the oracle and the epoch clock as the test sets them. */
class World {
  balance = { balance: 1_000n * N, pending: 0n };
  readonly markets = new Map<string, MarketState>();
  readonly fairs = new Map<string, bigint | null>();
  readonly current = new Map<bigint, bigint>();
  readonly resolved = new Map<string, bigint>();

  readonly reader = {
    getBalance: (account: Address): Promise<Balance> =>
      Promise.resolve({ account, ts: 1, balance: this.balance.balance, pending: this.balance.pending }),
    getBookOrders: (assetId: bigint, epoch: bigint): Promise<BookOrders> => {
      const m = this.markets.get(`${assetId}:${epoch}`);
      return Promise.resolve({
        assetId,
        epoch,
        seqId: 1n,
        ts: 1,
        buys: (m?.buys ?? []).map((o) => ({ ...o })),
        sells: (m?.sells ?? []).map((o) => ({ ...o })),
      });
    },
    getPosition: (account: Address, assetId: bigint, epoch: bigint): Promise<ExchangePosition> => {
      const p = this.markets.get(`${assetId}:${epoch}`)?.position;
      if (!p) return Promise.reject(new ExchangeHttpError(404, 'not_found', 'No position.', null, 'GET', '/position'));
      return Promise.resolve({
        account,
        assetId,
        epoch,
        ts: 1,
        size: p.inventory,
        inventory: p.inventory,
        margin: p.margin,
        realisedPnl: 0n,
      });
    },
  };

  /** Moved by every change of a fair value, an epoch's end or a settlement (the board's `valuation`). */
  stamp = 0;
  clock = 1_000;

  readonly source = (account: () => AccountState | null, stamped = false): FiguresSource => ({
    ...(stamped ? { freshness: { stamp: () => this.stamp, freshMs: 50, now: () => this.clock } } : {}),
    account,
    fair: (a, e) => this.fairs.get(`${a}:${e}`) ?? null,
    ended: (a, e) => {
      const current = this.current.get(a);
      if (current === undefined || e >= current) return null;
      return { resolvedFair: this.resolved.get(`${a}:${e}`) ?? null };
    },
  });
}

/** The figures recomputed in full from the account's state, the way the gate read them before they were kept. */
function recompute(
  account: AccountState,
  source: FiguresSource,
  o: { assetId: bigint; epoch: bigint; sell: boolean },
  replaces?: string,
): OrderFigures | null {
  const balance = account.balance;
  if (!balance) return null;
  const resting: RestingOrder[] = [];
  for (const b of account.orders.values())
    for (const [list, sell] of [
      [b.buys, false],
      [b.sells, true],
    ] as const)
      for (const r of list)
        if (r.id.toLowerCase() !== replaces?.toLowerCase())
          resting.push({ assetId: b.assetId, epoch: b.epoch, sell, price: r.price, size: r.size });
  const positions: HeldPosition[] = [];
  for (const p of account.positions.values())
    if (p && (p.inventory !== 0n || p.margin !== 0n))
      positions.push({ assetId: p.assetId, epoch: p.epoch, inventory: p.inventory, margin: p.margin });
  return {
    inventory: account.inventory(o.assetId, o.epoch),
    ...restingRisk(o, resting, source.fair, (a, e) => account.inventory(a, e)),
    equity: equityAtFair({
      available: balance.balance,
      locked: balance.pending,
      positions,
      fair: source.fair,
      ended: source.ended,
    }),
    fair: source.fair(o.assetId, o.epoch),
  };
}

const asset = fc.constantFrom(...ASSETS);
const epoch = fc.constantFrom(...EPOCHS);
const price = fc.bigInt({ min: 1n, max: 99n }).map((c) => c * C);
const size = fc.bigInt({ min: 1n, max: 3_000n }).map((n) => n * N);
/** Few ids, some in upper case, so an edit often names one that rests (in either case). */
const id = fc.constantFrom('a', 'b', 'c', 'd', '1', '2').map((c): `0x${string}` => `0x${c.repeat(64)}`);
const order = fc.record({ id, price, size });
const op = fc.oneof(
  fc.record({
    kind: fc.constant('market' as const),
    asset,
    epoch,
    buys: fc.array(order, { maxLength: 4 }),
    sells: fc.array(order, { maxLength: 4 }),
    position: fc.option(
      fc.record({
        inventory: fc.bigInt({ min: -3_000n * N, max: 3_000n * N }),
        margin: fc.bigInt({ min: 0n, max: 2_000n * N }),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('balance' as const),
    balance: fc.bigInt({ min: 0n, max: 5_000n * N }),
    pending: fc.bigInt({ min: 0n, max: 500n * N }),
  }),
  fc.record({ kind: fc.constant('fair' as const), asset, epoch, fair: fc.option(price) }),
  // Epoch ends and settlements come often, so positions in ended epochs are common.
  { arbitrary: fc.record({ kind: fc.constant('roll' as const), asset, epoch }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('resolve' as const), asset, epoch, upWon: fc.boolean() }), weight: 2 },
  fc.record({ kind: fc.constant('forget' as const), asset, epoch }),
  fc.record({
    kind: fc.constant('order' as const),
    asset,
    epoch,
    sell: fc.boolean(),
    price,
    size,
    mayRest: fc.boolean(),
    replaces: fc.option(
      fc.oneof(
        id,
        id.map((s) => `0x${s.slice(2).toUpperCase()}`),
      ),
    ),
  }),
);

/** The figures' numbers, without the function that reads other markets (compared as data). */
function data(f: OrderFigures | null): Omit<OrderFigures, 'market'> | null {
  if (!f) return f;
  const { market: _market, ...rest } = f;
  return rest;
}

describe('AccountFigures', () => {
  it.each([
    ['asking every market on each read', false],
    ['skipping the markets while the source says nothing moved since a refresh', true],
  ])(
    'equal a full recompute, and give the gate the same answer, after any sequence of account, order and price changes (%s)',
    async (_, stamped) => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(op, fc.boolean()), { maxLength: 40, size: 'max' }), async (steps) => {
          const world = new World();
          let figures: AccountFigures | null = null;
          // Whether the session's eager refresh runs on this change: a missed one may cost time, never a figure.
          let eager = true;
          const account = new AccountState({
            reader: world.reader,
            account: ACCOUNT,
            currentEpoch: () => undefined,
            onChange: () => void (eager && figures?.refresh()),
          });
          const source = world.source(() => account, stamped);
          figures = new AccountFigures(source);
          await account.refreshBalance();
          for (const [s, refreshNow] of steps) {
            eager = refreshNow;
            // Time passes between changes, sometimes past how long a refresh's prices stay as they were.
            world.clock += s.kind === 'order' ? 7 : 19;
            // The session's timer and tick hook refresh between orders too.
            if (refreshNow && s.kind !== 'order') figures.refresh();
            const key = 'asset' in s ? `${s.asset}:${s.epoch}` : '';
            switch (s.kind) {
              case 'market':
                world.markets.set(key, { buys: s.buys, sells: s.sells, position: s.position });
                await account.refresh(s.asset, s.epoch);
                break;
              case 'balance':
                world.balance = { balance: s.balance, pending: s.pending };
                await account.refreshBalance();
                break;
              case 'fair':
                world.fairs.set(key, s.fair);
                world.stamp++;
                break;
              case 'roll':
                world.current.set(s.asset, s.epoch);
                world.stamp++;
                break;
              case 'resolve':
                world.resolved.set(key, s.upWon ? 1_000_000n : 0n);
                world.stamp++;
                break;
              case 'forget':
                account.forgetEpochsBefore(s.asset, s.epoch);
                break;
              case 'order': {
                const o: CheckedOrder = {
                  assetId: s.asset,
                  epoch: s.epoch,
                  sell: s.sell,
                  price: s.price,
                  size: s.size,
                  mayRest: s.mayRest,
                };
                const replaces = s.replaces ?? undefined;
                const kept = figures.forOrder(o.assetId, o.epoch, o.sell, replaces);
                const fresh = recompute(account, source, o, replaces);
                expect(data(kept)).toEqual(fresh);
                // Hence the gate refuses exactly what a fresh recompute refuses.
                const fair = source.fair(o.assetId, o.epoch);
                const codes = (f: OrderFigures | null) =>
                  breachesOf({
                    order: o,
                    fair,
                    limits,
                    account: f && {
                      ...f,
                      reserved: 0n,
                      lossToday: f.equity < 900n * N ? 900n * N - f.equity : 0n,
                      lossLimit: 100n * N,
                    },
                    sentInLastMinute: 0,
                  }).map((b) => b.code);
                expect(codes(kept)).toEqual(codes(fresh));
                break;
              }
            }
          }
          // And after the last change, whatever it was.
          for (const a of ASSETS)
            for (const e of EPOCHS)
              for (const sell of [false, true])
                expect(data(figures.forOrder(a, e, sell))).toEqual(
                  recompute(account, source, { assetId: a, epoch: e, sell }),
                );
        }),
        { numRuns: 500 },
      );
    },
  );

  it('are none before the balance is read, and follow a newly selected account', async () => {
    const world = new World();
    let selected: AccountState | null = null;
    const figures = new AccountFigures(world.source(() => selected));
    expect(figures.forOrder(1n, 5n, false)).toBeNull();
    selected = new AccountState({ reader: world.reader, account: ACCOUNT, currentEpoch: () => undefined });
    expect(figures.forOrder(1n, 5n, false)).toBeNull();
    world.markets.set('1:5', {
      buys: [{ id: `0x${'1'.repeat(64)}`, price: 60n * C, size: 10n * N }],
      sells: [],
      position: null,
    });
    world.fairs.set('1:5', 50n * C);
    await selected.refresh(1n, 5n);
    expect(data(figures.forOrder(1n, 5n, false))).toEqual({
      inventory: 0n,
      sameSide: 10n * N,
      openOrders: 1,
      // 60¢ × 10 bid: $1 above fair 50¢ now, $6 if fair fell to 0 before it was cancelled.
      restingCost: 6n * N,
      here: { atFair: 1n * N, bids: 60n * C * 10n * N, asks: 0n },
      equity: 1_000n * N,
      fair: 50n * C,
    });
    // Another account, same numbers in its maps' places: its own figures, not the first one's.
    const other = new AccountState({ reader: world.reader, account: ACCOUNT, currentEpoch: () => undefined });
    world.markets.clear();
    await other.refresh(1n, 5n);
    selected = other;
    expect(figures.forOrder(1n, 5n, false)).toMatchObject({ sameSide: 0n, openOrders: 0, restingCost: 0n });
  });
});
