/**
 * The selected account: balances, positions, open orders, fills, the order history and claimable
 * amounts. Handlers tell it what they did (an order sent, orders cancelled, a claim made); it keeps
 * what the window shows, each collection bounded (retention.ts), and emits `account` when it changes.
 */
import { Contract, type JsonRpcProvider } from 'ethers';
import type { AccountSelection, AccountView, FillView, OrderHistoryEntry } from '../../../shared/bridge';
import type { Address, Hex } from '../../../shared/protocol';
import { AccountState, type ExchangeReader, type MarketUpdate, type OwnFill } from '../../../client';
import type { Logger } from '../../log';
import { BridgeFailure } from '../bridge-runtime';
import type { EventHub } from '../event-hub';
import { accountViewOf, type AccountViewSource, type PlacedFacts } from './account-view';
import type { OwnLevels } from './book-subscriptions';
import type { MarketEntry } from './market-directory';
import { OrderHistory, orderHistoryEntryOf, type PlacedOrder } from './order-history';
import {
  BoundedMap,
  CLAIMABLE_KEPT,
  CLOSED_ORDER_GRACE_MS,
  FILL_TIMES_KEPT,
  PLACED_ORDERS_KEPT,
  SWEEP_EVERY_MS,
} from './retention';
import { TakerFills, type TakerOrder } from './taker-fills';
import {
  DAY_POSITIONS_KEPT,
  type DayFill,
  type DayPosition,
  type DayRecords,
  type DayRecordsPort,
} from './day-records';
import { dayPositionOf, filledByOrder, makerFillView, missingFills, positionOfDay, showsSomething } from './day-merge';

export interface AccountDeskOptions {
  reader: Pick<ExchangeReader, 'getBalance' | 'getBookOrders' | 'getPosition' | 'getFills' | 'getClaimable'>;
  markets: readonly MarketEntry[];
  events: EventHub;
  logger: Logger;
  selection: AccountSelection;
  currentEpoch(assetId: bigint): bigint | undefined;
  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null };
  /** Fair value of a live market's epoch, null when none (account-view.ts values positions at it). */
  fairPrice(assetId: bigint, epoch: bigint): bigint | null;
  /** An ended epoch's settled price, null while its resolution is not known. */
  settledPrice(assetId: bigint, epoch: bigint): bigint | null;
  /** The pinned settlement token, whose wallet balance the view shows; null without a pin. */
  settlementToken(): string | null;
  rpc(): JsonRpcProvider;
  /** Own resting orders changed: the books re-send their own sizes. */
  onOwnOrdersChanged(): void;
  /** The selected account's state changed (after the view is emitted). */
  onAccountChanged?(): void;
  /**
   * The account's records of the day name these markets (a position, an order still open): the session
   * follows them, listed or not, so what is open there is read and counted (market-set.ts).
   */
  onMarketsMet?(assetIds: readonly bigint[]): void;
  /** Another account is selected: the one left, with when its orders were placed here (left-accounts.ts keeps watching it). */
  /** `agent`: the agent key selected with it, which signs its cancels when the master's key is not here. */
  onLeave?(state: AccountState, placedAt: (orderId: string) => number | undefined, agent: Address | null): void;
  /** `master` is selected (again): the desk watches it now. */
  onTake?(master: string): void;
  placedKept?: number;
  /** Clock for the closed-order grace (tests). */
  now?: () => number;
  fillTimesKept?: number;
  /**
   * Today's fills, order history and positions of an account, kept in main's store so a restart keeps
   * the day (day-records.ts); without it they last as long as the session.
   */
  dayRecords?: DayRecordsPort;
}

/** Ended epochs' open positions re-read from the exchange after a restart (the rest come from the store). */
const REREAD_KEPT_POSITIONS = 32;
const DAY_MS = 86_400_000;

/** An order the exchange answered: what the open-orders view and the history remember of it. */
export type SentOrder = Omit<PlacedOrder, 'orderId'> & { orderId: Hex };

