/**
 * The connection to one deployment: chain configuration and pin check, market and oracle feeds,
 * epoch watchers, the market list, streamed books, the selected account's state, and one signing
 * ExchangeClient per key. Handlers reach the exchange only through a session.
 */
import { JsonRpcProvider, Contract } from 'ethers';
import type { AccountSelection, BookView, FeedHealth, FillView, MarketSummary, ResolvedEpoch } from '../../../shared/bridge';
import {
  formatTimeframe,
  makeExchangeDomain,
  unpackAssetId,
  type Address,
  type ExchangeDomain,
  type Hex,
} from '../../../shared/protocol';
import {
  ExchangeClient,
  ExchangeError,
  MarketFeed,
  OracleFeed,
  type DeploymentContext,
  type ExchangeConfig,
  type MarketUpdate,
  type OwnFillRecord,
  type TopOfBook,
} from '../../../client';
import { rpcConnection } from '../../../client';
import type { Logger } from '../../log';
import { describePinChange, type Deployment, type DeploymentPinning, type DomainFacts } from '../../settings';
import { AccountState, EpochWatcher, ExchangeClock, type OwnFill } from '../../../client';
import type { Vault } from '../../vault';
import { BridgeFailure } from '../bridge-runtime';
import type { EventHub } from '../event-hub';
import { accountViewOf } from './account-view';
import { readDeploymentFacts } from './deployment-facts';
import { BookSubscriptions, type OwnLevels } from './book-subscriptions';
import { FeedHealthTracker, socketHealth } from './feed-health';
import type { MarketEntry } from './market-directory';
import { OracleHistory } from './oracle-history';
import { OrderHistory } from './order-history';
import { TradeTape } from './trade-tape';
import { vaultSigner } from './vault-signer';

export interface SessionOptions {
  deployment: Deployment;
  markets: readonly MarketEntry[];
  vault: Vault;
  pinning: DeploymentPinning;
  events: EventHub;
  logger: Logger;
  selection: AccountSelection;
  /** Market list refresh and epoch poll, ms (default 1000). */
  pollMs?: number;
  /** Health probes of HTTP and chain, ms (default 5000). */
  healthMs?: number;
  /** Facts of the built-in devnet written down by its launcher (devnet.json), to pin it without a dialog. */
  attestedFacts?: (deployment: Deployment) => DomainFacts | null;
  /** Feed health or pin changed: the host re-sends `connection`. */
  onConnectionChange(): void;
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  /** An epoch resolved and the account was re-read for it (auto-claim hooks in here). */
  onResolved?(session: TradingSession, assetId: bigint, epoch: bigint): void;
}

/** What the deployment told us about itself at connect time. */
export interface DeploymentFacts {
  chainId: bigint;
  contracts: ExchangeConfig['contracts'];
  domainName: string;
}

interface LastTrade {
  price: bigint;
  at: number;
  sell: boolean | null;
}

const ORACLE_STALE_MS = 30_000;
const MARKET_STALE_MS = 45_000;
const RETRY_CONNECT_MS = 3_000;

