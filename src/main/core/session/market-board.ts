/**
 * The markets of one deployment as the window sees them: the market list with its quotes and fair
 * values, streamed books, the trade tape and last trades, oracle prices, and resolved epochs. It
 * subscribes the market and oracle feeds and reports each epoch's resolution once the exchange has it.
 */
import type { BookView, MarketSummary, OracleTick, ResolvedEpoch, TradePrint } from '../../../shared/bridge';
import { formatTimeframe, unpackAssetId } from '../../../shared/protocol';
import {
  BookSync,
  estimateVolatility,
  fairValueFrom,
  type EpochWatcher,
  type ExchangeReader,
  type FairValue,
  type MarketFeed,
  type MarketUpdate,
  type OracleFeed,
  type TopOfBook,
  type VolatilityEstimate,
} from '../../../client';
import type { Deployment } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';
import type { EventHub } from '../event-hub';
import { BookSubscriptions, type OwnLevels } from './book-subscriptions';
import type { MarketEntry } from './market-directory';
import { MarketSet } from './market-set';
import { OracleHistory } from './oracle-history';
import { marketLabel } from './market-name';
import { othersTopOf } from './others-top';
import { forgetEpochsBefore } from './retention';
import { TradeTape } from './trade-tape';

interface LastTrade {
  price: bigint;
  at: number;
  sell: boolean | null;
}

export interface MarketBoardOptions {
  deployment: Deployment;
  /** The window's list, or the session's set of followed markets (the list and those off it: market-set.ts). */
  markets: readonly MarketEntry[] | MarketSet;
  reader: Pick<ExchangeReader, 'getOrderBook' | 'getTopOfBook' | 'getAsset' | 'getAssetAtEpoch' | 'getResolutionPrice'>;
  epochs: EpochWatcher;
  marketFeed: MarketFeed;
  oracleFeed: OracleFeed;
  events: EventHub;
  ownLevels(assetId: bigint, epoch: bigint): OwnLevels;
  /** The market list changed: the account marks its positions again. */
  onMarketsChanged(): void;
  /** Exchange time now, ms (the session's ExchangeClock): fair values count the time to expiry by it. */
  now?: () => number;
  /**
   * The deployment's oracle history, kept by the host across sessions: a session restarted (a market
   * list edited, a reconnect) has a fair value at once instead of after a minute of new ticks.
   */
  oracleHistory?: OracleHistory;
}

/** A market's fair value as the market list shows it (see `#shownFair`). */
type ShownFair = Pick<MarketSummary, 'fairPrice' | 'fairNote' | 'fairSigma'>;

/** The list's fair price is rounded to the tenth of a cent the window shows, so time decay alone rarely re-sends it. */
const SHOWN_FAIR_STEP = 1_000n;

/** What the feeds tell the rest of the session. */
export interface FeedHooks {
  onUpdate(u: MarketUpdate): void;
  onResyncRequired(): void;
  onOracle(receivedAt: number): void;
  onOracleStale(): void;
  /** After an oracle tick has moved the fair values of its symbol's markets (computed anew here). */
  onFairMoved?(): void;
}

/** How long a fair value is reused when no oracle tick arrived: the time to expiry moves it little. */
export const FAIR_KEPT_MS = 100;

export class MarketBoard {
  readonly books: BookSubscriptions;
  readonly #o: MarketBoardOptions;
  readonly #oracle: OracleHistory;
  readonly #tape = new TradeTape();
  readonly #tops = new Map<string, TopOfBook>();
  /** The last trade of each market by `asset:epoch`; epochs a session no longer keeps are dropped on roll-over. */
  readonly #last = new Map<string, LastTrade>();
  /** Resolved epochs by `asset:epoch`, dropped like `#last`. */
  readonly #resolved = new Map<string, ResolvedEpoch>();
  /** σ per symbol, estimated from the oracle history when first asked after a tick (one estimate per tick at most). */
  readonly #volatility = new Map<string, VolatilityEstimate>();
  /** Fair values as last computed, by `asset:epoch`, with the oracle tick count they were made at. */
  readonly #fairKept = new Map<string, { tick: number; at: number; value: FairValue }>();
  #fairTick = 0;
  /**
   * Counts what may change a `fairValue` or `resolution` answer, but for the passing of time: oracle
   * ticks, fair values computed, resolutions learnt or dropped, epochs rolling (noteEpoch). The order
   * gate's figures (risk/account-figures.ts) skip re-reading prices while it is unchanged.
   */
  #valuation = 0;
  /** The market list's fair values by asset, refreshed on each oracle tick and market poll, not per book update. */
  readonly #shownFair = new Map<string, { epoch: bigint; shown: ShownFair }>();
  readonly #now: () => number;
  #marketsJson = '';
  readonly #set: MarketSet;
  /** The feeds' hooks once subscribed, and the assets and oracle symbols subscribed with them. */
  #hooks: FeedHooks | null = null;
  readonly #subscribed = new Set<bigint>();
  readonly #symbols = new Set<bigint>();

