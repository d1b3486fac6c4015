// MarketMaker against an in-memory venue: quoting, re-quoting, roll-over and claims, no network;
// and the bot loop re-quoting when the venue's feeds wake it.
import { describe, expect, it, vi } from 'vitest';
import { startLiquidityBot } from './liquidity-bot';
import { fairPrice } from '../../client';
import { MarketMaker, type MarketMakerConfig } from './market-maker';
import type { RestingOrder } from './reconcile';
import type { BotVenue, MarketInfo, OrderRequest } from './venue';

const config: MarketMakerConfig = {
  sigma: 0.6,
  levels: 2,
  halfSpreadTicks: 2,
  stepTicks: 2,
  baseLots: 100n,
  lotsPerLevel: 0n,
  takeProbability: 0,
  takeLots: 100n,
};

class FakeVenue implements BotVenue {
  readonly address = '0x0000000000000000000000000000000000000001';
  info: MarketInfo = { assetId: 9n, symbolId: 1n, epoch: 0n, strike: 100_000_000n, expiration: 2_000_000_000n };
  spot: bigint | undefined = 100_000_000n;
  orders: (RestingOrder & { epoch: bigint })[] = [];
  calls: string[] = [];
  positions = new Map<bigint, bigint>();
  resolved = new Set<bigint>();
  private next = 0;

  market = (): Promise<MarketInfo> => Promise.resolve(this.info);
  oraclePrice = () => Promise.resolve(this.spot);
  top = () => Promise.resolve({});
  restingOrders = (_a: bigint, epoch: bigint) => Promise.resolve(this.orders.filter((o) => o.epoch === epoch));
  place = (o: OrderRequest) => {
    if (o.tif === 'IOC') {
      this.calls.push('ioc');
      return Promise.resolve({ orderId: `ioc${this.next++}`, status: 'CANCELLED', filled: 0n, reason: '' });
    }
    this.calls.push(`place ${o.side ? 'ask' : 'bid'} ${o.price}`);
    const orderId = `o${this.next++}`;
    this.orders.push({ orderId, side: o.side, price: o.price, size: o.size, epoch: o.epoch });
    return Promise.resolve({ orderId, status: 'ACCEPTED', filled: 0n, reason: '' });
  };
  cancelReplace = async (target: string, o: OrderRequest) => {
    this.calls.push(`replace ${target} → ${o.price}`);
    this.orders = this.orders.filter((x) => x.orderId !== target);
    await this.place(o);
    this.calls.pop();
    return { status: 'SUCCESS' };
  };
  cancel = (_a: bigint, _e: bigint, id: string) => {
    this.calls.push(`cancel ${id}`);
    this.orders = this.orders.filter((x) => x.orderId !== id);
    return Promise.resolve();
  };
  cancelAll = (_a: bigint, epoch: bigint) => {
    this.calls.push(`cancelAll ${epoch}`);
    this.orders = this.orders.filter((x) => x.epoch !== epoch);
    return Promise.resolve();
  };
  positionSize = (_a: bigint, e: bigint) => Promise.resolve(this.positions.get(e) ?? 0n);
  claim = (_a: bigint, e: bigint) =>
    Promise.resolve(this.resolved.has(e) ? ('claimed' as const) : ('not-resolved' as const));
  close = () => Promise.resolve();
}

function makeVenue(): { venue: FakeVenue; api: BotVenue; info: MarketInfo } {
  const venue = new FakeVenue();
  return { venue, api: venue, info: venue.info };
}

/** The maker under test on asset 9, with a fixed coin and clock and a silent log. */
function makerOn(api: BotVenue): MarketMaker {
  return new MarketMaker({
    venue: api,
    assetId: 9n,
    config,
    random: () => 0.5,
    now: () => 1_999_999_700_000,
    log: () => {},
  });
}

