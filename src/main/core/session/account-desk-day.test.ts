// The account desk across a restart: today's fills, order history and positions come back from main's
// store (day-records.ts) and the exchange, equal to what the desk showed before.
import { describe, expect, it } from 'vitest';
import { packAssetId, type Address, type Hex } from '../../../shared/protocol';
import { ExchangeHttpError, type ExchangePosition, type MarketUpdate, type OwnFillRecord } from '../../../client';
import { silentLogger } from '../../log';
import { createMemoryStore, type KeyValueStore } from '../../store/key-value-store';
import { createEventHub } from '../event-hub';
import { AccountDesk, type AccountDeskOptions } from './account-desk';
import { DayRecordStore } from './day-records';

const MASTER = '0x00000000000000000000000000000000000000aa' as Address;
const OTHER = '0x00000000000000000000000000000000000000bb' as Address;
const ASSET = packAssetId({
  id: 1n,
  marketType: 1n,
  startTime: 1_700_000_000n,
  periodLength: 60n,
  strike: 0n,
  range: 0n,
});
const id = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const SELECT = { master: MASTER, agent: null, tradeAs: 'master' } as const;

interface Exchange {
  positions: Map<bigint, Partial<ExchangePosition>>;
  /** Epochs the exchange no longer answers for. */
  gone: Set<bigint>;
  fills: OwnFillRecord[];
}

function deskOver(store: KeyValueStore, ex: Exchange, current: () => bigint = () => 2n): AccountDesk {
  const reader: AccountDeskOptions['reader'] = {
    getBalance: () => Promise.resolve({ account: MASTER, ts: 1, balance: 10n ** 12n, pending: 0n }),
    getBookOrders: (assetId, epoch) =>
      ex.gone.has(epoch)
        ? Promise.reject(new ExchangeHttpError(404, 'ORDERBOOK_NOT_FOUND', 'gone', null, 'GET', '/book'))
        : Promise.resolve({ assetId, epoch, seqId: 1n, ts: 1, buys: [], sells: [] }),
    getPosition: (account, assetId, epoch) =>
      Promise.resolve({
        account,
        assetId,
        epoch,
        ts: 1,
        size: 0n,
        inventory: 0n,
        margin: 0n,
        realisedPnl: 0n,
        ...ex.positions.get(epoch),
      }),
    getFills: () => Promise.resolve([...ex.fills].reverse()),
    getClaimable: () => Promise.reject(new Error('not resolved')),
  };
  const opts = {
    reader,
    markets: [{ assetId: ASSET, symbol: 'BTC' }],
    events: createEventHub(),
    logger: silentLogger,
    selection: { master: null, agent: null, tradeAs: 'master' as const },
    currentEpoch: () => current(),
    topOfBook: () => ({ bid: null, ask: null }),
    fairPrice: () => null,
    settledPrice: () => null,
    settlementToken: () => null,
    rpc: () => {
      throw new Error('no chain in this test');
    },
    onOwnOrdersChanged: () => {},
    dayRecords: new DayRecordStore(store, { writeDelayMs: 0 }).port({ id: 'devnet', chainId: '31337' }),
  };
  return new AccountDesk(opts);
}

const sent = (n: number, over: Record<string, unknown> = {}) =>
  ({
    assetId: ASSET,
    epoch: 2n,
    orderId: id(n),
    side: 'buy',
    price: 400_000n,
    size: 2_000_000n,
    timeInForce: 'GTC',
    signedBy: 'master',
    status: 'ACCEPTED',
    filled: 0n,
    reason: '',
    ...over,
  }) as const;

const record = (n: number, liquidity: 'maker' | 'taker', size: bigint, ts = Date.now()): OwnFillRecord => ({
  orderId: id(n),
  assetId: ASSET,
  epoch: 2n,
  side: false,
  price: 400_000n,
  size,
  liquidity,
  ts,
});

const trade = (n: number, seq: bigint, fill: bigint): MarketUpdate =>
  ({
    type: 'trade',
    assetId: ASSET,
    epoch: 2n,
    seqId: seq,
    data: { orderId: id(n), side: false, fill, fillPrice: 400_000n },
  }) as unknown as MarketUpdate;

