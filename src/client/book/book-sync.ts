// Keeps one BookStore (asset, epoch) equal to the exchange's book: REST snapshot plus contiguous
// seqId updates (docs/protocol/feeds.md#sequencing-and-resync). Updates that arrive while a snapshot is in flight are
// buffered and replayed when newer than it; any gap, reset (seqId ≤ current), unusable event or reconnect forces a
// resync. It reports `live` only while the store is exactly snapshot + contiguous updates.
//
// The first snapshot is requested together with the subscription, not after its ack (one exchange round
// trip instead of two). Such an early snapshot may predate the subscription taking effect on the server,
// so updates between the two would be missing: it goes live only once the ack is in and an update with
// seqId ≤ snapshot + 1 has arrived on the subscription (nothing after it can then be missing). A quiet
// book proves nothing: once the ack is in, a snapshot requested after it replaces the early one.
import { ExchangeError } from '../errors';
import type { FeedSubscription, MarketFeed, MarketUpdate } from '../feeds/market-feed';
import { realTimers, type Timers } from '../actions/intents';
import { MAX_BOOK_DEPTH, type ExchangeReader } from '../http/read-client';
import { BookStore } from './book-store';

export type BookHealthState = 'live' | 'resyncing' | 'stale' | 'down';

export interface BookSyncHealth {
  state: BookHealthState;
  reason: string;
  seqId: bigint;
  resyncs: number;
  updatesApplied: number;
  /** ms since the last applied update, or null before the first. */
  lastUpdateAgeMs: number | null;
}

export interface BookSyncOptions {
  assetId: bigint;
  epoch: bigint;
  reader: Pick<ExchangeReader, 'getOrderBook'>;
  feed: MarketFeed;
  /** No update and no ping for this long → stale (default 45 s, docs/protocol/trading-client.md#reference-defaults). */
  staleAfterMs?: number;
  /** First delay before retrying a failed or incomplete resync; doubles to 30 s. */
  resyncDelayMs?: number;
  timers?: Timers;
  now?: () => number;
  /** Called after every change of state or of the book. */
  onChange?: (sync: BookSync) => void;
}

export class BookSync {
  readonly store: BookStore;
  readonly #o: BookSyncOptions;
  readonly #timers: Timers;
  readonly #now: () => number;
  #sub: FeedSubscription | null = null;
  /** True only while store = snapshot + contiguous updates. */
  #synced = false;
  #fetching = false;
  #buffer: MarketUpdate[] = [];
  #retryTimer: unknown = null;
  #staleTimer: unknown = null;
  #failures = 0;
  #stopped = false;
  #reason = 'starting';
  #lastUpdateAt: number | null = null;
  #wasStale = false;
  /** The store holds an early snapshot (+ contiguous updates) not yet proven to join the subscription. */
  #early = false;
  /** seqId of the early snapshot. */
  #earlySeqId = -1n;
  /** Lowest seqId received on the current subscription (null: none yet, or the socket was replaced). */
  #lowestSeen: bigint | null = null;
  readonly counters = { resyncs: 0, updatesApplied: 0, gaps: 0, resets: 0, invalid: 0 };

  constructor(opts: BookSyncOptions) {
    this.#o = opts;
    this.#timers = opts.timers ?? realTimers;
    this.#now = opts.now ?? Date.now;
    this.store = new BookStore(opts.assetId, opts.epoch);
  }