export class AccountDesk implements AccountViewSource {
  selection: AccountSelection;
  account: AccountState | null = null;
  walletTokenBalance: bigint | null = null;
  readonly #o: AccountDeskOptions;
  readonly #history: OrderHistory;
  readonly #taker: TakerFills;
  /** Facts of orders we placed, for the open-orders view; orders no longer open are dropped first. */
  readonly #placed: BoundedMap<string, PlacedFacts>;
  /** When each maker fill arrived, by `orderId:seqId`. */
  readonly #fillTimes: BoundedMap<string, number>;
  /** Claimable amounts by `asset:epoch`, from the last claims read. */
  readonly #claimable = new BoundedMap<string, bigint>(CLAIMABLE_KEPT);
  #marksJson = '';
  #sweptAt = 0;
  /** Today's maker fills read back after a restart (the taker ones went back to #taker), with their feed sequence id. */
  #earlierFills: { fill: FillView; seq: string | null }[] = [];
  /** Today's positions as last seen, by `asset:epoch`: kept in the store, read back after a restart. */
  readonly #dayPositions = new Map<string, DayPosition>();
  /** The account state whose day was read back: only its records are saved (never an empty desk over them). */
  #dayOf: AccountState | null = null;

  constructor(opts: AccountDeskOptions) {
    this.#o = opts;
    this.selection = opts.selection;
    this.#history = new OrderHistory({
      onChange: (entries) => {
        opts.events.emit('orderHistory', [...entries]);
        this.#saveDay();
      },
    });
    this.#taker = new TakerFills({ reader: opts.reader, logger: opts.logger });
    this.#placed = new BoundedMap(opts.placedKept ?? PLACED_ORDERS_KEPT, (id) => !this.#isOpen(id));
    this.#fillTimes = new BoundedMap(opts.fillTimesKept ?? FILL_TIMES_KEPT);
  }

  // ---------------------------------------------------------------- the view

  get markets(): readonly MarketEntry[] {
    return this.#o.markets;
  }

  /**
   * The fills the view shows besides the maker fills the account state heard: the taker fills, and
   * today's maker fills read back after a restart (day-records.ts).
   */
  get takerFills(): readonly FillView[] {
    if (this.#earlierFills.length === 0) return this.#taker.list();
    return [...this.#earlierFills.map((e) => e.fill), ...this.#taker.list()];
  }

  currentEpoch(assetId: bigint): bigint | undefined {
    return this.#o.currentEpoch(assetId);
  }

  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null } {
    return this.#o.topOfBook(assetId, epoch);
  }

  fairPrice(assetId: bigint, epoch: bigint): bigint | null {
    return this.#o.fairPrice(assetId, epoch);
  }

  settledPrice(assetId: bigint, epoch: bigint): bigint | null {
    return this.#o.settledPrice(assetId, epoch);
  }

  claimable(assetId: bigint, epoch: bigint): bigint {
    return this.#claimable.get(`${assetId}:${epoch}`) ?? 0n;
  }

  claimKnown(assetId: bigint, epoch: bigint): boolean {
    return this.#claimable.get(`${assetId}:${epoch}`) !== undefined;
  }

  placed(orderId: string): PlacedFacts | undefined {
    return this.#placed.get(orderId.toLowerCase());
  }

  fillTime(orderId: string, seqId: bigint): number | undefined {
    return this.#fillTimes.get(`${orderId}:${seqId}`);
  }

  view(error: string | null = null): AccountView {
    return accountViewOf(this, error);
  }

  history(): OrderHistoryEntry[] {
    return this.#history.list();
  }

  ownLevels(assetId: bigint, epoch: bigint): OwnLevels {
    const bids = new Map<bigint, bigint>();
    const asks = new Map<bigint, bigint>();
    const orders = this.account?.restingOrders(assetId, epoch);
    for (const o of orders?.buys ?? []) bids.set(o.price, (bids.get(o.price) ?? 0n) + o.size);
    for (const o of orders?.sells ?? []) asks.set(o.price, (asks.get(o.price) ?? 0n) + o.size);
    return { bids, asks };
  }

  /** Positions are marked at the top of book: when it moves (or quotes vanish) the account view follows. */
  emitIfMarksChanged(): void {
    if (!this.account) return;
    const view = this.view();
    const json = JSON.stringify(view.positions.map((p) => [p.assetId, p.epoch, p.markPrice, p.unrealisedPnl]));
    if (json === this.#marksJson) return;
    this.#marksJson = json;
    this.#o.events.emit('account', view);
  }

  // ---------------------------------------------------------------- what handlers did

  /** An order the exchange answered (or had already processed): tracked for fills, shown, and in the history. */
  orderSent(o: SentOrder): void {
    this.account?.trackOrder(o.orderId);
    const now = this.#now();
    this.#placed.set(o.orderId.toLowerCase(), {
      size: o.size,
      timeInForce: o.timeInForce,
      placedAt: now,
      signedBy: o.signedBy,
    });
    // The one entry first, small and at once (the window's own-order echo settles on it), then the history.
    this.#o.events.emit('orderAnswered', orderHistoryEntryOf(o, now));
    this.#history.placed(o);
    if (now - this.#sweptAt >= SWEEP_EVERY_MS) {
      this.#sweptAt = now;
      const open = this.#openIds();
      const cutoff = now - CLOSED_ORDER_GRACE_MS;
      this.#placed.sweep((id, facts) => facts.placedAt < cutoff && !open.has(id));
    }
  }

  /** Open orders among `orderIds` are now cancelled (or replaced: see `reason`). */
  ordersCancelled(orderIds: readonly string[], reason?: string): void {
    this.#history.cancelled(orderIds, reason);
  }

  /** The time in force an order of ours was placed with (GTC when we did not place it here). */
  timeInForceOf(orderId: string): PlacedFacts['timeInForce'] {
    return this.placed(orderId)?.timeInForce ?? 'GTC';
  }

  async recordTakerFills(order: TakerOrder): Promise<FillView[]> {
    const views = await this.#taker.record(this.account?.account, order);
    for (const v of views) this.#o.events.emit('fill', v);
    this.#saveDay();
    return views;
  }

  /** What the last claims read said is claimable in one epoch. */
  claimableSeen(assetId: bigint, epoch: bigint, amount: bigint): void {
    this.#claimable.set(`${assetId}:${epoch}`, amount);
  }

  /** A claim was made: nothing more is claimable there (known, so equity no longer holds its old value). */
  claimed(assetId: bigint, epoch: bigint): void {
    this.#claimable.set(`${assetId}:${epoch}`, 0n);
  }

  /**
   * Asks the exchange what the selected master can claim in a resolved epoch, and shows it (a position
   * of that epoch is then valued at its claim). Before resolution the exchange refuses; the old value holds.
   */
  async readClaim(assetId: bigint, epoch: bigint): Promise<void> {
    const account = this.account;
    if (!account) return;
    try {
      const { claimable } = await this.#o.reader.getClaimable(assetId, epoch, account.account);
      if (this.account !== account) return;
      const known = this.claimKnown(assetId, epoch);
      const changed = !known || this.claimable(assetId, epoch) !== claimable;
      this.#claimable.set(`${assetId}:${epoch}`, claimable);
      if (changed) this.#o.events.emit('account', this.view());
    } catch {
      /* not resolved yet, or unreachable: the position keeps the value it had */
    }
  }

  /**
   * An epoch ended: the orders of ours that still rested in it can no longer trade, and the exchange
   * takes them off the book. Their history says so; returns how many there were on each side.
   */
  epochEnded(assetId: bigint, epoch: bigint): { buys: number; sells: number } {
    const resting = this.account?.restingOrders(assetId, epoch);
    const buys = resting?.buys ?? [];
    const sells = resting?.sells ?? [];
    if (buys.length + sells.length === 0) return { buys: 0, sells: 0 };
    this.#history.cancelled(
      [...buys, ...sells].map((o) => o.id),
      'the epoch ended while it rested; the exchange took it off the book',
    );
    this.#o.onOwnOrdersChanged();
    this.#o.events.emit('account', this.view());
    return { buys: buys.length, sells: sells.length };
  }

  // ---------------------------------------------------------------- selection and refresh

  /** Remembers the account to trade with while not connected; the session selects it once the exchange answers. */
  /** The selected master account; with none selected, a coded failure saying what to choose (`choose`). */
  master(choose: string): Address {
    const master = this.selection.master;
    if (!master) throw new BridgeFailure('account.none_selected', choose);
    return master as Address;
  }

  keepSelection(selection: AccountSelection): void {
    this.selection = selection;
  }

  async select(selection: AccountSelection): Promise<void> {
    const leftAgent = this.selection.agent as Address | null;
    this.selection = selection;
    const master = selection.master;
    if (!master || this.account?.account.toLowerCase() !== master.toLowerCase()) {
      if (this.account) {
        this.#o.onLeave?.(this.account, (id) => this.placed(id)?.placedAt, leftAgent);
        this.#leaveDay();
      }
      this.account = null;
      this.walletTokenBalance = null;
      this.#taker.clear();
    }
    if (!master) return;
    const fresh = !this.account;
    if (!this.account) {
      this.#o.onTake?.(master);
      this.account = new AccountState({
        reader: this.#o.reader,
        account: master as Address,
        currentEpoch: () => undefined,
        onChange: () => {
          this.#o.onOwnOrdersChanged();
          this.#o.events.emit('account', this.view());
          this.#o.onAccountChanged?.();
          this.#saveDay();
        },
        onFill: (fill) => this.#onOwnFill(fill),
      });
      this.#restoreDay(this.account);
    }
    const account = this.account;
    await this.refresh();
    if (fresh) await this.#readBackDay(account);
  }

  /** Re-reads the selected account for every current epoch (or one asset/epoch), plus the wallet's token balance. */
  async refresh(epoch?: bigint, assetId?: bigint): Promise<void> {
    const account = this.account;
    if (!account) return;
    const targets =
      epoch !== undefined && assetId !== undefined
        ? [{ assetId, epoch }]
        : this.#o.markets.flatMap((m) => {
            const e = this.#o.currentEpoch(m.assetId);
            return e === undefined ? [] : [{ assetId: m.assetId, epoch: e }];
          });
    await Promise.all([
      ...targets.map((t) => account.refresh(t.assetId, t.epoch).catch(() => false)),
      ...this.#unknownClaims().map((t) => this.readClaim(t.assetId, t.epoch)),
      this.#readWalletBalance(account.account),
      this.#taker.settleLimitPriced(account.account).then((changed) => {
        if (!changed) return;
        this.#o.events.emit('account', this.view());
        this.#saveDay();
      }),
    ]);
  }

  /**
   * The selected account's balance, read again unless a refresh read it within `staleAfterMs` (busy
   * trading reads it with every order); the window hears of it only when it moved.
   */
  async pollBalance(staleAfterMs: number): Promise<void> {
    await this.account?.refreshBalance(staleAfterMs);
  }

  onMarketUpdate(u: MarketUpdate): void {
    this.account?.onMarketUpdate(u);
  }

  /** An asset rolled over: account entries of its epochs before `oldest` that show nothing are dropped. */
  forgetEpochsBefore(assetId: bigint, oldest: bigint): void {
    this.account?.forgetEpochsBefore(assetId, oldest);
  }

  async #readWalletBalance(owner: Address): Promise<void> {
    const token = this.#o.settlementToken();
    if (!token) return;
    try {
      const erc20 = new Contract(token, ['function balanceOf(address) view returns (uint256)'], this.#o.rpc());
      this.walletTokenBalance = (await erc20.getFunction('balanceOf').staticCall(owner)) as bigint;
    } catch {
      /* the view shows the last known balance */
    }
  }

  #onOwnFill(fill: OwnFill): void {
    const at = Date.now();
    this.#fillTimes.set(`${fill.orderId}:${fill.seqId}`, at);
    const view = makerFillView(fill, at);
    this.#history.filled(fill.orderId, fill.fill);
    // A maker fill: the window words its notice (a taker fill is told by its order's result).
    this.#o.events.emit('fill', view);
    this.#saveDay();
  }

  // ---------------------------------------------------------------- the day across restarts (day-records.ts)

  /**
   * A new account state: what the store kept of its day comes back at once (history, fills, and the
   * positions of epochs that have ended, which a re-read of the live epochs does not reach).
   */
  #restoreDay(account: AccountState): void {
    this.#dayOf = account;
    const port = this.#o.dayRecords;
    if (!port) return;
    const day = port.load(account.account);
    this.#history.restore(day.history);
    const plain = ({ seq: _seq, ...fill }: DayFill): FillView => fill;
    this.#taker.restore(day.fills.filter((f) => f.liquidity === 'taker').map(plain));
    const live = new Set(account.fills.map((f) => `${f.orderId.toLowerCase()}:${f.seqId}`));
    this.#earlierFills = day.fills
      .filter(
        (f) => f.liquidity === 'maker' && (f.seq === undefined || !live.has(`${f.orderId.toLowerCase()}:${f.seq}`)),
      )
      .map((f) => ({ fill: plain(f), seq: f.seq ?? null }));
    for (const p of day.positions) this.#dayPositions.set(`${p.assetId}:${p.epoch}`, p);
    const met = new Set<string>();
    for (const p of day.positions) if (BigInt(p.inventory) !== 0n || BigInt(p.margin) !== 0n) met.add(p.assetId);
    for (const e of day.history) if (e.outcome === 'open') met.add(e.assetId);
    if (met.size > 0) this.#o.onMarketsMet?.([...met].map((a) => BigInt(a)));
    // A live epoch's position is read now (refresh); one kept from an ended epoch stands until re-read.
    account.restorePositions(
      day.positions.map((p) => positionOfDay(account.account, p)).filter((p) => this.#ended(p.assetId, p.epoch)),
    );
  }

  /**
   * After the first read of a restored account: the exchange's word where it has one. Ended epochs'
   * positions still holding something are re-read (claimed while the app was closed?); flat ones
   * cannot change and stand as kept. Fills the exchange lists today that the records lack are added,
   * and open orders of the history take the amounts it says filled.
   */
  async #readBackDay(account: AccountState): Promise<void> {
    if (!this.#o.dayRecords) return;
    const open = [...this.#dayPositions.values()]
      .filter((p) => BigInt(p.inventory) !== 0n || BigInt(p.margin) !== 0n)
      .map((p) => ({ assetId: BigInt(p.assetId), epoch: BigInt(p.epoch) }))
      .filter((p) => this.#ended(p.assetId, p.epoch))
      .slice(-REREAD_KEPT_POSITIONS);
    for (let i = 0; i < open.length; i += 4) {
      await Promise.all(open.slice(i, i + 4).map((p) => account.refresh(p.assetId, p.epoch).catch(() => false)));
      if (this.account !== account) return;
    }
    let records;
    try {
      records = await this.#o.reader.getFills(account.account, { limit: 1000 });
    } catch {
      records = null; // unreachable: the kept fills stand
    }
    if (this.account !== account || !records) return this.#saveDay();
    const from = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const held = [
      ...account.fills.map((f) => ({ orderId: f.orderId, liquidity: 'maker' as const })),
      ...this.takerFills,
    ];
    const missing = missingFills(records, held, from);
    this.#earlierFills.push(...missing.maker.map((fill) => ({ fill, seq: null })));
    this.#taker.restore(missing.taker);
    const filled = filledByOrder(records);
    for (const e of this.#history.list()) {
      if (e.outcome !== 'open') continue;
      const more = (filled.get(e.orderId.toLowerCase()) ?? 0n) - BigInt(e.filled);
      if (more > 0n) this.#history.filled(e.orderId, more);
    }
    if (missing.maker.length + missing.taker.length > 0) this.#o.events.emit('account', this.view());
    this.#saveDay();
  }

  /** The selected account changes: its records are written now, and its day leaves the desk. */
  #leaveDay(): void {
    this.#o.dayRecords?.flush();
    this.#dayOf = null;
    this.#earlierFills = [];
    this.#dayPositions.clear();
    this.#history.clear();
  }

  /** The day's records changed: the store is written with them soon (day-records.ts gathers the writes). */
  #saveDay(): void {
    const account = this.account;
    const port = this.#o.dayRecords;
    if (!port || !account || this.#dayOf !== account) return;
    port.save(account.account, () => (this.#dayOf === account ? this.#dayRecords(account) : null));
  }

  #dayRecords(account: AccountState): DayRecords {
    // As the account state holds them; one it no longer holds (bounded out) stays as kept.
    for (const [k, p] of account.positions) {
      this.#dayPositions.delete(k);
      if (showsSomething(p)) this.#dayPositions.set(k, dayPositionOf(p));
    }
    while (this.#dayPositions.size > DAY_POSITIONS_KEPT)
      this.#dayPositions.delete(this.#dayPositions.keys().next().value!);
    const maker: DayFill[] = account.fills.map((f) => ({
      ...makerFillView(f, this.fillTime(f.orderId, f.seqId) ?? 0),
      seq: f.seqId.toString(),
    }));
    const earlier: DayFill[] = this.#earlierFills.map((e) => (e.seq === null ? e.fill : { ...e.fill, seq: e.seq }));
    // The order the view shows them in (a stable sort by time).
    const fills = [...maker, ...earlier, ...this.#taker.list()].sort((a, b) => a.at - b.at);
    return { fills, history: this.#history.list(), positions: [...this.#dayPositions.values()] };
  }

  /** Whether the epoch has ended (false while the asset's current epoch is not known). */
  #ended(assetId: bigint, epoch: bigint): boolean {
    const current = this.#o.currentEpoch(assetId);
    return current !== undefined && epoch < current;
  }

  #now(): number {
    return this.#o.now?.() ?? Date.now();
  }

  /** Positions of ended epochs whose claim the exchange has not told us yet (a few: epochs are kept briefly). */
  #unknownClaims(): { assetId: bigint; epoch: bigint }[] {
    const out: { assetId: bigint; epoch: bigint }[] = [];
    for (const p of this.account?.positions.values() ?? []) {
      if (!p || (p.inventory === 0n && p.margin === 0n)) continue;
      const current = this.#o.currentEpoch(p.assetId);
      if (current !== undefined && p.epoch < current && !this.claimKnown(p.assetId, p.epoch)) out.push(p);
    }
    return out.slice(0, 8);
  }

  /** Lowercase ids of every order the last reads saw resting. */
  #openIds(): Set<string> {
    const ids = new Set<string>();
    for (const orders of this.account?.orders.values() ?? []) {
      for (const o of orders.buys) ids.add(o.id.toLowerCase());
      for (const o of orders.sells) ids.add(o.id.toLowerCase());
    }
    return ids;
  }

  #isOpen(orderId: string): boolean {
    for (const orders of this.account?.orders.values() ?? []) {
      if ([...orders.buys, ...orders.sells].some((o) => o.id.toLowerCase() === orderId)) return true;
    }
    return false;
  }
}
