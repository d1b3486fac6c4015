/**
 * The connection to one deployment, composed of parts with one job each: connection health, the
 * market board (markets, books, feeds, oracle, resolutions), the account desk (the selected
 * account's state) and the signers (facts, pin, one client per key). The session owns their
 * lifecycle and timers; handlers reach the exchange only through it, calling methods on its parts.
 */
import type { SignAs } from '../../../shared/bridge';
import { PROTOCOL_SCALE, type Address } from '../../../shared/protocol';
import {
  ExchangeClient,
  ExchangeClock,
  EpochWatcher,
  MarketFeed,
  OracleFeed,
  type ExchangeError,
} from '../../../client';
import type { Deployment } from '../../settings';
import { AccountDesk } from './account-desk';
import { ConnectionHealth, ORACLE_STALE_MS } from './connection-health';
import { MarketBoard } from './market-board';
import type { MarketEntry } from './market-directory';
import { MarketSet } from './market-set';
import { LEFT_ACCOUNTS_KEPT, LeftAccounts } from './left-accounts';
import { endedOrdersText } from './epoch-end';
import { marketLabel } from './market-name';
import { oldestKept } from './retention';
import { SessionTimers } from './session-timers';
import type { SessionOptions } from './session-options';
import { Signers, type Actor } from './signers';
import { AccountFigures } from '../risk/account-figures';
import { FAIR_AHEAD_MS, figuresSourceOf } from '../risk/figures-source';
import { WhileActive } from './while-active';

export { notConnected } from './signers';
export type { SessionOptions } from './session-options';

const RETRY_CONNECT_MS = 3_000;
/** How long after the person's last input at the window the gate's figures are renewed ahead of time. */
export const PERSON_ACTIVE_MS = 60_000;

