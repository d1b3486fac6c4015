import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS } from '../../../shared/settings-schema';
import fc from 'fast-check';
import {
  breachesOf,
  breaksNone,
  everyBreach,
  ownCost,
  lossBreach,
  openingSize,
  restingRisk,
  type AccountRisk,
  type CheckedOrder,
  type RestingOrder,
} from './guards';
import { parseLimits } from './limits';
import { edgeCost } from './resting-worst';
import { orderMargin } from '../../../shared/protocol';

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
  reserved: 0n,
  lossToday: 0n,
  lossLimit: 100n * D,
  ...a,
});
const fairAt = (cents: bigint | null): bigint | null => (cents === null ? null : cents * C);
/** The account as the guards see it for one order, every market at fair `fair`. */
const riskFor = (o: CheckedOrder, a: Holding, fair: bigint | null): AccountRisk => ({
  ...a,
  ...restingRisk(
    o,
    a.resting,
    () => fair,
    (assetId, epoch) => (assetId === o.assetId && epoch === o.epoch ? a.inventory : 0n),
  ),
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
      // Room in the budget for the bids' worst case ($180 if fair fell to 0): only the position counts here.
      lossLimit: 1_000n * D,
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
  it('counts what the order and every open order could lose at worst: a market the worse of its two sides', () => {
    expect(edgeCost({ sell: false, price: 65n * C, size: 50n * N }, 50n * C)).toBe(7_500_000n);
    expect(edgeCost({ sell: true, price: 35n * C, size: 50n * N }, 50n * C)).toBe(7_500_000n);
    expect(edgeCost({ sell: false, price: 40n * C, size: 50n * N }, 50n * C)).toBe(0n);
    // With no fair value, the most the order can lose.
    expect(edgeCost({ sell: true, price: 35n * C, size: 50n * N }, null)).toBe(32_500_000n);
    // A quote 40¢ / 60¢ around fair 50¢: nothing given away now, but if fair fell to 0 the bid would be
    // taken for $40, and if it rose to $1 the ask for $40. Not both at once: the market counts $40.
    const resting = [
      { assetId: 1n, epoch: 7n, sell: false, price: 40n * C, size: 100n * N },
      { assetId: 1n, epoch: 7n, sell: true, price: 60n * C, size: 100n * N },
    ];
    const a = account({ lossToday: 20n * D, resting });
    expect(restingRisk(order({}), resting, () => 50n * C).restingCost).toBe(40n * D);
    // An order that cannot rest counts what it gives away at once: 20 + 40 + 40 = 100.
    expect(loss(order({ price: 60n * C, size: 400n * N, mayRest: false }), a, fairAt(50n))).toBeNull();
    const over = loss(order({ price: 60n * C, size: 401n * N, mayRest: false }), a, fairAt(50n));
    expect(over?.code).toBe('risk.daily_loss');
    expect(over?.sentence).toContain('come to $100.10, over your daily limit of $100.00');
    // One that may rest counts what it adds to the market's worst case: another bid at 45¢ makes the
    // bids' $85 (20 + 85 > 100); an ask at 55¢ makes the asks' $85 too.
    expect(loss(order({ price: 45n * C, size: 100n * N }), a, fairAt(50n))?.sentence).toContain('come to $105.00');
    expect(loss(order({ sell: true, price: 55n * C, size: 100n * N }), a, fairAt(50n))?.code).toBe('risk.daily_loss');
    // A bid of $40 more fits: the bids then reach $80 and the market counts $80.
    expect(loss(order({ price: 40n * C, size: 100n * N }), a, fairAt(50n))).toBeNull();
  });

  it('counts an ask that closes a long against what the long gains, and the bids a buy-back leaves uncovered', () => {
    // Long 200 at fair 50¢: an ask at 60¢ for all of it gives nothing away if fair rises to $1 (the long
    // gains 50¢ a contract, the ask gives away 40¢), so a take-profit fits a budget with $1 left.
    const long = account({ inventory: 200n * N, lossToday: 99n * D });
    expect(loss(order({ sell: true, price: 60n * C, size: 200n * N }), long, fairAt(50n))).toBeNull();
    // Twice the position: the second 200 is uncovered ($80 if fair rose to $1).
    expect(loss(order({ sell: true, price: 60n * C, size: 400n * N }), long, fairAt(50n))?.code).toBe(
      'risk.daily_loss',
    );
    // Short 100 with a bid at 50¢ closing it: covered. Buying the short back at once leaves the bid
    // uncovered ($50 if fair fell to 0), so the buy-back counts that.
    const short = account({
      inventory: -100n * N,
      resting: [{ assetId: 1n, epoch: 7n, sell: false, price: 50n * C, size: 100n * N }],
    });
    expect(
      restingRisk(
        order({}),
        short.resting,
        () => 50n * C,
        () => -100n * N,
      ).restingCost,
    ).toBe(0n);
    expect(
      ownCost(order({ price: 50n * C, size: 100n * N, mayRest: false }), 50n * C, riskFor(order({}), short, 50n * C)),
    ).toBe(50n * D);
  });

  it('at the limit refuses anything that adds risk or would rest, and lets closes at once at or better than fair go', () => {
    const spent = account({ inventory: 100n * N, lossToday: 100n * D });
    expect(loss(order({ price: 40n * C, size: 1n * N }), spent, fairAt(50n))?.sentence).toMatch(
      /^today's loss of \$100.00 has reached your daily limit of \$100.00/,
    );
    const close = { sell: true, size: 100n * N, mayRest: false };
    expect(loss(order({ ...close, price: 50n * C }), spent, fairAt(50n))).toBeNull();
    expect(loss(order({ ...close, price: 49n * C }), spent, fairAt(50n))?.code).toBe('risk.daily_loss');
    // The same close left resting would be taken stale when the oracle jumps up (seed 22 of the fuzzer).
    expect(loss(order({ ...close, price: 50n * C, mayRest: true }), spent, fairAt(50n))?.sentence).toMatch(
      /still go if they fill at once \(IOC\), not resting\.$/,
    );
    // Below the limit a reduction may spend what is left, and may rest.
    const near = account({ inventory: 100n * N, lossToday: 99n * D });
    expect(loss(order({ ...close, price: 49n * C }), near, fairAt(50n))).toBeNull();
    expect(loss(order({ ...close, price: 50n * C, mayRest: true }), near, fairAt(50n))).toBeNull();
  });

  it('with no fair value counts a closing order at the most it can lose: a buy-back at its price', () => {
    // Short 100: buying back at 99¢ may give 99¢ a contract away (the contract may be worth nothing).
    const short = account({ inventory: -100n * N, lossToday: 10n * D });
    expect(ownCost(order({ price: 99n * C, size: 100n * N }), null)).toBe(99n * D);
    expect(loss(order({ price: 99n * C, size: 100n * N }), short, null)?.code).toBe('risk.daily_loss');
    // A buy-back the budget can pay goes; a sale of a long counts at a dollar less its price.
    expect(loss(order({ price: 50n * C, size: 100n * N }), short, null)).toBeNull();
    expect(ownCost(order({ sell: true, price: 30n * C, size: 10n * N }), null)).toBe(7n * D);
  });

  it('knows which part of an order opens a position', () => {
    expect(openingSize({ sell: true, size: 10n }, 4n)).toBe(6n);
    expect(openingSize({ sell: false, size: 10n }, -12n)).toBe(0n);
    expect(openingSize({ sell: false, size: 10n }, 5n)).toBe(10n);
  });
});

