import { describe, expect, it } from 'vitest';
import { packAssetId, type Address, type Hex } from '../../../shared/protocol';
import type { BookOrders, MarketUpdate, ExchangePosition } from '../../../client';
import { silentLogger } from '../../log';
import { createEventHub } from '../event-hub';
import { AccountDesk, type AccountDeskOptions } from './account-desk';
import { endedOrdersText } from './epoch-end';

const MASTER = '0x00000000000000000000000000000000000000aa' as Address;
const ASSET = packAssetId({
  id: 1n,
  marketType: 1n,
  startTime: 1_700_000_000n,
  periodLength: 60n,
  strike: 0n,
  range: 0n,
});
const id = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

const quiet = silentLogger;

/** A desk over a reader whose book lists `resting` as the account's open orders in the current epoch. */
function deskWith(
  resting: () => Hex[],
  extra: Partial<AccountDeskOptions> = {},
  position: Partial<ExchangePosition> = {},
  claim: () => Promise<bigint> = () => Promise.reject(new Error('not resolved')),
): AccountDesk {
  const reader: AccountDeskOptions['reader'] = {
    getBalance: () => Promise.resolve({ account: MASTER, ts: 1, balance: 10n ** 12n, pending: 0n }),
    getBookOrders: (assetId, epoch) =>
      Promise.resolve({
        assetId,
        epoch,
        seqId: 1n,
        ts: 1,
        buys: resting().map((o) => ({ id: o, size: 1_000_000n, price: 400_000n })),
        sells: [],
      } satisfies BookOrders),
    getPosition: (_a, assetId, epoch) =>
      Promise.resolve({
        account: MASTER,
        assetId,
        epoch,
        ts: 1,
        size: 0n,
        inventory: 0n,
        margin: 0n,
        realisedPnl: 0n,
        ...position,
      } satisfies ExchangePosition),
    getFills: () => Promise.resolve(null),
    getClaimable: (assetId, epoch, account) => claim().then((claimable) => ({ assetId, epoch, account, claimable })),
  };
  return new AccountDesk({
    reader,
    markets: [{ assetId: ASSET, symbol: 'BTC' }],
    events: createEventHub(),
    logger: quiet,
    selection: { master: null, agent: null, tradeAs: 'master' },
    currentEpoch: () => 1n,
    topOfBook: () => ({ bid: null, ask: null }),
    fairPrice: () => null,
    settledPrice: () => null,
    settlementToken: () => null,
    rpc: () => {
      throw new Error('no chain in this test');
    },
    onOwnOrdersChanged: () => {},
    ...extra,
  });
}

const sent = (n: number) =>
  ({
    assetId: ASSET,
    epoch: 1n,
    orderId: id(n),
    side: 'buy',
    price: 400_000n,
    size: 1_000_000n,
    timeInForce: 'GTC',
    signedBy: 'master',
    status: 'ACCEPTED',
    filled: 0n,
    reason: '',
  }) as const;

describe('AccountDesk bounds', () => {
  it('remembers the facts of at most `placedKept` orders: orders no longer open go first, the newest stay', async () => {
    const resting = [id(1)];
    const desk = deskWith(() => resting, { placedKept: 5 });
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    for (let n = 1; n <= 13; n++) desk.orderSent(sent(n));
    const kept = Array.from({ length: 13 }, (_, i) => i + 1).filter((n) => desk.placed(id(n)) !== undefined);
    // Order 1 still rests, so it outlives newer orders that are done.
    expect(kept).toEqual([1, 10, 11, 12, 13]);
    expect(desk.timeInForceOf(id(1))).toBe('GTC');
    expect(desk.view().openOrders.map((o) => o.orderId)).toEqual([id(1)]);
  });

  it('forgets the facts of orders no longer open once the grace has passed, and keeps open ones', async () => {
    let now = 1_000_000;
    const resting = [id(1)];
    const desk = deskWith(() => resting, { now: () => now });
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    desk.orderSent(sent(1));
    desk.orderSent(sent(2));
    await desk.refresh();
    now += 60_000; // within the grace: both still known
    desk.orderSent(sent(3));
    expect([1, 2, 3].map((n) => desk.placed(id(n)) !== undefined)).toEqual([true, true, true]);
    now += 100_000; // order 2 is done and 160 s old: past it; order 1 still rests; order 3 is 100 s old
    desk.orderSent(sent(4));
    expect([1, 2, 3, 4].map((n) => desk.placed(id(n)) !== undefined)).toEqual([true, false, true, true]);
  });

  it('holds the placed map to its bound even when every order is still open', async () => {
    const resting: Hex[] = [];
    const desk = deskWith(() => resting, { placedKept: 3 });
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    for (let n = 1; n <= 6; n++) {
      resting.push(id(n));
      desk.orderSent(sent(n));
      await desk.refresh();
    }
    expect([1, 2, 3, 4, 5, 6].filter((n) => desk.placed(id(n)) !== undefined)).toEqual([4, 5, 6]);
  });

  it('keeps the arrival time of at most `fillTimesKept` maker fills', async () => {
    const desk = deskWith(() => [], { fillTimesKept: 4 });
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    desk.orderSent(sent(1));
    for (let i = 0; i < 10; i++) {
      desk.onMarketUpdate({
        type: 'trade',
        assetId: ASSET,
        epoch: 1n,
        seqId: BigInt(i),
        data: { orderId: id(1), side: false, fill: 1n, fillPrice: 1n },
      } as unknown as MarketUpdate);
    }
    const timed = Array.from({ length: 10 }, (_, i) => desk.fillTime(id(1), BigInt(i)) !== undefined);
    expect(timed).toEqual([false, false, false, false, false, false, true, true, true, true]);
  });

  it('keeps claimable amounts of a bounded number of epochs, newest', () => {
    const desk = deskWith(() => []);
    for (let e = 0n; e < 300n; e++) desk.claimableSeen(ASSET, e, 1n + e);
    expect(desk.claimable(ASSET, 299n)).toBe(300n);
    expect(desk.claimable(ASSET, 0n)).toBe(0n);
    desk.claimed(ASSET, 299n);
    expect(desk.claimable(ASSET, 299n)).toBe(0n);
  });
});

