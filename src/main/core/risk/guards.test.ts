import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS } from '../../../shared/settings-schema';
import {
  breachesOf,
  edgeCost,
  lossBreach,
  openingSize,
  restingRisk,
  type AccountRisk,
  type CheckedOrder,
  type RestingOrder,
} from './guards';
import { parseLimits } from './limits';

const C = 10_000n; // one cent in price units
const N = 1_000_000n; // one contract in size units
const D = 1_000_000n; // one dollar in amount units
const limits = parseLimits(DEFAULT_RISK_LIMITS);
const order = (o: Partial<CheckedOrder>): CheckedOrder => ({
  assetId: 1n,
  epoch: 7n,
  sell: false,
  price: 50n * C,
  size: 10n * N,
  mayRest: true,
  ...o,
});
/** What the account holds: its resting orders as a list, counted for each order by `restingRisk`. */
type Holding = Omit<AccountRisk, 'sameSide' | 'openOrders' | 'restingCost'> & { resting: RestingOrder[] };
const account = (a: Partial<Holding> = {}): Holding => ({
  inventory: 0n,
  resting: [],
  lossToday: 0n,
  lossLimit: 100n * D,
  ...a,
});
const fairAt = (cents: bigint | null): bigint | null => (cents === null ? null : cents * C);
/** The account as the guards see it for one order, every market at fair `fair`. */
const riskFor = (o: CheckedOrder, a: Holding, fair: bigint | null): AccountRisk => ({
  ...a,
  ...restingRisk(o, a.resting, () => fair),
});
const check = (o: CheckedOrder, a: Holding | null, fair: bigint | null, sent = 0) =>
  breachesOf({ order: o, fair, limits, account: a && riskFor(o, a, fair), sentInLastMinute: sent });
const loss = (o: CheckedOrder, a: Holding, fair: bigint | null) => lossBreach(o, riskFor(o, a, fair), fair);
/** The breach codes, with fair value in cents. */
const codes = (o: CheckedOrder, a: Holding | null, cents: bigint | null, sent = 0): string[] =>
  check(o, a, fairAt(cents), sent).map((b) => b.code);

describe('price band around fair value', () => {
  it('refuses a buy above fair + band and a sell below fair − band, with the numbers', () => {
    const [buy] = check(order({ price: 99n * C }), account(), fairAt(50n));
    expect(buy).toMatchObject({ code: 'risk.price_band', overridable: true });
    expect(buy!.sentence).toBe('99¢ is 49.0¢ above fair value 50.0¢; your band is 15¢.');
    expect(codes(order({ sell: true, price: 1n * C }), account(), 50n)).toContain('risk.price_band');
  });

  it('lets the band edge and better prices through, and checks nothing without a fair value', () => {
    expect(codes(order({ price: 65n * C }), account(), 50n)).toEqual([]);
    expect(codes(order({ sell: true, price: 35n * C }), account(), 50n)).toEqual([]);
    expect(codes(order({ price: 10n * C }), account(), 50n)).toEqual([]);
    expect(codes(order({ price: 99n * C, size: 1n * N }), account(), null)).not.toContain('risk.price_band');
  });
});

describe('size, cost, open orders and rate', () => {
  it('refuses an order costing more than the largest order cost, counting only the opening part', () => {
    expect(codes(order({ price: 50n * C, size: 1001n * N }), account(), 50n)).toContain('risk.order_cost');
    // Selling 1,001 against a long of 1,001 opens nothing and costs nothing.
    expect(codes(order({ sell: true, size: 1001n * N }), account({ inventory: 1001n * N }), 50n)).not.toContain(
      'risk.order_cost',
    );
  });

  it('counts resting orders on the same side toward the largest position', () => {
    const a = account({
      inventory: 1500n * N,
      resting: [{ assetId: 1n, epoch: 7n, sell: false, price: 40n * C, size: 450n * N }],
    });
    expect(codes(order({ size: 40n * N }), a, 50n)).toEqual([]);
    expect(codes(order({ size: 60n * N }), a, 50n)).toContain('risk.position');
    // Reducing is never refused for size.
    expect(codes(order({ sell: true, size: 1500n * N }), a, 50n)).not.toContain('risk.position');
  });

  it('refuses a resting order past the open-order limit and any order past the rate, without override', () => {
    const full = account({
      resting: Array.from({ length: 50 }, () => ({ assetId: 2n, epoch: 1n, sell: false, price: C, size: N })),
    });
    const [open] = check(order({}), full, fairAt(50n));
    expect(open).toMatchObject({ code: 'risk.open_orders', overridable: false });
    expect(codes(order({ mayRest: false }), full, 50n)).not.toContain('risk.open_orders');
    const [rate] = check(order({}), null, fairAt(50n), 120);
    expect(rate).toMatchObject({ code: 'risk.order_rate', overridable: false });
    expect(codes(order({}), null, 50n, 119)).toEqual([]);
  });
});

describe('daily loss limit', () => {
  it('counts what the order and every open order would cost against fair value', () => {
    expect(edgeCost({ sell: false, price: 65n * C, size: 50n * N }, 50n * C)).toBe(7_500_000n);
    expect(edgeCost({ sell: true, price: 35n * C, size: 50n * N }, 50n * C)).toBe(7_500_000n);
    expect(edgeCost({ sell: false, price: 40n * C, size: 50n * N }, 50n * C)).toBe(0n);
    // With no fair value, the most the order can lose.
    expect(edgeCost({ sell: true, price: 35n * C, size: 50n * N }, null)).toBe(32_500_000n);
    const resting = [{ assetId: 1n, epoch: 7n, sell: false, price: 64n * C, size: 500n * N }]; // $70 at 50¢ fair
    const a = account({ lossToday: 20n * D, resting });
    expect(loss(order({ price: 60n * C, size: 100n * N }), a, fairAt(50n))).toBeNull(); // 20 + 70 + 10 = 100
    const over = loss(order({ price: 60n * C, size: 101n * N }), a, fairAt(50n));
    expect(over?.code).toBe('risk.daily_loss');
    expect(over?.sentence).toContain('come to $100.10, over your daily limit of $100.00');
  });

  it('at the limit refuses anything that adds risk, and lets reductions at or better than fair go', () => {
    const spent = account({ inventory: 100n * N, lossToday: 100n * D });
    expect(loss(order({ price: 40n * C, size: 1n * N }), spent, fairAt(50n))?.sentence).toMatch(
      /^today's loss of \$100.00 has reached your daily limit of \$100.00/,
    );
    expect(loss(order({ sell: true, price: 50n * C, size: 100n * N }), spent, fairAt(50n))).toBeNull();
    expect(loss(order({ sell: true, price: 49n * C, size: 100n * N }), spent, fairAt(50n))?.code).toBe(
      'risk.daily_loss',
    );
    // Below the limit a reduction may spend what is left.
    const near = account({ inventory: 100n * N, lossToday: 99n * D });
    expect(loss(order({ sell: true, price: 49n * C, size: 100n * N }), near, fairAt(50n))).toBeNull();
  });

  it('knows which part of an order opens a position', () => {
    expect(openingSize({ sell: true, size: 10n }, 4n)).toBe(6n);
    expect(openingSize({ sell: false, size: 10n }, -12n)).toBe(0n);
    expect(openingSize({ sell: false, size: 10n }, 5n)).toBe(10n);
  });
});
