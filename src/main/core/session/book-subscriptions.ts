/**
 * Streamed books: one BookSync per subscription, its snapshots coalesced to at most 30 `book`
 * events a second, each level annotated with the selected account's own resting size.
 */
import { randomUUID } from 'node:crypto';
import type { BookView } from '../../../shared/bridge';
import type { MarketFeed } from '../../../client';
import type { ExchangeReader } from '../../../client';
import { BookSync } from '../../../client';
import { BridgeFailure } from '../bridge-runtime';
import { createCoalescer, type Coalescer } from './coalescer';

/** Own resting size by price, per side (decimal price → size). */
export interface OwnLevels {
  bids: ReadonlyMap<bigint, bigint>;
  asks: ReadonlyMap<bigint, bigint>;
}

export interface BookSources {
  reader: Pick<ExchangeReader, 'getOrderBook'>;
  feed: MarketFeed;
  ownLevels(assetId: bigint, epoch: bigint): OwnLevels;
  last(assetId: bigint, epoch: bigint): BookView['last'];
  emit(subscriptionId: string, book: BookView): void;
  now(): number;
}

interface Subscription {
  sync: BookSync;
  depth: number;
  coalescer: Coalescer<null>;
}

const MAX_SUBSCRIPTIONS = 32;

export class BookSubscriptions {
  readonly #subs = new Map<string, Subscription>();
  constructor(private readonly sources: BookSources) {}

  async subscribe(assetId: bigint, epoch: bigint, depth: number): Promise<{ subscriptionId: string; book: BookView }> {
    if (this.#subs.size >= MAX_SUBSCRIPTIONS) {
      throw new BridgeFailure(
        'markets.too_many_books',
        `At most ${MAX_SUBSCRIPTIONS} books can stream at once; close one first.`,
      );
    }
    const subscriptionId = randomUUID();
    const coalescer = createCoalescer<null>(() => {
      const sub = this.#subs.get(subscriptionId);
      if (sub) this.sources.emit(subscriptionId, this.view(sub));
    }, 30);
    const sync = new BookSync({
      assetId,
      epoch,
      reader: this.sources.reader,
      feed: this.sources.feed,
      onChange: () => coalescer.push(null),
    });
    const sub = { sync, depth, coalescer };
    this.#subs.set(subscriptionId, sub);
    await sync.start();
    return { subscriptionId, book: this.view(sub) };
  }

  unsubscribe(subscriptionId: string): void {
    const sub = this.#subs.get(subscriptionId);
    if (!sub)
      throw new BridgeFailure(
        'markets.unknown_subscription',
        'That book is not streaming (it may have been closed already).',
      );
    this.#close(subscriptionId, sub);
  }

  /** Own orders changed: every book re-sends its own sizes. */
  touchAll(): void {
    for (const sub of this.#subs.values()) sub.coalescer.push(null);
  }

  /**
   * The whole live book of a market when one of our subscriptions streams it in sync, else null
   * (the caller falls back to a fresh snapshot). Levels best first, protocol integers.
   */
  liveLevels(
    assetId: bigint,
    epoch: bigint,
  ): { bids: { price: bigint; size: bigint }[]; asks: { price: bigint; size: bigint }[] } | null {
    for (const sub of this.#subs.values()) {
      const { store } = sub.sync;
      if (store.assetId !== assetId || store.epoch !== epoch || sub.sync.health().state !== 'live') continue;
      return store.view();
    }
    return null;
  }

  /** Best bid and ask of a market from a live, in-sync subscription; null when none streams it. */
  liveTop(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null } | null {
    for (const sub of this.#subs.values()) {
      const { store } = sub.sync;
      if (store.assetId !== assetId || store.epoch !== epoch || sub.sync.health().state !== 'live') continue;
      return { bid: store.bestBid()?.price ?? null, ask: store.bestAsk()?.price ?? null };
    }
    return null;
  }

  /** Whether the window streams this market's book (it then wants its trades too). */
  watching(assetId: bigint, epoch: bigint): boolean {
    for (const sub of this.#subs.values())
      if (sub.sync.store.assetId === assetId && sub.sync.store.epoch === epoch) return true;
    return false;
  }

  resyncs(): number {
    let n = 0;
    for (const sub of this.#subs.values()) n += sub.sync.health().resyncs;
    return n;
  }

  closeAll(): void {
    for (const [id, sub] of this.#subs) this.#close(id, sub);
  }

  #close(id: string, sub: Subscription): void {
    sub.coalescer.dispose();
    sub.sync.stop();
    this.#subs.delete(id);
  }

  view(sub: Subscription): BookView {
    const { store } = sub.sync;
    const own = this.sources.ownLevels(store.assetId, store.epoch);
    const level = (mine: ReadonlyMap<bigint, bigint>) => (l: { price: bigint; size: bigint; orderCount: number }) => ({
      price: l.price.toString(),
      size: l.size.toString(),
      orderCount: l.orderCount,
      ownSize: (mine.get(l.price) ?? 0n).toString(),
    });
    const health = sub.sync.health();
    const view = store.view(sub.depth);
    return {
      assetId: store.assetId.toString(),
      epoch: store.epoch.toString(),
      seqId: store.seqId < 0n ? '0' : store.seqId.toString(),
      bids: view.bids.map(level(own.bids)),
      asks: view.asks.map(level(own.asks)),
      last: this.sources.last(store.assetId, store.epoch),
      health: {
        state: health.state,
        reason: health.reason,
        resyncs: health.resyncs,
        lastUpdateAt: health.lastUpdateAgeMs === null ? null : Math.max(0, this.sources.now() - health.lastUpdateAgeMs),
      },
    };
  }
}