describe('AccountDesk at the roll', () => {
  it('tells how many resting orders an ended epoch took, marks them in the history and drops them from open orders', async () => {
    let current = 1n;
    const events = createEventHub();
    const history: unknown[] = [];
    events.on('orderHistory', (h) => history.push(h));
    const desk = deskWith(() => [id(1), id(2)], { currentEpoch: () => current, events });
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    desk.orderSent(sent(1));
    desk.orderSent(sent(2));
    expect(desk.view().openOrders).toHaveLength(2);
    current = 2n;
    expect(desk.epochEnded(ASSET, 1n)).toEqual({ buys: 2, sells: 0 });
    expect(desk.view().openOrders).toEqual([]);
    expect(desk.history().map((e) => [e.outcome, e.reason])).toEqual([
      ['cancelled', 'the epoch ended while it rested; the exchange took it off the book'],
      ['cancelled', 'the epoch ended while it rested; the exchange took it off the book'],
    ]);
    // An epoch with nothing resting says nothing.
    expect(desk.epochEnded(ASSET, 5n)).toEqual({ buys: 0, sells: 0 });
  });

  it('values a position as the loss budget does: at fair, then at its settled price, then at the claim; with no price at nothing, never at cost', async () => {
    let current = 1n;
    let fair: bigint | null = 600_000n;
    let settled: bigint | null = null;
    let claim: bigint | null = null;
    // Long 5 contracts bought at 50¢ (2.50 collateral); a one-sided book quoting 52¢ does not value it.
    const desk = deskWith(
      () => [],
      {
        currentEpoch: () => current,
        topOfBook: () => ({ bid: 520_000n, ask: null }),
        fairPrice: () => fair,
        settledPrice: () => settled,
      },
      { inventory: 5_000_000n, size: 5_000_000n, margin: 2_500_000n },
      () => (claim === null ? Promise.reject(new Error('EPOCH_NOT_RESOLVED')) : Promise.resolve(claim)),
    );
    await desk.select({ master: MASTER, agent: null, tradeAs: 'master' });
    const live = desk.view().positions[0]!;
    expect([live.resolved, live.markPrice, live.unrealisedPnl, live.value]).toEqual([
      false,
      '600000',
      '500000',
      '3000000',
    ]);
    fair = null; // no fair value (oracle stale): the worst it can pay
    expect(desk.view().positions[0]!).toMatchObject({ markPrice: null, unrealisedPnl: '-2500000', value: '0' });
    current = 2n; // the roll: ended, resolution not known yet
    await desk.readClaim(ASSET, 1n); // the exchange has not resolved it: refused
    expect(desk.view().positions[0]!).toMatchObject({ resolved: true, claimKnown: false, value: '0' });
    settled = 1_000_000n; // Up won: 5 contracts pay $5
    expect(desk.view().positions[0]!.value).toBe('5000000');
    claim = 5_000_000n;
    await desk.readClaim(ASSET, 1n);
    const known = desk.view().positions[0]!;
    expect([known.claimKnown, known.claimable, known.value]).toEqual([true, '5000000', '5000000']);
    desk.claimed(ASSET, 1n); // claimed: it is in the balance now, the position counts nothing more
    expect(desk.view().positions[0]!.value).toBe('0');
  });
});

describe('the roll notice', () => {
  it('says how many orders, which market and what became of them', () => {
    expect(endedOrdersText('BTC 1m #41', { buys: 2, sells: 1 })).toBe(
      'BTC 1m #41 ended with 3 of your orders resting (2 buys, 1 sell): the exchange took them off the book and the collateral they held is free again.',
    );
    expect(endedOrdersText('ETH 5m #7', { buys: 0, sells: 1 })).toBe(
      'ETH 5m #7 ended with 1 of your orders resting (1 sell): the exchange took it off the book and the collateral it held is free again.',
    );
  });
});
