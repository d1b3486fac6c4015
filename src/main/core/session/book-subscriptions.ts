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
  /** Where the sync's changes go: this subscription's coalescer, or nowhere while parked. */
  relay: Relay;
}

/** A book sync's change callback, re-pointed when a parked sync serves a new subscription. */
interface Relay {
  changed: () => void;
}

/** A closed subscription's sync, kept in step with the feed for a while in case the book is asked for again. */
interface Parked {
  sync: BookSync;
  relay: Relay;
  timer: ReturnType<typeof setTimeout>;
}

const MAX_SUBSCRIPTIONS = 32;
/**
 * A page reload (or the Trade screen opened again) asks for the same book a moment later: a sync kept
 * in step for this long answers at once, where a new one waits for the exchange's snapshot (hundreds of
 * ms with the market busy: issue 29, page load → ladder with quotes).
 */
export const PARKED_BOOK_MS = 60_000;
const MAX_PARKED = 4;

export class BookSubscriptions {
  readonly #subs = new Map<string, Subscription>();
  /** Most recently parked last. */
  readonly #parked: Parked[] = [];
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
    const parked = this.#unpark(assetId, epoch);
    const relay: Relay = parked?.relay ?? { changed: () => {} };
    const sync =
      parked?.sync ??
      new BookSync({
        assetId,
        epoch,
        reader: this.sources.reader,
        feed: this.sources.feed,
        onChange: () => relay.changed(),
      });
    relay.changed = () => coalescer.push(null);
    const sub = { sync, depth, coalescer, relay };
    this.#subs.set(subscriptionId, sub);
    if (!parked) await sync.start();
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

  /** Closes every subscription; `park`: keep their syncs for a while (a page going away), else stop them. */
  closeAll(park = false): void {
    for (const [id, sub] of this.#subs) this.#close(id, sub, park);
    if (!park) for (const p of this.#parked.splice(0)) this.#stopParked(p);
  }

  #close(id: string, sub: Subscription, park = true): void {
    sub.coalescer.dispose();
    this.#subs.delete(id);
    if (!park) {
      sub.sync.stop();
      return;
    }
    sub.relay.changed = () => {};
    const parked: Parked = {
      sync: sub.sync,
      relay: sub.relay,
      timer: setTimeout(() => {
        const i = this.#parked.indexOf(parked);
        if (i >= 0) this.#stopParked(this.#parked.splice(i, 1)[0]!);
      }, PARKED_BOOK_MS),
    };
    parked.timer.unref?.();
    this.#parked.push(parked);
    while (this.#parked.length > MAX_PARKED) this.#stopParked(this.#parked.shift()!);
  }

  /** A parked sync of this book still in step with the feed, taken out of the park; else null. */
  #unpark(assetId: bigint, epoch: bigint): Parked | null {
    for (let i = this.#parked.length - 1; i >= 0; i--) {
      const p = this.#parked[i]!;
      if (p.sync.store.assetId !== assetId || p.sync.store.epoch !== epoch) continue;
      this.#parked.splice(i, 1);
      clearTimeout(p.timer);
      if (p.sync.health().state === 'live') return p;
      this.#stopParked(p);
      return null;
    }
    return null;
  }

  #stopParked(p: Parked): void {
    clearTimeout(p.timer);
    p.sync.stop();
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
