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

export interface AccountDeskOptions {
  reader: Pick<ExchangeReader, 'getBalance' | 'getBookOrders' | 'getPosition' | 'getFills' | 'getClaimable'>;
  markets: readonly MarketEntry[];
  events: EventHub;
  logger: Logger;
  selection: AccountSelection;
  currentEpoch(assetId: bigint): bigint | undefined;
  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null };
  /** The pinned settlement token, whose wallet balance the view shows; null without a pin. */
  settlementToken(): string | null;
  rpc(): JsonRpcProvider;
  /** Own resting orders changed: the books re-send their own sizes. */
  onOwnOrdersChanged(): void;
  /** The selected account's state changed (after the view is emitted). */
  onAccountChanged?(): void;
  placedKept?: number;
  /** Clock for the closed-order grace (tests). */
  now?: () => number;
  fillTimesKept?: number;
}

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
  /** What each position was worth when last seen trading, by `asset:epoch` (held while its claim is unknown). */
  readonly #heldValues = new BoundedMap<string, bigint>(CLAIMABLE_KEPT);
  #marksJson = '';
  #sweptAt = 0;

  constructor(opts: AccountDeskOptions) {
    this.#o = opts;
    this.selection = opts.selection;
    this.#history = new OrderHistory({ onChange: (entries) => opts.events.emit('orderHistory', [...entries]) });
    this.#taker = new TakerFills({ reader: opts.reader, logger: opts.logger });
    this.#placed = new BoundedMap(opts.placedKept ?? PLACED_ORDERS_KEPT, (id) => !this.#isOpen(id));
    this.#fillTimes = new BoundedMap(opts.fillTimesKept ?? FILL_TIMES_KEPT);
  }

  // ---------------------------------------------------------------- the view

  get markets(): readonly MarketEntry[] {
    return this.#o.markets;
  }

  get takerFills(): readonly FillView[] {
    return this.#taker.list();
  }

  currentEpoch(assetId: bigint): bigint | undefined {
    return this.#o.currentEpoch(assetId);
  }

  topOfBook(assetId: bigint, epoch: bigint): { bid: bigint | null; ask: bigint | null } {
    return this.#o.topOfBook(assetId, epoch);
  }

  claimable(assetId: bigint, epoch: bigint): bigint {
    return this.#claimable.get(`${assetId}:${epoch}`) ?? 0n;
  }

  claimKnown(assetId: bigint, epoch: bigint): boolean {
    return this.#claimable.get(`${assetId}:${epoch}`) !== undefined;
  }

  heldValue(assetId: bigint, epoch: bigint): bigint | undefined {
    return this.#heldValues.get(`${assetId}:${epoch}`);
  }

  placed(orderId: string): PlacedFacts | undefined {
    return this.#placed.get(orderId.toLowerCase());
  }

  fillTime(orderId: string, seqId: bigint): number | undefined {
    return this.#fillTimes.get(`${orderId}:${seqId}`);
  }

  view(error: string | null = null): AccountView {
    const view = accountViewOf(this, error);
    for (const p of view.positions) if (!p.resolved) this.#heldValues.set(`${p.assetId}:${p.epoch}`, BigInt(p.value));
    return view;
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
    this.selection = selection;
    const master = selection.master;
    if (!master || this.account?.account.toLowerCase() !== master.toLowerCase()) {
      this.account = null;
      this.walletTokenBalance = null;
      this.#taker.clear();
    }
    if (!master) return;
    if (!this.account) {
      this.account = new AccountState({
        reader: this.#o.reader,
        account: master as Address,
        currentEpoch: () => undefined,
        onChange: () => {
          this.#o.onOwnOrdersChanged();
          this.#o.events.emit('account', this.view());
          this.#o.onAccountChanged?.();
        },
        onFill: (fill) => this.#onOwnFill(fill),
      });
    }
    await this.refresh();
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
        if (changed) this.#o.events.emit('account', this.view());
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
    this.#history.filled(fill.orderId, fill.fill);
    // A maker fill: the window words its notice (a taker fill is told by its order's result).
    this.#o.events.emit('fill', view);
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