  /**
   * Subscribe and, at the same time, load the first snapshot. Resolves when the first snapshot has
   * joined the subscription (or, failing that, when the first attempt to make it join finishes).
   */
  async start(): Promise<void> {
    this.#sub = this.#o.feed.subscribe(this.#o.assetId, {
      onUpdate: (u) => this.#onUpdate(u),
      onInvalid: (reason) => void this.#resync(`invalid event (${reason})`),
      onResyncRequired: (reason) => this.#lost(`market feed reconnecting: ${reason}`),
    });
    this.#armStale();
    const early = this.#resync('initial snapshot', true);
    let acked = true;
    try {
      await this.#sub.ready;
    } catch {
      acked = false; // the socket retries; the ordinary resync below loads the book once it acks
    }
    await early;
    if (this.#early && !acked) {
      this.#early = false;
      this.#changed();
      this.#schedule(this.#o.resyncDelayMs ?? 250);
      return;
    }
    if (this.#early) await this.#joinEarly();
    else if (acked && !this.#synced && !this.#fetching) {
      // The early snapshot missed updates, or failed: the first one after the ack goes now, not on a timer.
      this.#timers.clearTimeout(this.#retryTimer);
      this.#retryTimer = null;
      await this.#resync('snapshot after the subscription was acknowledged');
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#timers.clearTimeout(this.#retryTimer);
    this.#timers.clearTimeout(this.#staleTimer);
    void this.#sub?.unsubscribe().catch(() => {});
    this.#sub = null;
  }

  health(): BookSyncHealth {
    const age = this.#lastUpdateAt === null ? null : this.#now() - this.#lastUpdateAt;
    let state: BookHealthState;
    let reason = this.#reason;
    if (this.#synced) {
      if (this.#isStale()) {
        state = 'stale';
        reason = `no update or ping for ${Math.round(this.#staleAfter() / 1000)} s`;
      } else state = 'live';
    } else state = this.#o.feed.socket.state === 'open' || this.#fetching || this.#early ? 'resyncing' : 'down';
    return {
      state,
      reason,
      seqId: this.store.seqId,
      resyncs: this.counters.resyncs,
      updatesApplied: this.counters.updatesApplied,
      lastUpdateAgeMs: age,
    };
  }

  #staleAfter(): number {
    return this.#o.staleAfterMs ?? 45_000;
  }

  #isStale(): boolean {
    const last = Math.max(this.#lastUpdateAt ?? 0, this.#o.feed.lastActivityAt, this.#syncedAt);
    return this.#now() - last > this.#staleAfter();
  }

  #syncedAt = 0;

  get #key(): string {
    return this.#o.assetId.toString();
  }

  #armStale(): void {
    if (this.#stopped) return;
    const period = Math.max(50, Math.min(5_000, Math.floor(this.#staleAfter() / 3)));
    this.#staleTimer = this.#timers.setTimeout(() => {
      const stale = this.#synced && this.#isStale();
      if (stale !== this.#wasStale) {
        this.#wasStale = stale;
        this.#changed();
      }
      this.#armStale();
    }, period);
  }

  #changed(): void {
    this.#o.onChange?.(this);
  }

  #onUpdate(u: MarketUpdate): void {
    if (this.#stopped || u.epoch !== this.#o.epoch) return;
    this.#lastUpdateAt = this.#now();
    if (this.#lowestSeen === null || u.seqId < this.#lowestSeen) this.#lowestSeen = u.seqId;
    if (this.#early && u.seqId !== this.store.seqId + 1n) {
      // Not a reset or a gap of a live book: the early snapshot and the subscription are still meeting.
      if (u.seqId <= this.#earlySeqId)
        void this.#joinEarly(); // covered by the snapshot
      else void this.#resync('snapshot after the subscription was acknowledged'); // it missed some
      return;
    }
    if (!this.#synced && !this.#early) {
      if (this.#fetching) this.#buffer.push(u);
      return;
    }
    if (u.seqId === this.store.seqId + 1n) {
      if (!this.store.apply(u)) {
        this.counters.invalid++;
        void this.#resync(`update ${u.seqId} does not fit the book`);
        return;
      }
      this.store.seqId = u.seqId;
      this.counters.updatesApplied++;
      this.#wasStale = false;
      if (this.#early) void this.#joinEarly();
      else this.#changed();
      return;
    }
    if (u.seqId <= this.store.seqId) this.counters.resets++;
    else this.counters.gaps++;
    const why =
      u.seqId <= this.store.seqId
        ? `seqId reset (${u.seqId} after ${this.store.seqId})`
        : `gap (${u.seqId} after ${this.store.seqId})`;
    void this.#resync(why);
  }

  #lost(reason: string): void {
    if (this.#stopped) return;
    this.#synced = false;
    this.#early = false;
    this.#lowestSeen = null;
    this.#reason = reason;
    this.#changed();
    this.#schedule(this.#o.resyncDelayMs ?? 250);
  }

  #schedule(delay: number): void {
    if (this.#stopped || this.#retryTimer !== null) return;
    this.#retryTimer = this.#timers.setTimeout(() => {
      this.#retryTimer = null;
      void this.#resync(this.#reason);
    }, delay);
  }

  /**
   * Fetch a snapshot and replay buffered updates newer than it. One fetch at a time. `early`: the
   * subscription's ack need not be in yet (start's first snapshot; #joinEarly decides whether it holds).
   */
  async #resync(reason: string, early = false): Promise<void> {
    if (this.#stopped) return;
    this.#synced = false;
    this.#early = false;
    this.#reason = reason;
    if (this.#fetching) {
      this.#again = true;
      return;
    }
    const acked = this.#acked();
    if (!acked && !early) {
      // Wait for the socket and the server's ack: a snapshot without a live subscription would gap
      // at once, and a socket that opens but says nothing (a frozen proxy) must not make a live book.
      this.#changed();
      this.#schedule(this.#o.resyncDelayMs ?? 250);
      return;
    }
    this.#fetching = true;
    this.#again = false;
    const beforeAck = !acked;
    // Anything received before the request was sent is covered by the snapshot.
    this.#buffer = [];
    this.counters.resyncs++;
    this.#changed();
    let ok = false;
    let gap = false;
    try {
      const snap = await this.#o.reader.getOrderBook(this.#o.assetId, this.#o.epoch, { depth: MAX_BOOK_DEPTH });
      if (this.#stopped) return;
      if (!this.store.load(snap)) {
        this.#reason = 'the snapshot has no per-order detail or off-grid prices';
      } else {
        this.#earlySeqId = this.store.seqId;
        const replayed = this.#replay();
        ok = replayed === 'joined';
        gap = replayed === 'gap';
      }
    } catch (e) {
      this.#reason = `snapshot failed: ${e instanceof ExchangeError ? e.sentence : String(e)}`;
    } finally {
      this.#fetching = false;
    }
    if (ok && !this.#again && beforeAck) {
      // Held (not live) until the ack is in and an update shows the subscription covers what follows it.
      this.#early = true;
      this.#changed();
      if (this.#acked()) await this.#joinEarly();
      return;
    }
    if (gap && !this.#again && beforeAck) {
      // The early snapshot missed updates the subscription had not yet carried: not a failure; a
      // snapshot requested after the ack (now, or when start() sees it) replaces it.
      this.#changed();
      if (this.#acked()) await this.#resync('snapshot after the subscription was acknowledged');
      return;
    }
    if (ok && !this.#again) {
      this.#goLive();
      return;
    }
    this.#changed();
    if (this.#again) {
      void this.#resync(this.#reason);
      return;
    }
    this.#failures++;
    const base = this.#o.resyncDelayMs ?? 250;
    this.#schedule(Math.min(30_000, base * 2 ** Math.min(this.#failures - 1, 10)));
  }

  #acked(): boolean {
    return this.#o.feed.socket.state === 'open' && this.#o.feed.socket.isAcked(this.#key);
  }

  #goLive(): void {
    this.#early = false;
    this.#synced = true;
    this.#syncedAt = this.#now();
    this.#wasStale = false;
    this.#failures = 0;
    this.#reason = 'in sync';
    this.#changed();
  }

  /**
   * An early snapshot, once the ack is in: live if an update at or below its seqId + 1 arrived on the
   * subscription (the subscription then carries everything after the snapshot), else replaced by one
   * requested now.
   */
  async #joinEarly(): Promise<void> {
    if (!this.#early || this.#stopped || !this.#acked()) return;
    if (this.#lowestSeen !== null && this.#lowestSeen <= this.#earlySeqId + 1n) {
      this.#goLive();
      return;
    }
    await this.#resync('snapshot after the subscription was acknowledged');
  }

  #again = false;

  /** Apply buffered updates newer than the snapshot, in order; 'gap' or 'unfit' if they do not join up. */
  #replay(): 'joined' | 'gap' | 'unfit' {
    const byId = new Map<bigint, MarketUpdate>();
    for (const u of this.#buffer) if (u.seqId > this.store.seqId) byId.set(u.seqId, u);
    this.#buffer = [];
    const ids = [...byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const id of ids) {
      if (id !== this.store.seqId + 1n) {
        this.#reason = `gap in buffered updates (${id} after ${this.store.seqId})`;
        return 'gap';
      }
      if (!this.store.apply(byId.get(id)!)) {
        this.#reason = `buffered update ${id} does not fit the snapshot`;
        return 'unfit';
      }
      this.store.seqId = id;
      this.counters.updatesApplied++;
    }
    return 'joined';
  }
}