describe('MarketMaker', () => {
  it('quotes nothing without an oracle price, then a full two-sided ladder', async () => {
    const { venue, api } = makeVenue();
    venue.spot = undefined;
    const mm = makerOn(api);
    await mm.step();
    expect(venue.orders).toHaveLength(0);
    venue.spot = 100_000_000n;
    await mm.step();
    expect(venue.orders.filter((o) => !o.side)).toHaveLength(2);
    expect(venue.orders.filter((o) => o.side)).toHaveLength(2);
    const bids = venue.orders.filter((o) => !o.side).map((o) => o.price);
    const asks = venue.orders.filter((o) => o.side).map((o) => o.price);
    expect(Math.max(...bids.map(Number))).toBeLessThan(Math.min(...asks.map(Number)));
  });

  it('keeps the fair value it priced with, and what it was made from', async () => {
    const { venue, api } = makeVenue();
    const mm = makerOn(api);
    expect(mm.lastFair).toBeUndefined();
    venue.spot = 100_020_000n;
    await mm.step();
    const secondsLeft = 2_000_000_000 - 1_999_999_700;
    expect(mm.lastFair).toEqual({
      assetId: 9n,
      epoch: 0n,
      fair: fairPrice({ spot: 100_020_000n, strike: 100_000_000n, secondsToExpiry: secondsLeft, sigma: 0.6 }),
      spot: 100_020_000n,
      strike: 100_000_000n,
      sigma: 0.6,
      secondsLeft,
      at: 1_999_999_700_000,
    });
  });

  it('leaves quotes alone while fair is within a tick, and moves them with cancel-replace when it is not', async () => {
    const { venue, api } = makeVenue();
    const mm = makerOn(api);
    await mm.step();
    venue.calls = [];
    await mm.step();
    expect(venue.calls).toEqual([]);
    venue.spot = 100_050_000n; // fair jumps by many ticks, far from the 999000 edge
    await mm.step();
    expect(venue.calls.length).toBeGreaterThan(0);
    expect(venue.calls.filter((c) => !c.startsWith('replace'))).toEqual([]);
    expect(venue.orders).toHaveLength(4);
  });

  it('refills the ladder after a fill removes a level', async () => {
    const { venue, api } = makeVenue();
    const mm = makerOn(api);
    await mm.step();
    venue.orders.shift();
    venue.calls = [];
    await mm.step();
    expect(venue.calls).toHaveLength(1);
    expect(venue.calls[0]).toMatch(/^place/);
    expect(venue.orders).toHaveLength(4);
  });

  it('tops up a level an IOC took part of, and leaves the rest of the ladder alone', async () => {
    const { venue, api } = makeVenue();
    const mm = makerOn(api);
    await mm.step();
    const hit = venue.orders[0]!;
    venue.orders[0] = { ...hit, size: hit.size / 2n };
    venue.calls = [];
    await mm.step();
    expect(venue.calls).toEqual([`replace ${hit.orderId} → ${hit.price}`]);
    expect(venue.orders.map((o) => o.size)).toEqual([hit.size, hit.size, hit.size, hit.size]);
  });

  it('does not retry a level dropped for crossing another trader on every step', async () => {
    const { venue, api } = makeVenue();
    const mm = makerOn(api);
    await mm.step();
    // Another trader bids above every ask of a fresh ladder: post-only asks would cross it, so they go.
    venue.top = () => {
      venue.calls.push('top'); // a re-quote reads the book first
      return Promise.resolve({ bestBid: 990_000n });
    };
    venue.spot = 100_050_000n;
    await mm.step();
    expect(venue.orders.map((o) => o.side)).toEqual([false, false]);
    venue.calls = [];
    await mm.step();
    await mm.step();
    expect(venue.calls).toEqual([]);
    expect(venue.orders).toHaveLength(2);
  });

  it('rolls to a new epoch with cancel-all on the old one, then claims it once resolved', async () => {
    const { venue, api, info } = makeVenue();
    const mm = makerOn(api);
    await mm.step();
    venue.positions.set(0n, 5n);
    info.epoch = 1n;
    venue.calls = [];
    await mm.step();
    expect(venue.calls[0]).toBe('cancelAll 0');
    expect(venue.orders.every((o) => o.epoch === 1n)).toBe(true);
    expect(venue.orders).toHaveLength(4);
    venue.resolved.add(0n);
    const claims: string[] = [];
    const claim = venue.claim;
    api.claim = (a, e) => (claims.push(`${e}`), claim(a, e));
    await mm.step();
    await mm.step();
    expect(claims).toEqual(['0']); // claimed once, then forgotten
  });
});

describe('startLiquidityBot with a feed-backed venue', () => {
  it('re-quotes when the feed reports an own fill, without waiting for the timer and without taking', async () => {
    const venue = new FakeVenue();
    const wakers: (() => void)[] = [];
    const api: BotVenue = Object.assign(venue, {
      watch: (assetId: bigint, wake: () => void) => {
        expect(assetId).toBe(9n);
        wakers.push(wake);
        return () => void wakers.splice(wakers.indexOf(wake), 1);
      },
    });
    // The timer never fires during the test (stepMs huge): only the first pass and wake-ups step.
    // takeProbability 1: a timer pass always sends an IOC, so a wake-up pass shows by sending none.
    const bot = startLiquidityBot({
      name: 't',
      venue: api,
      assetIds: [9n],
      config: { ...config, takeProbability: 1 },
      sigmaOf: (assetId) => (assetId === 9n ? 0.75 : undefined),
      seed: 1,
      stepMs: 1e9,
      log: () => {},
      now: () => 1_999_999_700_000,
    });
    try {
      await vi.waitFor(() => expect(venue.orders).toHaveLength(4));
      await vi.waitFor(() => expect(bot.steps).toBe(1));
      expect(bot.lastFair(9n)?.sigma).toBe(0.75); // the market's own volatility, not the profile's
      expect(wakers).toHaveLength(1);
      expect(venue.calls.filter((c) => c === 'ioc')).toHaveLength(1);

      venue.orders.shift(); // an inner level is filled away
      venue.calls = [];
      wakers[0]!();
      wakers[0]!(); // a burst of events while one wake-up is queued steps once
      await vi.waitFor(() => expect(bot.steps).toBe(2));
      expect(venue.orders).toHaveLength(4);
      expect(venue.calls).toHaveLength(1);
      expect(venue.calls[0]).toMatch(/^place/);
    } finally {
      await bot.stop();
    }
    expect(wakers).toHaveLength(0); // unsubscribed on stop
    expect(venue.orders).toHaveLength(0); // quotes withdrawn on stop
  });
});