  constructor(opts: MarketBoardOptions) {
    this.#o = opts;
    this.#set = opts.markets instanceof MarketSet ? opts.markets : new MarketSet(opts.markets);
    this.#now = opts.now ?? Date.now;
    this.#oracle = opts.oracleHistory ?? new OracleHistory();
    this.books = new BookSubscriptions({
      reader: opts.reader,
      feed: opts.marketFeed,
      ownLevels: (a, e) => opts.ownLevels(a, e),
      last: (a, e) => this.lastTrade(a, e),
      emit: (subscriptionId, book) => {
        opts.events.emit('book', { subscriptionId, book });
        // The market list follows the live book (same numbers as the ladder), not only the poll.
        this.#emitMarketsIfChanged();
      },
      now: () => Date.now(),
    });
  }

  /** The window's list. */
  get markets(): readonly MarketEntry[] {
    return this.#set.listed;
  }

  /** A market of the window's list (what the window may ask about); a coded failure for any other. */
  market(assetId: bigint): MarketEntry {
    const m = this.#set.listed.find((e) => e.assetId === assetId);
    if (!m)
      throw new BridgeFailure(
        'markets.unknown',
        `Asset ${assetId} is not one of the markets of ${this.#o.deployment.name}.`,
      );
    return m;
  }