describe('the one-pass check', () => {
  /** Few coarse values, so sums meet the limits exactly and often; raw ones hit the rounding of a cost. */
  const amount = (max: bigint, unit: bigint) =>
    fc.oneof(
      fc.bigInt({ min: 0n, max: 6n }).map((n) => n * (max / unit / 6n) * unit),
      fc.bigInt({ min: 0n, max: max / unit }).map((n) => n * unit),
      fc.bigInt({ min: 0n, max }),
    );
  const input = fc.record({
    order: fc.record({
      assetId: fc.constant(1n),
      epoch: fc.constant(7n),
      sell: fc.boolean(),
      // A few out of range: the guards refuse those by throwing, the one-pass check by answering false.
      price: fc.oneof(amount(1_000_000n, C), fc.constantFrom(-1n, 1_000_001n)),
      size: amount(3_000n * N, N),
      mayRest: fc.boolean(),
    }),
    fair: fc.option(amount(1_000_000n, C)),
    limits: fc.record({
      band: amount(50n * C, C),
      maxOrderCost: amount(1_000n * D, D),
      maxPosition: amount(3_000n * N, N),
      maxOpenOrders: fc.integer({ min: 1, max: 60 }),
      maxOrdersPerMinute: fc.integer({ min: 1, max: 130 }),
      dailyLossBps: fc.constant(1000n),
      dailyLossFixed: fc.constant(null),
    }),
    account: fc.option(
      fc.record({
        inventory: fc.oneof(
          amount(3_000n * N, N),
          amount(3_000n * N, N).map((n) => -n),
        ),
        sameSide: amount(3_000n * N, N),
        openOrders: fc.integer({ min: 0, max: 60 }),
        restingCost: amount(200n * D, D),
        reserved: amount(200n * D, D),
        lossToday: amount(200n * D, D),
        lossLimit: amount(200n * D, D),
      }),
    ),
    sentInLastMinute: fc.integer({ min: 0, max: 130 }),
  });

  /**
   * The same with one guard decided at its edge: its limit just under, at or just over what the order
   * reaches, every other limit out of the way; sometimes an order only just larger than what it closes.
   */
  const HUGE = 10n ** 30n;
  const atEdges = fc
    .tuple(
      input,
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: -1, max: 1 }).map(BigInt),
      fc.option(fc.bigInt({ min: 0n, max: 2n })),
    )
    .filter(([i]) => i.order.price >= 0n && i.order.price <= 1_000_000n)
    .map(([base, focus, d, over]): typeof base => {
      const i = { ...base, order: { ...base.order }, account: base.account && { ...base.account } };
      const o = i.order;
      const a = i.account;
      const inventory = a?.inventory ?? 0n;
      if (over !== null)
        o.size = (o.sell ? (inventory > 0n ? inventory : 0n) : inventory < 0n ? -inventory : 0n) + over;
      const edge = (v: bigint, k: number): bigint => (k !== focus ? HUGE : v + d < 0n ? 0n : v + d);
      const opening = openingSize(o, inventory);
      const off = i.fair === null ? 0n : o.sell ? i.fair - o.price : o.price - i.fair;
      const reach = o.size + (a?.sameSide ?? 0n);
      const worst = o.sell ? inventory - reach : inventory + reach;
      const limits = {
        ...i.limits,
        band: edge(off, 0),
        maxOrderCost: edge(orderMargin(o.sell, opening, o.price), 1),
        maxPosition: edge(worst < 0n ? -worst : worst, 2),
        maxOpenOrders: focus === 3 ? Math.max(1, (a?.openOrders ?? 0) + Number(d)) : 1_000,
        maxOrdersPerMinute: focus === 4 ? Math.max(1, i.sentInLastMinute + Number(d)) : 1_000,
      };
      if (a) {
        const committed = a.lossToday + a.restingCost + a.reserved + ownCost(o, i.fair, a);
        // 5: what the orders commit meets the limit; 6: today's loss itself meets it.
        if (focus === 5) a.lossLimit = committed + d < 0n ? 0n : committed + d;
        else if (focus === 6) {
          a.lossLimit = a.lossToday + d < 0n ? 0n : a.lossToday + d;
          a.restingCost = 0n;
          a.reserved = 0n;
        } else a.lossLimit = HUGE;
      }
      return { ...i, limits };
    });

  it('lets an order by exactly when no guard finds a breach', () => {
    fc.assert(
      fc.property(fc.oneof(input, atEdges), (i) => {
        let none: boolean;
        try {
          none = everyBreach(i).length === 0;
        } catch {
          none = false; // refused (a price out of range)
        }
        expect(breaksNone(i)).toBe(none);
      }),
      { numRuns: 20_000 },
    );
  });
});