export class TradingSession {
  readonly deployment: Deployment;
  readonly clock = new ExchangeClock();
  readonly reader: ExchangeClient;
  readonly epochs: EpochWatcher;
  readonly health: ConnectionHealth;
  readonly board: MarketBoard;
  readonly desk: AccountDesk;
  /** The selected account's risk figures for the order gate, kept between orders. */
  readonly figures: AccountFigures;
  readonly signers: Signers;
  /** The window's list and every market met off it: the ledger reads the account on all (market-set.ts). */
  readonly marketSet: MarketSet;
  /** Keys of this machine the window selected away from with orders still resting: still watched (left-accounts.ts). */
  readonly left: LeftAccounts;
  readonly ready: Promise<void>;
  readonly #o: SessionOptions;
  readonly #marketFeed: MarketFeed;
  readonly #oracleFeed: OracleFeed;
  readonly #timers = new SessionTimers();
  /** Renews the gate's figures ahead of time while the person is at the window. */
  readonly #renewal = new WhileActive({
    periodMs: FAIR_AHEAD_MS / 2,
    activeMs: PERSON_ACTIVE_MS,
    run: () => this.#renewForGate(),
    now: () => Date.now(),
    sleep: (ms) => this.#timers.sleep(ms),
    stopped: () => this.#timers.stopped,
  });
  readonly #unsubscribe: (() => void)[] = [];

  constructor(opts: SessionOptions) {
    this.#o = opts;
    this.deployment = opts.deployment;
    this.marketSet = new MarketSet(opts.markets);
    const marketSet = this.marketSet;
    this.reader = new ExchangeClient({
      baseUrl: opts.deployment.httpUrl,
      timeoutMs: 15_000,
      onResponse: this.clock.onResponse,
    });
    const feedError = (e: ExchangeError): void => {
      opts.logger.debug('session.feed_error', { code: e.code });
      // A feed error usually means its socket just changed state: tell the window now.
      queueMicrotask(() => !this.#timers.stopped && this.health.emitIfChanged());
    };
    this.#marketFeed = new MarketFeed({ url: opts.deployment.marketWsUrl, onError: feedError });
    this.#oracleFeed = new OracleFeed({
      url: opts.deployment.oracleWsUrl,
      staleAfterMs: ORACLE_STALE_MS,
      onError: feedError,
    });
    this.epochs = new EpochWatcher({
      reader: this.reader,
      pollMs: opts.pollMs ?? 1_000,
      onEpoch: (a, previous, current) => this.#onEpoch(a, previous, current),
    });
    this.signers = new Signers({ ...opts, clock: this.clock });
    this.board = new MarketBoard({
      ...opts,
      markets: marketSet,
      reader: this.reader,
      epochs: this.epochs,
      marketFeed: this.#marketFeed,
      oracleFeed: this.#oracleFeed,
      ownLevels: (a, e) => this.desk.ownLevels(a, e),
      onMarketsChanged: () => this.desk.emitIfMarksChanged(),
      now: this.clock.now,
    });
    this.health = new ConnectionHealth({
      ...opts,
      reader: this.reader,
      clock: this.clock,
      marketFeed: this.#marketFeed,
      oracleFeed: this.#oracleFeed,
      bookResyncs: () => this.board.books.resyncs(),
      onChange: () => opts.onConnectionChange(),
    });
    this.desk = new AccountDesk({
      ...opts,
      // Every market followed, listed or not: orders and positions off the list count too.
      get markets() {
        return marketSet.all;
      },
      onMarketsMet: (assetIds) => this.#meet(assetIds),
      onLeave: (state, placedAt, agent) => this.left.leave(state, placedAt, agent),
      onTake: (master) => this.left.take(master),
      reader: this.reader,
      currentEpoch: (a) => this.epochs.current(a),
      topOfBook: (a, e) => this.board.topOfBook(a, e),
      fairPrice: (a, e) => {
        const f = this.board.fairValue(a, e);
        return f.known ? f.price : null;
      },
      settledPrice: (a, e) => {
        const r = this.board.resolution(a, e);
        return r ? (r.upWon ? PROTOCOL_SCALE : 0n) : null;
      },
      settlementToken: () => this.signers.settlementToken(),
      rpc: () => this.health.rpc(),
      onOwnOrdersChanged: () => this.board.books.touchAll(),
      // Brought up to date as the account changes, so the order gate only reads them; the risk ledger looks again.
      onAccountChanged: () => {
        this.figures.refresh();
        opts.onRiskInputs?.('account');
      },
    });
    this.figures = new AccountFigures(figuresSourceOf(this.desk, this.board));
    this.left = new LeftAccounts({
      reader: this.reader,
      markets: () => marketSet.all,
      currentEpoch: (a) => this.epochs.current(a),
      canSign: (address) => this.#canSign(address),
      pending: (address) => opts.pendingOrders?.(address) ?? 0,
      onChange: () => opts.onRiskInputs?.('account'),
      cancelAll: async (a) => {
        const actor = this.actorFor(a.address, a.agent);
        for (const [k, o] of a.state.orders) {
          if (o.buys.length + o.sells.length === 0) continue;
          const [assetId, epoch] = k.split(':').map((x) => BigInt(x)) as [bigint, bigint];
          await (
            actor?.master
              ? actor.client.cancelAllAgent({ assetId, epoch, master: actor.master })
              : actor?.client.cancelAll({ assetId, epoch })
          )?.catch(() => undefined);
        }
        opts.notify(
          'warning',
          `Main cancelled every resting order of ${a.address}: more than ${LEFT_ACCOUNTS_KEPT} accounts were left with orders resting, and one main cannot watch may not keep orders on the book.`,
        );
      },
    });
    this.ready = this.#connect();
  }

  // ------------------------------------------------------------ lifecycle

  async #connect(): Promise<void> {
    while (!this.#timers.stopped) {
      const started = Date.now();
      try {
        await this.signers.readFacts(this.reader);
        this.health.connected(started);
        this.#o.onConnectionChange();
        break;
      } catch (error) {
        this.health.connectFailed(error);
        await this.#timers.sleep(RETRY_CONNECT_MS);
      }
    }
    if (this.#timers.stopped) return;
    this.#o.notify('info', `Connected to ${this.deployment.name}.`);
    for (const m of this.marketSet.all) await this.epochs.track(m.assetId);
    const off = this.board.subscribeFeeds({
      onUpdate: (u) => {
        this.desk.onMarketUpdate(u);
        this.left.onMarketUpdate(u);
      },
      onResyncRequired: () => {
        this.health.marketResynced();
        void this.desk.refresh();
      },
      onOracle: (at) => this.health.oracleSeen(at),
      onOracleStale: () => this.health.oracleStale(),
      // The gate's figures follow the tick at once, so an order right after it finds them made. A
      // throw must not cut the feed's handler short: the gate then computes what it needs itself.
      onFairMoved: () => {
        try {
          this.figures.refresh();
          this.#o.onRiskInputs?.('fair');
        } catch {
          // See above.
        }
      },
    });
    this.#unsubscribe.push(...off);
    if (this.desk.selection.master) await this.desk.select(this.desk.selection);
    this.#watchLeftBeforeRestart();
    this.#timers.every(this.#o.pollMs ?? 1_000, () => this.board.refreshMarkets());
    this.#timers.every(this.#o.healthMs ?? 5_000, () => this.health.probe());
    const balanceMs = this.#o.balancePollMs ?? 5_000;
    this.#timers.every(balanceMs, () => this.desk.pollBalance(balanceMs));
    this.#timers.every(balanceMs, () => this.left.readAll());
    // Socket states are in memory: re-read them every second so the status bar never shows a cut
    // feed as live for the length of a network probe.
    this.#timers.every(1_000, () => Promise.resolve(this.health.emitIfChanged()));
    await Promise.all([this.board.refreshMarkets(), this.health.probe()]);
  }

  #onEpoch(assetId: bigint, previous: bigint | undefined, current: bigint): void {
    this.board.noteEpoch();
    void this.board.refreshMarkets();
    if (previous === undefined) return;
    const ended = this.desk.epochEnded(assetId, previous);
    if (ended.buys + ended.sells > 0)
      this.#o.notify('warning', endedOrdersText(this.#marketName(assetId, previous), ended));
    // What belongs to epochs long over goes, so a day of 1-minute epochs does not pile up.
    this.board.forgetEpochsBefore(assetId, oldestKept(current));
    this.desk.forgetEpochsBefore(assetId, oldestKept(current));
    void this.desk.refresh();
    const wait = { sleep: () => this.#timers.sleep(this.#o.pollMs ?? 1_000), stopped: () => this.#timers.stopped };
    void this.board.awaitResolution(assetId, previous, current, wait, async () => {
      await this.desk.refresh(previous, assetId);
      // Its claim at once, so equity moves from the position's last value straight to what it pays.
      await this.desk.readClaim(assetId, previous);
      this.#o.onResolved?.(assetId, previous);
    });
  }

  /**
   * The person is at the window (main saw real input: user-presence.ts; `press`: a key, button or
   * touch going down). The order gate's figures are renewed at once on a press, as an order it
   * triggers reaches the gate within milliseconds, and then every FAIR_AHEAD_MS / 2 until
   * PERSON_ACTIVE_MS after the last input (while-active.ts). An order with no input before it computes
   * what it needs itself: slower, never less checked.
   */
  personActive(press: boolean): void {
    this.#renewal.note(press);
  }

  /**
   * What the order gate reads, renewed ahead of time while an account is selected: each market's fair
   * value now and the account's figures (risk/account-figures.ts). An order then mostly only reads them.
   */
  #renewForGate(): void {
    if (!this.desk.account?.balance) return;
    for (const m of this.marketSet.all) {
      const epoch = this.epochs.current(m.assetId);
      if (epoch !== undefined) this.board.fairValue(m.assetId, epoch, FAIR_AHEAD_MS);
    }
    this.figures.refresh();
  }

  #marketName(assetId: bigint, epoch: bigint): string {
    const symbol = this.marketSet.entry(assetId)?.symbol ?? assetId.toString();
    return marketLabel(symbol, assetId, epoch);
  }

  /** True once stop() ran: nothing of this session is renewed or read for an order again. */
  get stopped(): boolean {
    return this.#timers.stopped;
  }

  stop(): void {
    this.#timers.stop();
    for (const off of this.#unsubscribe.splice(0)) off();
    this.board.books.closeAll();
    this.epochs.stop();
    this.#marketFeed.close();
    this.#oracleFeed.close();
    this.health.close();
  }

  // ------------------------------------------------------------ what handlers ask of the session itself

  /** Resolves once connected; while the exchange cannot be reached, rejects with the reason (the retries go on). */
  whenConnected = (): Promise<void> => this.health.whenConnected(this.ready);
  /** The window's list. */
  get markets(): readonly MarketEntry[] {
    return this.marketSet.listed;
  }

  /** Whether a market is on the window's list (the only markets the window may trade). */
  isListed(assetId: bigint): boolean {
    return this.marketSet.isListed(assetId);
  }

  /**
   * The window's list was edited (reordered, renamed, added to, cut): applied to this session in place,
   * with no reconnect and every fair value kept. A market new to the session is tracked and subscribed
   * and the account read on it; one taken off the list stays followed (its orders still count).
   */
  setListed(next: readonly MarketEntry[]): void {
    const added = this.marketSet.setListed(next);
    this.board.listChanged();
    this.#follow(added);
  }

  /**
   * Whether this machine signs for `address`: a master key in the vault (not an address only watched),
   * or an account it signed orders for today through an agent key (`tradedHere`).
   */
  #canSign(address: string): boolean {
    const a = address.toLowerCase();
    return (
      (!this.#o.vault.watchOnly.has(address) &&
        this.#o.vault.list().some((k) => k.role === 'master' && k.address.toLowerCase() === a)) ||
      this.#o.tradedHere?.(address) === true
    );
  }

  /**
   * After a restart the desk has the selected account only: the other keys of this machine with orders
   * open today by their records (day-records.ts, a few accounts) are read and watched while they rest.
   */
  #watchLeftBeforeRestart(): void {
    const port = this.#o.dayRecords;
    if (!port) return;
    const selected = this.desk.selection.master?.toLowerCase();
    for (const k of this.#o.vault.list()) {
      if (k.address.toLowerCase() === selected || !this.#canSign(k.address)) continue;
      const open = port.load(k.address).history.filter((e) => e.outcome === 'open');
      if (open.length === 0) continue;
      this.#meet([...new Set(open.map((e) => e.assetId))].map((a) => BigInt(a)));
      this.left.watch(k.address as `0x${string}`);
    }
  }

  /** Markets met in the account's records of the day (not listed, maybe never): followed from now on. */
  #meet(assetIds: readonly bigint[]): void {
    const met = assetIds.filter((a) => this.marketSet.meet(a)).map((a) => this.marketSet.entry(a)!);
    this.#follow(met);
  }

  #follow(markets: readonly MarketEntry[]): void {
    if (markets.length === 0 || this.#timers.stopped) return;
    // Before the feeds are subscribed this subscribes nothing: #connect subscribes every followed market.
    this.#unsubscribe.push(...this.board.follow(markets));
    void Promise.all(markets.map((m) => this.epochs.track(m.assetId)))
      .then(() => {
        if (this.#timers.stopped) return;
        this.board.noteEpoch();
        return Promise.all(
          markets.map((m) => {
            const e = this.epochs.current(m.assetId);
            return e === undefined ? Promise.resolve() : this.desk.refresh(e, m.assetId);
          }),
        );
      })
      .catch(() => undefined);
  }

  /** Who signs for the selected account: the master or its agent. */
  actor = (signAs: SignAs): Actor => this.signers.actor(this.desk.selection, signAs);

  /**
   * Who signs main's own cancels for an account (the selected one, or one the window left,
   * left-accounts.ts): its master key when it is here, else the agent selected with it; null when
   * neither is on this machine.
   */
  actorFor(master: string, agent: string | null): Actor | null {
    const selection = { master: master as Address, agent: agent as Address | null, tradeAs: 'master' as const };
    try {
      return this.signers.actor(selection, 'master');
    } catch {
      try {
        return this.signers.actor(selection, 'agent');
      } catch {
        return null;
      }
    }
  }
}
