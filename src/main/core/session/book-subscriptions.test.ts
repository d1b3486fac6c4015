// Book streams outliving the page that opened them: a page reload asks for the same book again at
// once, and a sync kept in step with the feed answers it without a new snapshot from the exchange.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketFeed, MarketHandler, OrderBook } from '../../../client';
import { BookSubscriptions, PARKED_BOOK_MS } from './book-subscriptions';

const ASSET = 7n;
const EPOCH = 3n;

function book(): OrderBook {
  const price = 400_000n;
  return {
    assetId: ASSET,
    epoch: EPOCH,
    ts: 0,
    seqId: 4n,
    bids: [
      {
        price,
        size: 1_000_000n,
        orderCount: 1,
        orders: [{ id: `0x${'1'.padStart(64, '0')}`, size: 1_000_000n, price }],
      },
    ],
    asks: [],
  };
}

function rig() {
  const counts = { subscribe: 0, unsubscribe: 0, snapshots: 0 };
  const handlers: MarketHandler[] = [];
  const feed = {
    socket: { state: 'open', isAcked: () => true },
    lastActivityAt: 0,
    subscribe(_asset: bigint, h: MarketHandler) {
      counts.subscribe++;
      handlers.push(h);
      return {
        ready: Promise.resolve(),
        unsubscribe: () => {
          counts.unsubscribe++;
          return Promise.resolve();
        },
      };
    },
  } as unknown as MarketFeed;
  const emitted: string[] = [];
  const books = new BookSubscriptions({
    reader: {
      getOrderBook: () => {
        counts.snapshots++;
        return Promise.resolve(book());
      },
    },
    feed,
    ownLevels: () => ({ bids: new Map(), asks: new Map() }),
    last: () => null,
    emit: (id) => emitted.push(id),
    now: () => Date.now(),
  });
  return { books, counts, emitted };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('BookSubscriptions across a page going away', () => {
  it('answers the next page’s subscription from the parked sync, without a new snapshot', async () => {
    const { books, counts } = rig();
    const first = await books.subscribe(ASSET, EPOCH, 10);
    expect(first.book.health.state).toBe('live');
    books.closeAll(true); // the page reloads
    const second = await books.subscribe(ASSET, EPOCH, 10);
    expect(second.subscriptionId).not.toBe(first.subscriptionId);
    expect(second.book.bids.map((l) => l.price)).toEqual(['400000']);
    expect(second.book.health.state).toBe('live');
    expect(counts).toEqual({ subscribe: 1, unsubscribe: 0, snapshots: 1 });
    books.closeAll();
    expect(counts.unsubscribe).toBe(1);
  });

  it('stops a parked sync nobody asked for again, and every one when the session closes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { books, counts } = rig();
    await books.subscribe(ASSET, EPOCH, 10);
    books.closeAll(true);
    expect(counts.unsubscribe).toBe(0);
    vi.advanceTimersByTime(PARKED_BOOK_MS);
    expect(counts.unsubscribe).toBe(1);
    // A later subscription starts afresh.
    await books.subscribe(ASSET, EPOCH, 10);
    expect(counts.snapshots).toBe(2);
    books.closeAll();
    expect(counts.unsubscribe).toBe(2);
  });

  it('sends a parked sync’s changes to the subscription that took it, not the closed one', async () => {
    const { books, emitted } = rig();
    const first = await books.subscribe(ASSET, EPOCH, 10);
    books.closeAll(true);
    const second = await books.subscribe(ASSET, EPOCH, 10);
    emitted.length = 0;
    books.touchAll();
    expect(emitted).toEqual([second.subscriptionId]);
    expect(emitted).not.toContain(first.subscriptionId);
    books.closeAll();
  });
});