export class TradingSession {
  readonly deployment: Deployment;
  readonly clock = new ExchangeClock();
  readonly reader: ExchangeClient;
  readonly oracle = new OracleHistory();
  readonly marketFeed: MarketFeed;
  readonly oracleFeed: OracleFeed;
  readonly epochs: EpochWatcher;
  readonly books: BookSubscriptions;
  facts: DeploymentFacts | null = null;
  account: AccountState | null = null;
  selection: AccountSelection;
  walletTokenBalance: bigint | null = null;
  /**
   * Taker fills of our own orders (maker fills come from the feed via AccountState): at the prices
   * they traded at when the deployment serves GET /fills/:account, else at the order's limit with
   * `priceIsLimit` (orders answer only `filled` and feed trade events name only the maker order:
   * docs/protocol/choices.md#own-fills-and-order-state).
   */
  readonly takerFills: FillView[] = [];
  /** Whether the deployment serves GET /fills/:account: null until asked, false after a 404. */
  fillsSupported: boolean | null = null;
  /** Facts of orders we placed, for the open-orders view. */
  readonly placed = new Map<string, { size: bigint; timeInForce: 'GTC' | 'IOC' | 'FOK' | 'ALO'; placedAt: number; signedBy: 'master' | 'agent' }>();
  /** Claimable amounts by `asset:epoch`, from the last claims read. */
  readonly claimable = new Map<string, bigint>();
  /** When each maker fill arrived, by `orderId:seqId`. */
  readonly fillTimes = new Map<string, number>();
  readonly resolved = new Map<string, ResolvedEpoch>();
  /** The session's orders and their outcomes (bounded), for the order history. */
  readonly history: OrderHistory;
  /** Recent trades of every market from the feed (bounded), for the trades tape and the price chart. */
  readonly tape = new TradeTape();
  readonly #o: SessionOptions;
  readonly #clients = new Map<string, ExchangeClient>();
  readonly #tops = new Map<string, TopOfBook>();
  readonly #last = new Map<string, LastTrade>();
  readonly #health = {
    http: new FeedHealthTracker('http'),
    market: new FeedHealthTracker('market'),
    oracle: new FeedHealthTracker('oracle'),
    chain: new FeedHealthTracker('chain'),
  };
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #unsubscribe: (() => void)[] = [];
  #oracleLastAt: number | null = null;
  #marketsJson = '';
  #marksJson = '';
  #healthJson = '';
  #stopped = false;
  #provider: JsonRpcProvider | null = null;
  /** Why the last attempt to reach the exchange failed; null once it answered. */
  #connectFailure: string | null = null;
  /** Callers waiting in whenConnected(): told at once when an attempt fails, so none waits on a dead exchange. */
  readonly #attemptFailed = new Set<(reason: string) => void>();
  readonly ready: Promise<void>;

  constructor(opts: SessionOptions) {
    this.#o = opts;
    this.deployment = opts.deployment;
    this.selection = opts.selection;
    this.history = new OrderHistory({ onChange: (entries) => opts.events.emit('orderHistory', [...entries]) });
    this.reader = new ExchangeClient({ baseUrl: opts.deployment.httpUrl, timeoutMs: 15_000, onResponse: this.clock.onResponse });
    const feedError = (e: ExchangeError): void => {
      opts.logger.debug('session.feed_error', { code: e.code });
      // A feed error usually means its socket just changed state: tell the window now.
      queueMicrotask(() => {
        if (!this.#stopped) this.#emitHealthIfChanged();
      });
    };
    this.marketFeed = new MarketFeed({ url: opts.deployment.marketWsUrl, onError: feedError });
    this.oracleFeed = new OracleFeed({ url: opts.deployment.oracleWsUrl, staleAfterMs: ORACLE_STALE_MS, onError: feedError });
    this.epochs = new EpochWatcher({
      reader: this.reader,
      pollMs: opts.pollMs ?? 1_000,
      onEpoch: (assetId, previous, current) => this.#onEpoch(assetId, previous, current),
    });
    this.books = new BookSubscriptions({
      reader: this.reader,
      feed: this.marketFeed,
      ownLevels: (a, e) => this.ownLevels(a, e),
      last: (a, e) => this.lastTrade(a, e),
      emit: (subscriptionId, book) => {
        opts.events.emit('book', { subscriptionId, book });
        // The market list follows the live book (same numbers as the ladder), not only the poll.
        this.#emitMarketsIfChanged();
      },
      now: () => Date.now(),
    });
    this.ready = this.#connect();
  }

  /**
   * Resolves once connected. While the exchange cannot be reached it rejects with the reason instead of
   * waiting for the retries (which go on): a call the user made must answer, not hang.
   */
  whenConnected(): Promise<void> {
    if (this.#connectFailure !== null) return Promise.reject(unreachable(this.deployment, this.#connectFailure));
    return new Promise((resolve, reject) => {
      const fail = (reason: string): void => reject(unreachable(this.deployment, reason));
      this.#attemptFailed.add(fail);
      this.ready.then(resolve, reject).finally(() => this.#attemptFailed.delete(fail));
    });
  }

  get markets(): readonly MarketEntry[] {
    return this.#o.markets;
  }

  // ---------------------------------------------------------------- connect

  async #connect(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#readFacts();
        this.#connectFailure = null;
        break;
      } catch (error) {
        const reason = error instanceof ExchangeError ? error.sentence : error instanceof BridgeFailure ? error.message : 'the exchange did not answer';
        this.#health.http.fail('down', reason);
        this.#connectFailure = reason;
        for (const tell of [...this.#attemptFailed]) tell(reason);
        this.#o.onConnectionChange();
        await this.#sleep(RETRY_CONNECT_MS);
      }
    }
    if (this.#stopped) return;
    this.#o.notify('info', `Connected to ${this.deployment.name}.`);
    for (const m of this.#o.markets) await this.epochs.track(m.assetId);
    const symbols = new Set<bigint>();
    for (const m of this.#o.markets) {
      const sub = this.marketFeed.subscribe(m.assetId, {
        onUpdate: (u) => this.#onMarketUpdate(u),
        onResyncRequired: () => {
          this.#health.market.resyncs++;
          void this.refreshAccount();
        },
      });
      this.#unsubscribe.push(() => void sub.unsubscribe().catch(() => {}));
      symbols.add(unpackAssetId(m.assetId).id);
    }
    for (const symbolId of symbols) {
      const sub = this.oracleFeed.subscribe(symbolId, {
        onPrice: (p) => {
          this.#oracleLastAt = p.receivedAt;
          const tick = { symbolId: p.symbolId.toString(), price: p.price.toString(), at: p.tsMs };
          this.oracle.push(tick);
          this.#o.events.emit('oracle', tick);
        },
        onStale: () => {
          this.#health.oracle.resyncs++;
        },
      });
      this.#unsubscribe.push(() => void sub.unsubscribe().catch(() => {}));
    }
    if (this.selection.master) await this.select(this.selection);
    this.#every(this.#o.pollMs ?? 1_000, () => this.refreshMarkets());
    this.#every(this.#o.healthMs ?? 5_000, () => this.#probe());
    // Socket states are in memory: re-read them every second so the status bar never shows a cut
    // feed as live for the length of a network probe.
    this.#every(1_000, () => Promise.resolve(this.#emitHealthIfChanged()));
    await Promise.all([this.refreshMarkets(), this.#probe()]);
  }

  async #readFacts(): Promise<void> {
    const started = Date.now();
    let observed;
    try {
      // Held to the configured chain id: a server on another chain gets nothing pinned and nothing signed.
      observed = await readDeploymentFacts(this.reader, this.deployment.httpUrl, this.deployment.chainId);
    } catch (error) {
      if (error instanceof BridgeFailure) this.#o.pinning.refuse(this.deployment.id, error.message);
      throw error;
    }
    this.#o.pinning.refuse(this.deployment.id, null);
    this.#health.http.ok(Date.now() - started, Date.now());
    this.facts = { chainId: BigInt(observed.facts.chainId), contracts: observed.contracts, domainName: observed.facts.domainName };
    const attested = this.#o.attestedFacts?.(this.deployment) ?? null;
    // Only the built-in devnet is pinned without a person, and only with the facts its launcher wrote
    // down (devnet.json) when there are any; every other first pin waits for main's dialog.
    const trustFirstUse = this.deployment.builtIn === 'devnet' && (attested === null || describePinChange(attested, observed.facts) === '');
    const check = this.#o.pinning.checkPin(this.deployment.id, observed.facts, { trustFirstUse });
    if (check.kind === 'changed') this.#o.notify('warning', `The signing domain of ${this.deployment.name} changed: signing is paused until you accept it.`);
    if (check.kind === 'unconfirmed') this.#o.notify('warning', `Confirm the signing domain and token contracts of ${this.deployment.name} before anything is signed.`);
    this.#o.onConnectionChange();
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const off of this.#unsubscribe.splice(0)) off();
    this.books.closeAll();
    this.epochs.stop();
    this.marketFeed.close();
    this.oracleFeed.close();
    this.#provider?.destroy();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.add(t);
    });
  }

  #every(ms: number, fn: () => Promise<void>): void {
    const tick = (): void => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        void fn()
          .catch(() => {})
          .finally(() => {
            if (!this.#stopped) tick();
          });
      }, ms);
      this.#timers.add(t);
    };
    tick();
  }

  // ---------------------------------------------------------------- health

  async #probe(): Promise<void> {
    const started = Date.now();
    try {
      await this.reader.getHealth({ timeoutMs: 5_000 });
      this.#health.http.ok(Date.now() - started, Date.now());
    } catch (error) {
      const wasLive = this.#health.http.state === 'live';
      this.#health.http.fail('down', error instanceof ExchangeError ? error.sentence : 'the exchange did not answer');
      if (wasLive) this.#o.notify('error', `Lost the connection to ${this.deployment.name}.`);
    }
    await this.#probeChain();
    this.#emitHealthIfChanged();
  }

  async #probeChain(): Promise<void> {
    const started = Date.now();
    try {
      const provider = (this.#provider ??= new JsonRpcProvider(rpcConnection(this.deployment.rpcUrl), undefined, { staticNetwork: true, batchMaxCount: 1 }));
      const chainId = BigInt((await provider.send('eth_chainId', [])) as string);
      if (chainId.toString() !== this.deployment.chainId) this.#health.chain.fail('down', `the node serves chain ${chainId}, not ${this.deployment.chainId}`);
      else this.#health.chain.ok(Date.now() - started, Date.now());
    } catch {
      this.#health.chain.fail('down', 'the chain node did not answer');
    }
  }

  feedHealth(): FeedHealth[] {
    const now = Date.now();
    const market = this.#health.market;
    socketHealth(market, this.marketFeed.socket, this.marketFeed.lastActivityAt || null, now, MARKET_STALE_MS);
    socketHealth(this.#health.oracle, this.oracleFeed.socket, this.#oracleLastAt, now, ORACLE_STALE_MS);
    const views = [this.#health.http.view(), { ...market.view(), resyncs: market.resyncs + this.books.resyncs() }, this.#health.oracle.view(), this.#health.chain.view()];
    return views;
  }

  clockOffsetMs(): number | null {
    return this.clock.samples > 0 ? this.clock.offsetMs : null;
  }

  #emitHealthIfChanged(): void {
    const json = JSON.stringify(this.feedHealth().map((f) => [f.feed, f.state, f.reason, f.resyncs]));
    if (json === this.#healthJson) return;
    this.#healthJson = json;
    this.#o.onConnectionChange();
  }

  // ---------------------------------------------------------------- markets

  market(assetId: bigint): MarketEntry {
    const m = this.#o.markets.find((e) => e.assetId === assetId);
    if (!m) throw new BridgeFailure('markets.unknown', `Asset ${assetId} is not one of the markets of ${this.deployment.name}.`);
    return m;
  }

  async refreshMarkets(): Promise<void> {
    await Promise.all(
      this.#o.markets.map(async (m) => {
        const epoch = this.epochs.current(m.assetId);
        // A market with a live book needs no poll: its top comes from the book.
        if (epoch === undefined) return;
        if (this.books.liveTop(m.assetId, epoch)) {
          // Dropped so that, should the book go down, an old poll answer is not shown as current.
          this.#tops.delete(m.assetId.toString());
          return;
        }
        try {
          this.#tops.set(m.assetId.toString(), await this.reader.getTopOfBook(m.assetId, epoch));
        } catch {
          /* the next poll tries again; the list keeps the previous top */
        }
      }),
    );
    this.#emitMarketsIfChanged();
  }

  #emitMarketsIfChanged(): void {
    const list = this.marketList();
    const json = JSON.stringify(list);
    if (json !== this.#marketsJson) {
      this.#marketsJson = json;
      this.#o.events.emit('markets', list);
      this.#emitAccountIfMarksChanged();
    }
  }

  /** Positions are marked at the top of book: when it moves (or quotes vanish) the account view follows. */
  #emitAccountIfMarksChanged(): void {
    if (!this.account) return;
    const view = accountViewOf(this);
    const json = JSON.stringify(view.positions.map((p) => [p.assetId, p.epoch, p.markPrice, p.unrealisedPnl]));
    if (json === this.#marksJson) return;
    this.#marksJson = json;
    this.#o.events.emit('account', view);
  }

  marketList(): MarketSummary[] {
    const out: MarketSummary[] = [];
    for (const m of this.#o.markets) {
      const asset = this.epochs.asset(m.assetId);
      if (!asset) continue;
      const f = unpackAssetId(m.assetId);
      const start = f.startTime + asset.epoch * f.periodLength;
      const tick = this.oracle.latest(f.id.toString());
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
        resolved: asset.isResolved,
        ledger: asset.ledger,
      });
    }
    return out;
  }

  /** Best bid and ask from the live book when one streams this market, else from the last poll. */
  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null; last: bigint | null; source: 'book' | 'poll' } {
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
    if (u.type === 'trade') {
      // The trade event carries the resting order's side; the aggressor took the other one.
      const at = Date.now();
      this.#last.set(`${u.assetId}:${u.epoch}`, { price: u.data.fillPrice, at, sell: !u.data.side });
      const print = { assetId: u.assetId.toString(), epoch: u.epoch.toString(), price: u.data.fillPrice.toString(), size: u.data.fill.toString(), side: u.data.side ? ('buy' as const) : ('sell' as const), at, seqId: u.seqId.toString() };
      this.tape.push(print);
      // Only the markets the window shows: every market's trades would flood the bridge for nothing.
      if (this.books.watching(u.assetId, u.epoch)) this.#o.events.emit('trade', print);
    }
    this.account?.onMarketUpdate(u);
  }

  /** Resolved epochs of an asset, newest first: what we saw roll over plus the few before the current one. */
  async resolvedEpochs(assetId: bigint, lookback = 5): Promise<ResolvedEpoch[]> {
    this.market(assetId);
    const current = this.epochs.current(assetId) ?? (await this.reader.getAsset(assetId)).epoch;
    for (let e = current - 1n; e >= 0n && current - e <= BigInt(lookback); e--) {
      if (!this.resolved.has(`${assetId}:${e}`)) await this.#readResolution(assetId, e);
    }
    return [...this.resolved.values()].filter((r) => r.assetId === assetId.toString()).sort((a, b) => Number(BigInt(b.epoch) - BigInt(a.epoch)));
  }

  async #readResolution(assetId: bigint, epoch: bigint): Promise<ResolvedEpoch | null> {
    try {
      const a = await this.reader.getAssetAtEpoch(assetId, epoch);
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
      this.resolved.set(`${assetId}:${epoch}`, r);
      return r;
    } catch {
      return null;
    }
  }

  /** When the exchange resolved the epoch (GET /resolve/:assetId/:epoch `ts`); the epoch's expiry if it does not say. */
  async #resolvedAt(assetId: bigint, epoch: bigint, expiration: bigint): Promise<number> {
    const toMs = (t: number): number => (t < 100_000_000_000 ? t * 1000 : t);
    try {
      const r = await this.reader.getResolutionPrice(assetId, epoch);
      if (r.ts > 0) return toMs(r.ts);
    } catch {
      /* a deployment without the route: fall back to the expiry */
    }
    return toMs(Number(expiration));
  }

  #onEpoch(assetId: bigint, previous: bigint | undefined, current: bigint): void {
    void this.refreshMarkets();
    if (previous === undefined) return;
    void this.refreshAccount();
    void (async () => {
      // Resolution lands shortly after the roll-over; look a few times.
      for (let attempt = 0; attempt < 10 && !this.#stopped; attempt++) {
        const r = await this.#readResolution(assetId, previous);
        if (r) {
          // The window words the notice (as the user's notification settings allow).
          this.#o.events.emit('resolution', { ...r, currentEpoch: current.toString() });
          await this.refreshAccount(previous, assetId);
          this.#o.onResolved?.(this, assetId, previous);
          return;
        }
        await this.#sleep(this.#o.pollMs ?? 1_000);
      }
    })();
  }

  // ---------------------------------------------------------------- account

  /** Remembers the account to trade with while not connected; #connect selects it once the exchange answers. */
  keepSelection(selection: AccountSelection): void {
    this.selection = selection;
  }

  async select(selection: AccountSelection): Promise<void> {
    this.selection = selection;
    const master = selection.master;
    if (!master || this.account?.account.toLowerCase() !== master.toLowerCase()) {
      this.account = null;
      this.walletTokenBalance = null;
      this.takerFills.length = 0;
      this.fillsSupported = null;
    }
    if (!master) return;
    if (!this.account) {
      this.account = new AccountState({
        reader: this.reader,
        account: master as Address,
        currentEpoch: () => undefined,
        onChange: () => {
          this.books.touchAll();
          this.#o.events.emit('account', accountViewOf(this));
        },
        onFill: (fill) => this.#onOwnFill(fill),
      });
    }
    await this.refreshAccount();
  }


  /** Re-reads the selected account for every current epoch (or one asset/epoch), plus the wallet's token balance. */
  async refreshAccount(epoch?: bigint, assetId?: bigint): Promise<void> {
    const account = this.account;
    if (!account) return;
    const targets =
      epoch !== undefined && assetId !== undefined
        ? [{ assetId, epoch }]
        : this.#o.markets.flatMap((m) => {
            const e = this.epochs.current(m.assetId);
            return e === undefined ? [] : [{ assetId: m.assetId, epoch: e }];
          });
    await Promise.all([
      ...targets.map((t) => account.refresh(t.assetId, t.epoch).catch(() => false)),
      this.#readWalletBalance(account.account),
      this.#settleLimitPricedFills(),
    ]);
  }

  async #readWalletBalance(owner: Address): Promise<void> {
    const token = this.#o.pinning.pinFor(this.deployment.id)?.spenders?.settlementToken;
    if (!token) return;
    try {
      const provider = (this.#provider ??= new JsonRpcProvider(rpcConnection(this.deployment.rpcUrl), undefined, { staticNetwork: true, batchMaxCount: 1 }));
      const erc20 = new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider);
      this.walletTokenBalance = (await erc20.getFunction('balanceOf').staticCall(owner)) as bigint;
    } catch {
      /* the view shows the last known balance */
    }
  }

  #onOwnFill(fill: OwnFill): void {
    const at = Date.now();
    this.fillTimes.set(`${fill.orderId}:${fill.seqId}`, at);
    const view: FillView = {
      assetId: fill.assetId.toString(),
      epoch: fill.epoch.toString(),
      orderId: fill.orderId,
      side: fill.side ? 'sell' : 'buy',
      price: fill.fillPrice.toString(),
      size: fill.fill.toString(),
      liquidity: 'maker',
      at,
    };
    this.history.filled(fill.orderId, fill.fill);
    // A maker fill: the window words its notice (a taker fill is told by its order's result).
    this.#o.events.emit('fill', view);
  }

  /**
   * An own order filled `filled` as taker: records (and emits as `fill` events) its fills at the
   * prices they traded at, read from GET /fills/:account. Where the deployment does not serve it (or
   * reports less than `filled`), the rest is recorded at the order's limit with `priceIsLimit`: it
   * traded at that price or better. Returns the fills recorded for this order.
   */
  async recordTakerFills(order: { assetId: bigint; epoch: bigint; orderId: Hex; side: 'buy' | 'sell'; limit: bigint; filled: bigint }): Promise<FillView[]> {
    const at = Date.now();
    const records = (await this.#ownTakerFills(order.assetId, order.epoch))?.get(order.orderId.toLowerCase()) ?? [];
    const views = this.#fillViews(order, records, order.filled, at);
    for (const v of views) {
      this.takerFills.push(v);
      this.#o.events.emit('fill', v);
    }
    return views;
  }

  /** Exchange records first (oldest first), then any unreported remainder at the limit, flagged. */
  #fillViews(order: { assetId: bigint; epoch: bigint; orderId: Hex; side: 'buy' | 'sell'; limit: bigint }, records: OwnFillRecord[], filled: bigint, at: number): FillView[] {
    const base = { assetId: order.assetId.toString(), epoch: order.epoch.toString(), orderId: order.orderId, side: order.side, liquidity: 'taker' as const, at };
    const views: FillView[] = records.map((r) => ({ ...base, price: r.price.toString(), size: r.size.toString() }));
    const reported = records.reduce((sum, r) => sum + r.size, 0n);
    if (reported < filled) views.push({ ...base, price: order.limit.toString(), size: (filled - reported).toString(), priceIsLimit: true });
    return views;
  }

  /** The selected account's taker fills in one market by own order id (oldest first); null when not available. */
  async #ownTakerFills(assetId: bigint, epoch: bigint): Promise<Map<string, OwnFillRecord[]> | null> {
    const account = this.account?.account;
    if (!account || this.fillsSupported === false) return null;
    let records: OwnFillRecord[] | null;
    try {
      records = await this.reader.getFills(account, { assetId, epoch, limit: 1000 });
    } catch (error) {
      this.#o.logger.debug('session.fills_unreadable', { code: error instanceof ExchangeError ? error.code : 'UNKNOWN' });
      return null;
    }
    this.fillsSupported = records !== null;
    if (records === null) return null;
    const byOrder = new Map<string, OwnFillRecord[]>();
    for (const r of [...records].reverse()) {
      if (r.liquidity !== 'taker') continue;
      const key = r.orderId.toLowerCase();
      byOrder.set(key, [...(byOrder.get(key) ?? []), r]);
    }
    return byOrder;
  }

  /** On refresh: replaces taker fills still shown at their limit with the exchange's records, where it now has them. */
  async #settleLimitPricedFills(): Promise<void> {
    if (this.fillsSupported === false) return;
    const markets = new Map<string, { assetId: bigint; epoch: bigint }>();
    for (const f of this.takerFills) if (f.priceIsLimit) markets.set(`${f.assetId}:${f.epoch}`, { assetId: BigInt(f.assetId), epoch: BigInt(f.epoch) });
    let changed = false;
    for (const m of markets.values()) {
      const byOrder = await this.#ownTakerFills(m.assetId, m.epoch);
      if (!byOrder) return;
      const orders = new Set(this.takerFills.filter((f) => f.priceIsLimit && f.assetId === m.assetId.toString() && f.epoch === m.epoch.toString()).map((f) => f.orderId.toLowerCase()));
      for (const id of orders) {
        const records = byOrder.get(id) ?? [];
        const mine = this.takerFills.filter((f) => f.orderId.toLowerCase() === id);
        const exact = mine.filter((f) => !f.priceIsLimit).reduce((sum, f) => sum + BigInt(f.size), 0n);
        if (records.reduce((sum, r) => sum + r.size, 0n) <= exact) continue;
        const first = mine[0]!;
        const filled = mine.reduce((sum, f) => sum + BigInt(f.size), 0n);
        const limit = BigInt(mine.find((f) => f.priceIsLimit)!.price);
        const views = this.#fillViews({ ...m, orderId: first.orderId as Hex, side: first.side, limit }, records, filled, first.at);
        const kept = this.takerFills.filter((f) => f.orderId.toLowerCase() !== id);
        this.takerFills.splice(0, this.takerFills.length, ...kept, ...views);
        changed = true;
      }
    }
    if (changed) this.#o.events.emit('account', accountViewOf(this));
  }

  ownLevels(assetId: bigint, epoch: bigint): OwnLevels {
    const bids = new Map<bigint, bigint>();
    const asks = new Map<bigint, bigint>();
    const orders = this.account?.restingOrders(assetId, epoch);
    for (const o of orders?.buys ?? []) bids.set(o.price, (bids.get(o.price) ?? 0n) + o.size);
    for (const o of orders?.sells ?? []) asks.set(o.price, (asks.get(o.price) ?? 0n) + o.size);
    return { bids, asks };
  }

  // ---------------------------------------------------------------- signing

  /** Throws why nothing can be signed now (a pin to confirm or accept, another chain, not connected). */
  assertCanSign(): void {
    this.signingContext();
  }

  /** The pinned domain and the ledger: what every signature of this session is made over. */
  signingContext(): DeploymentContext {
    const pin = this.#o.pinning.pinFor(this.deployment.id);
    // No pin: say why (answered but not confirmed, or another chain) rather than "not connected".
    if (!pin) this.#o.pinning.assertSigningAllowed(this.deployment.id);
    if (!pin || !this.facts) throw notConnected(this.deployment);
    return {
      domain: makeExchangeDomain({ chainId: BigInt(pin.chainId), verifyingContract: pin.verifyingContract as Address, name: pin.domainName }),
      ledger: this.facts.contracts.ledger,
    };
  }

  pinnedDomain(): Readonly<ExchangeDomain> | null {
    const pin = this.#o.pinning.pinFor(this.deployment.id);
    return pin ? makeExchangeDomain({ chainId: BigInt(pin.chainId), verifyingContract: pin.verifyingContract as Address, name: pin.domainName }) : null;
  }

  /** One client per signing key, so nonces and intents are per key (docs/protocol/trading-client.md#setup). */
  client(address: string): ExchangeClient {
    const key = address.toLowerCase();
    let c = this.#clients.get(key);
    if (!c) {
      c = new ExchangeClient({
        baseUrl: this.deployment.httpUrl,
        timeoutMs: 15_000,
        onResponse: this.clock.onResponse,
        signer: vaultSigner(this.#o.vault, address),
        deployment: () => this.signingContext(),
        beforeSign: () => this.assertSigningAllowed(),
        now: () => Date.now() + this.clock.offsetMs,
      });
      this.#clients.set(key, c);
    }
    return c;
  }

  assertSigningAllowed(): void {
    this.#o.pinning.assertSigningAllowed(this.deployment.id);
  }

  /**
   * The contracts a deposit may approve and pay, as the user confirmed them with the pin (never the
   * exchange's current, unpinned configuration). Throws while signing is not allowed, and when the
   * deployment published no such contract when it was pinned.
   */
  pinnedSpenders(): { depositLedger: Address; settlementToken: Address; permit2: Address } {
    this.assertSigningAllowed();
    const spenders = this.#o.pinning.pinFor(this.deployment.id)?.spenders;
    const { depositLedger, settlementToken, permit2 } = spenders ?? { depositLedger: null, settlementToken: null, permit2: null };
    if (!depositLedger || !settlementToken || !permit2) {
      const missing = [!depositLedger && 'deposit ledger', !settlementToken && 'settlement token', !permit2 && 'Permit2'].filter(Boolean).join(', ');
      throw new BridgeFailure('funds.no_pinned_spenders', `${this.deployment.name} published no ${missing} address when its domain was pinned, so deposits are not possible here.`);
    }
    return { depositLedger: depositLedger as Address, settlementToken: settlementToken as Address, permit2: permit2 as Address };
  }
}

function unreachable(deployment: Deployment, reason: string): BridgeFailure {
  const because = reason.replace(/[.\s]+$/, '');
  return new BridgeFailure('connection.unreachable', `Not connected to ${deployment.name}: ${because}. The app keeps trying; nothing was signed or sent.`);
}

export function notConnected(deployment: Deployment): BridgeFailure {
  return new BridgeFailure('connection.not_connected', `Not connected to ${deployment.name} yet: nothing can be signed or sent until it answers.`);
}