  /**
   * Subscribes every followed market and its oracle symbol, listed or not (a market off the list still
   * needs its trades, for the account's fills, and its fair value, for main's cancels); returns what
   * unsubscribes them. Markets followed later are subscribed by `follow`.
   */
  subscribeFeeds(hooks: FeedHooks): (() => void)[] {
    this.#hooks = hooks;
    return this.follow(this.#set.all);
  }

  /** Subscribes the feeds of markets newly followed (a market added to the list while connected); returns what unsubscribes them. */
  follow(markets: readonly MarketEntry[]): (() => void)[] {
    const hooks = this.#hooks;
    if (!hooks) return [];
    const off: (() => void)[] = [];
    const symbols = new Set<bigint>();
    for (const m of markets) {
      if (this.#subscribed.has(m.assetId)) continue;
      this.#subscribed.add(m.assetId);
      const sub = this.#o.marketFeed.subscribe(m.assetId, {
        onUpdate: (u) => {
          this.#onMarketUpdate(u);
          hooks.onUpdate(u);
        },
        onResyncRequired: () => hooks.onResyncRequired(),
      });
      off.push(() => void sub.unsubscribe().catch(() => {}));
      const symbolId = unpackAssetId(m.assetId).id;
      if (!this.#symbols.has(symbolId)) symbols.add(symbolId);
    }
    for (const symbolId of symbols) {
      this.#symbols.add(symbolId);
      const sub = this.#o.oracleFeed.subscribe(symbolId, {
        onPrice: (p) => {
          hooks.onOracle(p.receivedAt);
          const tick = { symbolId: p.symbolId.toString(), price: p.price.toString(), at: p.tsMs };
          this.#oracle.push(tick, p.price);
          this.#volatility.delete(tick.symbolId);
          this.#fairTick++;
          this.#valuation++;
          this.#refreshShownFair(tick.symbolId);
          hooks.onFairMoved?.();
          this.#o.events.emit('oracle', tick);
        },
        onStale: () => hooks.onOracleStale(),
      });
      off.push(() => void sub.unsubscribe().catch(() => {}));
    }
    return off;
  }

  /**
   * The window's list was edited in place (market-set.ts): the list's fair values are made for the
   * markets now on it and the window hears the new list. Fair values of every market are kept.
   */
  listChanged(): void {
    this.#valuation++;
    this.#refreshShownFair();
    this.#emitMarketsIfChanged();
  }

  /**
   * Follows one market's book for main itself (working orders watch their triggers on it): the same
   * feed as the window's books, no window events; `onChange` after every change of the book or its state.
   */
  followBook(assetId: bigint, epoch: bigint, onChange: () => void): BookSync {
    const sync = new BookSync({ assetId, epoch, reader: this.#o.reader, feed: this.#o.marketFeed, onChange });
    sync.start().catch(() => undefined);
    return sync;
  }

  oracleHistory(symbolId: string): OracleTick[] {
    return this.#oracle.list(symbolId);
  }

  trades(assetId: string, epoch: string): TradePrint[] {
    return this.#tape.recent(assetId, epoch);
  }

  async refreshMarkets(): Promise<void> {
    await Promise.all(
      this.#set.listed.map(async (m) => {
        const epoch = this.#o.epochs.current(m.assetId);
        // A market with a live book needs no poll: its top comes from the book.
        if (epoch === undefined) return;
        if (this.books.liveTop(m.assetId, epoch)) {
          // Dropped so that, should the book go down, an old poll answer is not shown as current.
          this.#tops.delete(m.assetId.toString());
          return;
        }
        try {
          this.#tops.set(m.assetId.toString(), await this.#o.reader.getTopOfBook(m.assetId, epoch));
        } catch {
          /* the next poll tries again; the list keeps the previous top */
        }
      }),
    );
    // Time passes between ticks: the poll ages the fair values (and notices a silent oracle).
    this.#refreshShownFair();
    this.#emitMarketsIfChanged();
  }

  /**
   * The fair value of a market's epoch now (docs/fair-value.md): N(d2) from the newest oracle price,
   * the epoch's strike, the time to its expiry by the exchange's clock and σ estimated from the
   * oracle ticks kept here. Unknown, with the sentence why, for a market or epoch not trading now.
   * `keptMs`: a shorter reuse renews a value ahead of time (the order gate's figures, off its path);
   * `key`: `${assetId}:${epoch}` when the caller holds it.
   */
  fairValue(assetId: bigint, epoch: bigint, keptMs = FAIR_KEPT_MS, key = `${assetId}:${epoch}`): FairValue {
    // The order gate asks on every order: a value stays good until the next oracle tick or 100 ms.
    const now = this.#now();
    const kept = this.#fairKept.get(key);
    if (kept && kept.tick === this.#fairTick && now - kept.at < Math.min(keptMs, FAIR_KEPT_MS)) return kept.value;
    const value = this.#fairValueNow(assetId, epoch);
    this.#valuation++;
    if (this.#fairKept.size > 64) this.#fairKept.clear();
    this.#fairKept.set(key, { tick: this.#fairTick, at: now, value });
    return value;
  }

  #fairValueNow(assetId: bigint, epoch: bigint): FairValue {
    // Any market followed, listed or not: one off the list is still valued (and guarded) by main.
    const m = this.#set.entry(assetId);
    if (!m)
      return {
        known: false,
        reason: `No fair value: asset ${assetId} is not one of the markets of ${this.#o.deployment.name}.`,
      };
    const name = (): string => marketLabel(m.symbol, assetId, epoch);
    const asset = this.#o.epochs.asset(assetId);
    if (!asset) return { known: false, reason: `No fair value yet: ${name()}'s strike has not been read yet.` };
    if (epoch < asset.epoch)
      return { known: false, reason: `No fair value: ${name()} has ended, and its resolution price decides it.` };
    if (epoch > asset.epoch) return { known: false, reason: `No fair value: ${name()} has not started.` };
    const f = unpackAssetId(assetId);
    const symbolId = f.id.toString();
    return fairValueFrom({
      spot: this.#oracle.latestPrice(symbolId),
      volatility: this.#volatilityOf(symbolId),
      strike: asset.strikePrice,
      expiryMs: Number(f.startTime + (epoch + 1n) * f.periodLength) * 1000,
      nowMs: this.#now(),
      symbol: m.symbol,
    });
  }

  #volatilityOf(symbolId: string): VolatilityEstimate {
    let v = this.#volatility.get(symbolId);
    if (!v) {
      this.#volatility.set(symbolId, (v = estimateVolatility(this.#oracle.prices(symbolId))));
    }
    return v;
  }

  /** Recomputes the list's fair values (of one symbol's markets, or all) for the next market-list update. */
  #refreshShownFair(symbolId?: string): void {
    for (const m of this.#set.listed) {
      if (symbolId !== undefined && unpackAssetId(m.assetId).id.toString() !== symbolId) continue;
      const epoch = this.#o.epochs.asset(m.assetId)?.epoch;
      if (epoch !== undefined) this.#computeShownFair(m.assetId, epoch);
    }
  }

  #computeShownFair(assetId: bigint, epoch: bigint): ShownFair {
    const shown = shownFair(this.fairValue(assetId, epoch));
    this.#shownFair.set(assetId.toString(), { epoch, shown });
    return shown;
  }

  /** The list's fair value of the epoch: as last refreshed, or now when that was another epoch's. */
  #listFair(assetId: bigint, epoch: bigint): ShownFair {
    const kept = this.#shownFair.get(assetId.toString());
    return kept?.epoch === epoch ? kept.shown : this.#computeShownFair(assetId, epoch);
  }

  #emitMarketsIfChanged(): void {
    const list = this.marketList();
    const json = JSON.stringify(list);
    if (json === this.#marketsJson) return;
    this.#marketsJson = json;
    this.#o.events.emit('markets', list);
    this.#o.onMarketsChanged();
  }

  marketList(): MarketSummary[] {
    const out: MarketSummary[] = [];
    for (const m of this.#set.listed) {
      const asset = this.#o.epochs.asset(m.assetId);
      if (!asset) continue;
      const f = unpackAssetId(m.assetId);
      const start = f.startTime + asset.epoch * f.periodLength;
      const tick = this.#oracle.latest(f.id.toString());
      const q = this.topOfBook(m.assetId, asset.epoch);
      out.push({
        assetId: m.assetId.toString(),
        symbolId: f.id.toString(),
        symbol: m.symbol,
        periodSeconds: Number(f.periodLength),
        timeframe: formatTimeframe(f.periodLength),
        epoch: asset.epoch.toString(),
        epochStart: Number(start) * 1000,
        expiration: Number(start + f.periodLength) * 1000,
        strike: asset.strikePrice.toString(),
        oraclePrice: tick?.price ?? null,
        oracleAt: tick?.at ?? null,
        bestBid: q.bid?.toString() ?? null,
        bestAsk: q.ask?.toString() ?? null,
        lastPrice: q.last?.toString() ?? null,
        quoteSource: q.source,
        othersQuotes: this.#othersQuotes(m.assetId, asset.epoch),
        resolved: asset.isResolved,
        ledger: asset.ledger,
        ...this.#listFair(m.assetId, asset.epoch),
      });
    }
    return out;
  }

  /** Other traders' best quotes (own orders left out), as decimal strings for the market list. */
  #othersQuotes(assetId: bigint, epoch: bigint): MarketSummary['othersQuotes'] {
    const top = this.#tops.get(assetId.toString());
    const poll = top !== undefined && top.epoch === epoch ? top : null;
    const q = othersTopOf(this.books.liveLevels(assetId, epoch), poll, this.#o.ownLevels(assetId, epoch));
    return { bid: q.bid?.toString() ?? null, ask: q.ask?.toString() ?? null, ownOnly: q.ownOnly };
  }

  /** Best bid and ask from the live book when one streams this market, else from the last poll. */
  topOfBook(
    assetId: bigint,
    epoch: bigint,
  ): { bid: bigint | null; ask: bigint | null; last: bigint | null; source: 'book' | 'poll' } {
    const top = this.#tops.get(assetId.toString());
    const fits = top !== undefined && top.epoch === epoch;
    const last = this.#last.get(`${assetId}:${epoch}`)?.price ?? (fits && top.last > 0n ? top.last : null);
    const live = this.books.liveTop(assetId, epoch);
    if (live) return { ...live, last, source: 'book' };
    // An empty side may come as a level priced 0: that is no quote, not a price of 0.
    const side = (l: TopOfBook['bid'] | undefined): bigint | null => (fits && l && l.price > 0n ? l.price : null);
    return { bid: side(top?.bid), ask: side(top?.ask), last, source: 'poll' };
  }

  lastTrade(assetId: bigint, epoch: bigint): BookView['last'] {
    const l = this.#last.get(`${assetId}:${epoch}`);
    if (!l) return null;
    return { price: l.price.toString(), at: l.at, side: l.sell === null ? null : l.sell ? 'sell' : 'buy' };
  }

  #onMarketUpdate(u: MarketUpdate): void {
    if (u.type !== 'trade') return;
    // The trade event carries the resting order's side; the aggressor took the other one.
    const at = Date.now();
    this.#last.set(`${u.assetId}:${u.epoch}`, { price: u.data.fillPrice, at, sell: !u.data.side });
    const print = {
      assetId: u.assetId.toString(),
      epoch: u.epoch.toString(),
      price: u.data.fillPrice.toString(),
      size: u.data.fill.toString(),
      side: u.data.side ? ('buy' as const) : ('sell' as const),
      at,
      seqId: u.seqId.toString(),
    };
    this.#tape.push(print);
    // Only the markets the window shows: every market's trades would flood the bridge for nothing.
    if (this.books.watching(u.assetId, u.epoch)) this.#o.events.emit('trade', print);
  }

  /** An asset rolled over: its last trades and resolutions before `oldest` are dropped. */
  forgetEpochsBefore(assetId: bigint, oldest: bigint): void {
    forgetEpochsBefore(this.#last, assetId, oldest);
    forgetEpochsBefore(this.#resolved, assetId, oldest);
    this.#valuation++;
  }

  /** An asset's epoch rolled over: which epochs have ended changed (see `valuation`). */
  noteEpoch(): void {
    this.#valuation++;
  }

  /** See #valuation: unchanged means every fair value and resolution answers as before, time apart. */
  get valuation(): number {
    return this.#valuation;
  }

  /** The board's clock (what fair values are kept by). */
  now(): number {
    return this.#now();
  }

  /** The resolution of one epoch, when it has been read. */
  resolution(assetId: bigint, epoch: bigint): ResolvedEpoch | undefined {
    return this.#resolved.get(`${assetId}:${epoch}`);
  }

  /** Resolved epochs of an asset, newest first: what we saw roll over plus the few before the current one. */
  async resolvedEpochs(assetId: bigint, lookback = 5): Promise<ResolvedEpoch[]> {
    this.market(assetId);
    const current = this.#o.epochs.current(assetId) ?? (await this.#o.reader.getAsset(assetId)).epoch;
    for (let e = current - 1n; e >= 0n && current - e <= BigInt(lookback); e--) {
      if (!this.#resolved.has(`${assetId}:${e}`)) await this.readResolution(assetId, e);
    }
    return [...this.#resolved.values()]
      .filter((r) => r.assetId === assetId.toString())
      .sort((a, b) => Number(BigInt(b.epoch) - BigInt(a.epoch)));
  }

  /**
   * After a roll-over: looks for `previous`'s resolution a few times (it lands shortly after), and
   * once found emits it and calls `onResolved`.
   */
  async awaitResolution(
    assetId: bigint,
    previous: bigint,
    current: bigint,
    wait: { sleep(): Promise<void>; stopped(): boolean },
    onResolved: () => Promise<void>,
  ): Promise<void> {
    for (let attempt = 0; attempt < 10 && !wait.stopped(); attempt++) {
      const r = await this.readResolution(assetId, previous);
      if (r) {
        // The window words the notice (as the user's notification settings allow).
        this.#o.events.emit('resolution', { ...r, currentEpoch: current.toString() });
        await onResolved();
        return;
      }
      await wait.sleep();
    }
  }

  async readResolution(assetId: bigint, epoch: bigint): Promise<ResolvedEpoch | null> {
    try {
      const a = await this.#o.reader.getAssetAtEpoch(assetId, epoch);
      const resolved = a.isResolved ?? a.resolutionPrice > 0n;
      if (!resolved) return null;
      const r: ResolvedEpoch = {
        assetId: assetId.toString(),
        epoch: epoch.toString(),
        strike: a.strikePrice.toString(),
        resolutionPrice: a.resolutionPrice.toString(),
        // Devnet rule (markets/catalog.ts): Up wins when the resolution price is at or above the strike.
        upWon: a.resolutionPrice >= a.strikePrice,
        resolvedAt: await this.#resolvedAt(assetId, epoch, a.expiration),
        // The exchange publishes no id of the resolution's journal entry or transaction.
        txId: null,
      };
      this.#resolved.set(`${assetId}:${epoch}`, r);
      this.#valuation++;
      return r;
    } catch {
      return null;
    }
  }

  /** When the exchange resolved the epoch (GET /resolve/:assetId/:epoch `ts`); the epoch's expiry if it does not say. */
  async #resolvedAt(assetId: bigint, epoch: bigint, expiration: bigint): Promise<number> {
    const toMs = (t: number): number => (t < 100_000_000_000 ? t * 1000 : t);
    try {
      const r = await this.#o.reader.getResolutionPrice(assetId, epoch);
      if (r.ts > 0) return toMs(r.ts);
    } catch {
      /* a deployment without the route: fall back to the expiry */
    }
    return toMs(Number(expiration));
  }
}

/** The list's view of a fair value: the price to a tenth of a cent, σ to a percent, or the sentence why there is none. */
function shownFair(fv: FairValue): ShownFair {
  if (!fv.known) return { fairPrice: null, fairNote: fv.reason, fairSigma: null };
  const rounded = ((fv.price + SHOWN_FAIR_STEP / 2n) / SHOWN_FAIR_STEP) * SHOWN_FAIR_STEP;
  return { fairPrice: rounded.toString(), fairNote: null, fairSigma: Math.round(fv.sigma * 100) / 100 };
}