/** What must be equal across the restart. */
function day(desk: AccountDesk) {
  const view = desk.view();
  return {
    fills: view.fills,
    history: desk.history(),
    positions: view.positions.map((p) => [p.epoch, p.size, p.margin, p.realisedPnl]).sort(),
    realised: view.positions.reduce((sum, p) => sum + BigInt(p.realisedPnl), 0n),
  };
}

describe('AccountDesk across a restart', () => {
  it('reads back today’s fills, history and positions (an ended epoch’s from the store) equal to before', async () => {
    const store = createMemoryStore();
    const ex: Exchange = {
      positions: new Map([
        [1n, { realisedPnl: -200_000n }],
        [2n, { inventory: 3_000_000n, size: 3_000_000n, margin: 1_200_000n, realisedPnl: 50_000n }],
      ]),
      gone: new Set(),
      fills: [],
    };
    const before = deskOver(store, ex);
    await before.select(SELECT);
    await before.refresh(1n, ASSET); // the ended epoch, read after its resolution
    // A taker order that filled at once, a resting one filled by the feed, one cancelled, one rejected.
    before.orderSent(sent(1, { timeInForce: 'IOC', status: 'FILLED', filled: 1_000_000n, size: 1_000_000n }));
    ex.fills.push(record(1, 'taker', 1_000_000n));
    await before.recordTakerFills({
      assetId: ASSET,
      epoch: 2n,
      orderId: id(1),
      side: 'buy',
      limit: 400_000n,
      filled: 1_000_000n,
    });
    before.orderSent(sent(2));
    before.onMarketUpdate(trade(2, 7n, 1_000_000n));
    ex.fills.push(record(2, 'maker', 1_000_000n));
    before.orderSent(sent(3));
    before.ordersCancelled([id(3)]);
    before.orderSent(sent(4, { status: 'REJECTED', reason: 'not enough collateral' }));
    await before.refresh();
    const was = day(before);
    expect(was.fills.map((f) => [f.orderId, f.liquidity]).sort()).toEqual([
      [id(1), 'taker'],
      [id(2), 'maker'],
    ]);
    expect(was.history.map((h) => h.outcome)).toEqual(['rejected', 'cancelled', 'open', 'filled']);
    expect(was.realised).toBe(-150_000n);

    // The restart: a new desk over the same store; the exchange no longer answers for epoch 1.
    ex.gone.add(1n);
    const after = deskOver(store, ex);
    await after.select(SELECT);
    expect(day(after)).toEqual(was);
  });

  it('adds what the exchange lists that the store lacks, once, and brings open orders’ fills into the history', async () => {
    const store = createMemoryStore();
    const ex: Exchange = { positions: new Map(), gone: new Set(), fills: [] };
    const before = deskOver(store, ex);
    await before.select(SELECT);
    before.orderSent(sent(2));
    before.onMarketUpdate(trade(2, 7n, 500_000n));
    ex.fills.push(record(2, 'maker', 500_000n));
    // While the app is closed: order 2 fills further, and an order placed elsewhere takes.
    ex.fills.push(record(2, 'maker', 1_500_000n), record(9, 'taker', 1_000_000n));
    const after = deskOver(store, ex);
    await after.select(SELECT);
    const { fills, history } = day(after);
    expect(fills.map((f) => [f.orderId, f.size, f.liquidity])).toEqual([
      [id(2), '500000', 'maker'],
      [id(2), '1500000', 'maker'],
      [id(9), '1000000', 'taker'],
    ]);
    expect(history[0]).toMatchObject({ orderId: id(2), filled: '2000000', outcome: 'filled' });
    // Read back again: nothing twice.
    const again = deskOver(store, ex);
    await again.select(SELECT);
    expect(day(again).fills).toEqual(fills);
  });

  it('shows the selected account’s day only: another account starts with its own', async () => {
    const store = createMemoryStore();
    const ex: Exchange = { positions: new Map(), gone: new Set(), fills: [] };
    const desk = deskOver(store, ex);
    await desk.select(SELECT);
    desk.orderSent(sent(1));
    await desk.select({ master: OTHER, agent: null, tradeAs: 'master' });
    expect(desk.history()).toEqual([]);
    await desk.select(SELECT);
    expect(desk.history().map((h) => h.orderId)).toEqual([id(1)]);
  });
});
