/**
 * A bot's live view of the exchange through the client library's feeds, so a quiet step costs no
 * REST call: oracle prices from OracleFeed (by symbolId), books from BookSync over one MarketFeed
 * (by assetId), own resting orders from AccountState (refreshed after own actions and own fills).
 * REST stays what the library makes it: BookSync's snapshot/resync path, AccountState's refresh,
 * and the fallbacks below when a feed is not live yet.
 */
import { MarketFeed, OracleFeed, type ExchangeReader, type FeedSubscription } from '../../client';
import { AccountState, BookSync } from '../../client';
import type { Address } from '../../shared/protocol';

/** An oracle price older than this is not trusted; the caller falls back to REST. */
export const ORACLE_FRESH_MS = 5_000;

export interface FeedStateOptions {
  reader: Pick<ExchangeReader, 'getOrderBook' | 'getBalance' | 'getBookOrders' | 'getPosition'>;
  account: Address;
  marketWsUrl: string;
  oracleWsUrl: string;
  /** The epoch the bot trades on an asset now (own-order snapshots for another epoch are dropped). */
  currentEpoch(assetId: bigint): bigint | undefined;
  now?: () => number;
}

interface Watched {
  symbolId: bigint;
  subs: FeedSubscription[];
  book?: BookSync;
}

export class FeedState {
  readonly #o: FeedStateOptions;
  readonly #now: () => number;
  readonly #oracle: OracleFeed;
  readonly #market: MarketFeed;
  readonly #account: AccountState;
  readonly #assets = new Map<string, Watched>();
  /** Kept apart from #assets: a bot registers before its first step has tracked the asset. */
  readonly #wakers = new Map<string, Set<() => void>>();
  /** asset:epoch keys whose own-order snapshot is out of date (own action, own fill, feed gap). */
  readonly #dirty = new Set<string>();
  #closed = false;

  constructor(opts: FeedStateOptions) {
    this.#o = opts;
    this.#now = opts.now ?? Date.now;
    const quiet = { onError: () => {} }; // the socket reconnects on its own; a bot logs step failures instead
    this.#oracle = new OracleFeed({ url: opts.oracleWsUrl, ...quiet });
    this.#market = new MarketFeed({ url: opts.marketWsUrl, ...quiet });
    this.#account = new AccountState({
      reader: opts.reader,
      account: opts.account,
      currentEpoch: (assetId) => opts.currentEpoch(assetId),
      // A fill moved one of our levels: re-read and re-quote now, not on the next timer step.
      onFill: (f) => {
        this.#dirty.add(key(f.assetId, f.epoch));
        this.#wake(f.assetId);
      },
    });
  }

  /** Subscribes to the asset's book updates and its symbol's prices (idempotent). */
  track(assetId: bigint, symbolId: bigint): void {
    if (this.#closed || this.#assets.has(assetId.toString())) return;
    const w: Watched = { symbolId, subs: [] };
    this.#assets.set(assetId.toString(), w);
    w.subs.push(
      this.#market.subscribe(assetId, {
        onUpdate: (u) => this.#account.onMarketUpdate(u),
        // Fills may have been missed while the socket was away: own orders must be re-read.
        onResyncRequired: () => this.#markAsset(assetId),
      }),
      this.#oracle.subscribe(symbolId, { onPrice: () => this.#wake(assetId) }),
    );
  }

  /** Keeps a BookSync on (asset, epoch); a new epoch replaces the old one's. */
  followEpoch(assetId: bigint, epoch: bigint): void {
    const w = this.#assets.get(assetId.toString());
    if (!w || this.#closed || w.book?.store.epoch === epoch) return;
    w.book?.stop();
    w.book = new BookSync({ assetId, epoch, reader: this.#o.reader, feed: this.#market });
    void w.book.start().catch(() => {}); // resync failures retry inside BookSync; top() falls back meanwhile
  }

  /** Fresh oracle price from the feed, or undefined (caller falls back to REST). */
  oraclePrice(assetId: bigint): bigint | undefined {
    const w = this.#assets.get(assetId.toString());
    const p = w && this.#oracle.latest(w.symbolId);
    return p && this.#now() - p.receivedAt <= ORACLE_FRESH_MS ? p.price : undefined;
  }

  /** Best prices from the live book, or undefined while it is not live (caller falls back to REST). */
  top(assetId: bigint, epoch: bigint): { bestBid?: bigint; bestAsk?: bigint } | undefined {
    const book = this.#assets.get(assetId.toString())?.book;
    if (!book || book.store.epoch !== epoch || book.health().state !== 'live') return undefined;
    const bid = book.store.bestBid();
    const ask = book.store.bestAsk();
    return { ...(bid ? { bestBid: bid.price } : {}), ...(ask ? { bestAsk: ask.price } : {}) };
  }

  /** Own resting orders; re-read only when something may have changed them since the last read. */
  async ownOrders(
    assetId: bigint,
    epoch: bigint,
  ): Promise<{ id: string; side: boolean; price: bigint; size: bigint }[] | undefined> {
    const k = key(assetId, epoch);
    if (this.#dirty.has(k) || this.#account.restingOrders(assetId, epoch) === undefined) {
      this.#dirty.delete(k); // before the read: a fill during it marks the key again
      if (!(await this.#account.refresh(assetId, epoch))) {
        this.#dirty.add(k);
        return undefined; // snapshot dropped (epoch moved): caller reads REST
      }
    }
    const b = this.#account.restingOrders(assetId, epoch);
    if (!b) return undefined;
    return [
      ...b.buys.map((o) => ({ id: o.id, side: false, price: BigInt(o.price), size: BigInt(o.size) })),
      ...b.sells.map((o) => ({ id: o.id, side: true, price: BigInt(o.price), size: BigInt(o.size) })),
    ];
  }

  /** After any own action: the next ownOrders() re-reads, and fills of `orderHash` are recognised at once. */
  acted(assetId: bigint, epoch: bigint, orderHash?: string): void {
    this.#dirty.add(key(assetId, epoch));
    if (orderHash) this.#account.trackOrder(orderHash as `0x${string}`);
  }

  watch(assetId: bigint, wake: () => void): () => void {
    const k = assetId.toString();
    let set = this.#wakers.get(k);
    if (!set) this.#wakers.set(k, (set = new Set()));
    set.add(wake);
    return () => void set.delete(wake);
  }

  close(): void {
    this.#closed = true;
    for (const w of this.#assets.values()) {
      w.book?.stop();
      for (const s of w.subs) void s.unsubscribe().catch(() => {});
    }
    this.#assets.clear();
    this.#wakers.clear();
    this.#oracle.close();
    this.#market.close();
  }

  #markAsset(assetId: bigint): void {
    const epoch = this.#o.currentEpoch(assetId);
    if (epoch !== undefined) this.#dirty.add(key(assetId, epoch));
    this.#wake(assetId);
  }

  #wake(assetId: bigint): void {
    for (const wake of this.#wakers.get(assetId.toString()) ?? []) wake();
  }
}

const key = (assetId: bigint, epoch: bigint): string => `${assetId}:${epoch}`;
