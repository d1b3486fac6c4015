/**
 * Runs working orders in main (docs/working-orders.md): feeds each one's state machine (engine.ts)
 * with the session's market data as it arrives (its market's book, the oracle's ticks, the
 * account's fills and changes, the exchange's clock every TICK_MS), stores it whenever it changes
 * and always before anything it fired is sent, sends what it fires through the order gate
 * (sending.ts), and tells the window: the `workingOrders` event, and a notice when one fires or stops.
 * One runner for the app: working orders outlive a session restarted for an edited market list.
 */
import { performance } from 'node:perf_hooks';
import type {
  FillView,
  OracleTick,
  WorkingOrderDraft,
  WorkingOrderEdit,
  WorkingOrderView,
} from '../../../shared/bridge';
import { displayOracle, displayPrice, displaySize, parsePrice, unpackAssetId } from '../../../shared/protocol';
import type { BookSync } from '../../../client';
import type { KeyValueStore } from '../../store/key-value-store';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { coreProbe } from '../probe';
import type { TradingHost } from '../session/host';
import { marketLabel } from '../session/market-name';
import type { TradingSession } from '../session/session';
import { applyEdit, recordOf } from './drafts';
import {
  cancelLeg,
  end,
  evaluate,
  onExitResult,
  onFill,
  onLimitPlaced,
  onQuoteFill,
  onQuotesPlaced,
  onRequoted,
  reconcile,
  restore,
} from './engine';
import { exitLegs, limitLegs } from './lifecycle';
import { cancelOrders, Closing, placeOne, placeQuotes, requoteOne, sendExit, type ExitSent } from './sending';
import { MAX_RUNNING, WorkingOrderStore } from './store';
import { running, type Effect, type MarketLook, type Quote, type WorkingOrder } from './types';
import { viewOf } from './view';

/** How often the clock is looked at: time exits, epoch ends, retries, stale feeds, a roll's next epoch. */
const TICK_MS = 100;
/** An oracle price older than this is stale for a trigger (the devnet ticks every 0.5 s, real oracles about every second). */
const ORACLE_LIVE_MS = 3_000;

interface WorkingOrderRunnerOptions {
  ctx: CoreContext;
  trading: TradingHost;
  store: KeyValueStore;
}

type Send = Extract<Effect, { type: 'send-exit' }>;

/** What the window shows changing: a roll's quotes too (their targets follow fair value, tick by tick). */
const stateKey = (o: WorkingOrder): string =>
  `${o.state}|${o.waiting ?? ''}|${o.epoch}|${o.reason ?? ''}|${o.roll?.slots.map((x) => `${x.state}:${x.price}:${x.target}:${x.filled}`).join(',') ?? ''}`;

function othersBest(
  levels: readonly { price: bigint; size: bigint }[],
  own: ReadonlyMap<bigint, bigint>,
): Quote | null {
  for (const l of levels) {
    const size = l.size - (own.get(l.price) ?? 0n);
    if (size > 0n) return { price: l.price, size };
  }
  return null;
}

/** When an epoch ends (ms, exchange time). */
function epochEnd(assetId: bigint, epoch: bigint): number {
  const f = unpackAssetId(assetId);
  return Number((f.startTime + (epoch + 1n) * f.periodLength) * 1000n);
}

export class WorkingOrderRunner {
  readonly #o: WorkingOrderRunnerOptions;
  readonly #store: WorkingOrderStore;
  /** The session whose books are followed (books are dropped when another replaces it). */
  #session: TradingSession | null = null;
  readonly #books = new Map<string, BookSync>();
  /** The newest oracle price per symbol, with when main received it (local ms). */
  readonly #oracle = new Map<string, { price: bigint; at: number }>();
  /** Restored after a restart: matched to the account's open orders once it is read. */
  readonly #reconcile = new Set<string>();
  /** Effects of a restart, run once a session is up. */
  readonly #pending: { id: string; effect: Effect }[] = [];
  readonly #off: (() => void)[] = [];
  readonly #closing = new Closing();
  #timer: ReturnType<typeof setInterval> | null = null;
  #emitQueued = false;
  #seq = 0;
  #disposed = false;

  constructor(opts: WorkingOrderRunnerOptions) {
    this.#o = opts;
    this.#store = new WorkingOrderStore(opts.store);
    // Start-up does nothing more when none was running at the last close: no write, no clock.
    const restored = this.#store.all().filter(running);
    const now = Date.now();
    for (const o of restored) {
      for (const effect of restore(o, now)) this.#pending.push({ id: o.id, effect });
      if (running(o)) this.#reconcile.add(o.id);
    }
    if (restored.length > 0) this.#store.save();
    const { events, vault, settings } = opts.ctx;
    this.#off.push(
      events.on('oracle', (t) => this.#onOracle(t)),
      events.on('fill', (f) => this.#onFill(f)),
      events.on('account', () => this.#onData(null, performance.now())),
      vault.on('locked', () => this.#stopAll('Stopped: the app was locked.')),
      settings.onChange(() => {
        if (opts.ctx.offline() !== 'off') this.#stopAll('Stopped: offline mode is on.');
      }),
    );
    if (restored.length > 0) this.#ensureTimer();
  }

  // ------------------------------------------------------------------ bridge methods

  list(): WorkingOrderView[] {
    const all = [...this.#store.all()];
    all.sort(
      (a, b) => Number(running(b)) - Number(running(a)) || (b.endedAt ?? b.createdAt) - (a.endedAt ?? a.createdAt),
    );
    return all.map((o) => this.#view(o));
  }

  async create(d: WorkingOrderDraft): Promise<WorkingOrderView> {
    const { ctx, trading } = this.#o;
    const s = await trading.connected();
    // Why nothing can be signed comes first, then who signs (a watch-only master is refused here).
    s.signers.assertCanSign();
    s.actor(d.signAs);
    const master = s.desk.selection.master;
    if (!master) throw new BridgeFailure('account.none_selected', 'Choose the account to trade with first.');
    if (this.#store.runningCount() >= MAX_RUNNING)
      throw new BridgeFailure(
        'working.too_many',
        `At most ${MAX_RUNNING} working orders run at once: cancel some first.`,
      );
    const assetId = BigInt(d.assetId);
    s.board.market(assetId);
    const current = s.epochs.current(assetId);
    if (current === undefined)
      throw new BridgeFailure('working.no_epoch', 'This market’s epoch has not been read yet: try again in a moment.');
    const epoch = d.kind === 'roll' ? current : BigInt(d.epoch);
    if (epoch !== current)
      throw new BridgeFailure(
        'working.not_current',
        `${this.#name(s, assetId, epoch)} is not the epoch trading now: working orders run in the current epoch.`,
      );
    if (d.kind === 'exit' || d.kind === 'oco') await s.desk.refresh(epoch, assetId);
    const asset = s.epochs.asset(assetId);
    const o = recordOf(d, {
      id: this.#newId(),
      now: s.clock.now(),
      deployment: s.deployment.id,
      account: master,
      inventory: s.desk.account?.inventory(assetId, epoch) ?? 0n,
      strike: asset && asset.epoch === epoch ? asset.strikePrice : null,
      slippage: parsePrice(ctx.settings.getSettings().maxSlippageCents),
    });
    o.epoch = epoch;
    // Stored before anything is sent: a leg placed is never placed again after a restart.
    this.#store.add(o);
    for (const leg of limitLegs(o)) {
      if (!running(o)) break;
      const r = await placeOne(
        ctx,
        s,
        o,
        { sell: leg.sell, price: leg.price, size: leg.size, timeInForce: leg.timeInForce },
        this.#notes(s, o, leg.role === 'entry' ? 'its entry' : 'its limit leg'),
      );
      const more = onLimitPlaced(o, leg.id, { ...r, now: s.clock.now() });
      this.#settle(s, o, more, null, performance.now());
      if (r.refused) {
        this.#emitSoon();
        throw new BridgeFailure(r.refused.code, r.refused.message);
      }
    }
    this.#follow(s);
    this.#ensureTimer();
    this.#evaluate(s, o, performance.now());
    this.#emitSoon();
    return this.#view(o);
  }

  async edit(e: WorkingOrderEdit): Promise<WorkingOrderView> {
    const o = this.#find(e.id);
    if (!running(o))
      throw new BridgeFailure('working.not_editable', 'This working order has ended, so it can no longer be changed.');
    if (o.state === 'firing')
      throw new BridgeFailure(
        'working.not_editable',
        'This working order has fired and its order is on its way, so it can no longer be changed.',
      );
    const s = await this.#o.trading.connected();
    const asset = s.epochs.asset(o.assetId);
    // On a copy: a change that does not all parse changes nothing.
    const copy = structuredClone(o);
    applyEdit(
      copy,
      e,
      asset && asset.epoch === o.epoch ? asset.strikePrice : null,
      s.desk.account?.inventory(o.assetId, o.epoch) ?? 0n,
    );
    // Replaced in place: an effect on its way keeps the record it was given.
    Object.assign(o, copy);
    if (e.quotes && o.roll) {
      // The current epoch's quotes are replaced now; it still counts as one epoch.
      const resting = o.roll.resting.splice(0);
      if (resting.length > 0)
        await this.#run(s, o, { type: 'cancel', order: o.id, orderIds: resting, assetId: o.assetId, epoch: o.epoch });
      if (o.roll.lastEpoch !== null) o.roll.placedEpochs--;
      o.roll.lastEpoch = null;
    }
    this.#store.save();
    this.#evaluate(s, o, performance.now());
    this.#emitSoon();
    return this.#view(o);
  }

  /** Cancels a working order, or only one leg of it (`leg`): what remains keeps working. */
  async cancel(id: string, leg?: string): Promise<WorkingOrderView> {
    const o = this.#find(id);
    if (leg === undefined) await this.#stop([o], 'Stopped: cancelled by you.');
    else await this.#cancelLeg(o, leg);
    this.#emitSoon();
    return this.#view(o);
  }

  async cancelAll(filter: { assetId?: string | undefined; epoch?: string | undefined }): Promise<WorkingOrderView[]> {
    const chosen = this.#store
      .all()
      .filter(
        (o) =>
          running(o) &&
          (filter.assetId === undefined || o.assetId.toString() === filter.assetId) &&
          (filter.epoch === undefined || o.epoch.toString() === filter.epoch),
      );
    await this.#stop(chosen, 'Stopped: cancelled by you (cancel all).');
    this.#emitSoon();
    return chosen.map((o) => this.#view(o));
  }

  dispose(): void {
    this.#disposed = true;
    for (const off of this.#off.splice(0)) off();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#unfollowAll();
    this.#store.save();
  }

  // ------------------------------------------------------------------ market data in

  #onOracle(t: OracleTick): void {
    const at = performance.now();
    this.#oracle.set(t.symbolId, { price: BigInt(t.price), at: Date.now() });
    this.#onData((o) => unpackAssetId(o.assetId).id.toString() === t.symbolId, at);
  }

  #onFill(f: FillView): void {
    // A taker fill is counted from its order's answer (sending.ts); a maker fill only arrives here.
    if (f.liquidity !== 'maker') return;
    const s = this.#sessionNow();
    const id = f.orderId.toLowerCase();
    for (const o of this.#store.all()) {
      const quote = o.roll?.slots.some((x) => x.orderIds.some((q) => q.toLowerCase() === id)) ?? false;
      if (!quote && !o.legs.some((l) => l.type === 'limit' && l.orderId?.toLowerCase() === id)) continue;
      const before = stateKey(o);
      const effects = quote
        ? onQuoteFill(o, f.orderId, BigInt(f.size))
        : onFill(o, f.orderId, BigInt(f.size), s?.clock.now() ?? Date.now());
      if (s) this.#settle(s, o, effects, before, performance.now(), true);
      else this.#store.save();
      this.#emitSoon();
    }
  }

  /** Market data for some orders (or all): each running order it concerns is looked at now. */
  #onData(concerns: ((o: WorkingOrder) => boolean) | null, at: number): void {
    if (this.#disposed) return;
    // Every book change, oracle tick and account change comes here: nothing more is done when none runs.
    const live = this.#store.all().filter((o) => running(o) && (!concerns || concerns(o)));
    if (live.length === 0) return;
    const s = this.#sessionNow();
    // Held (locked, offline, not connected, another account): the clock's tick says why and stops what must stop.
    if (!s || this.#o.ctx.vault.isLocked() || this.#o.ctx.offline() !== 'off') return;
    for (const o of live) this.#evaluate(s, o, at);
  }

  #tick(): void {
    const at = performance.now();
    const { ctx } = this.#o;
    const live = this.#store.all().filter(running);
    if (live.length === 0 && this.#pending.length === 0) {
      // Nothing runs: no clock, and no book followed for it.
      if (this.#timer) clearInterval(this.#timer);
      this.#timer = null;
      this.#unfollowAll();
      return;
    }
    if (ctx.offline() !== 'off') return this.#stopAll('Stopped: offline mode is on.');
    const s = this.#sessionNow();
    // Locking stops them (the `locked` event); an app that starts locked holds them until it is
    // unlocked, with no account selected yet likewise: a restart re-arms, it does not stop.
    const hold = ctx.vault.isLocked()
      ? 'waiting: the app is locked'
      : !s
        ? 'waiting: not connected to the exchange'
        : !s.desk.selection.master
          ? 'waiting: its account is not selected'
          : null;
    if (hold) {
      // Told to the window once, not on every tick it lasts.
      if (live.some((o) => o.waiting !== hold)) this.#emitSoon();
      for (const o of live) o.waiting = hold;
      return;
    }
    if (!s) return;
    this.#checkOwners(s);
    for (const { id, effect } of this.#pending.splice(0)) {
      const o = this.#store.get(id);
      if (o) void this.#run(s, o, effect);
    }
    this.#reconcileRead(s);
    this.#follow(s);
    for (const o of this.#store.all()) if (running(o)) this.#evaluate(s, o, at);
  }

  // ------------------------------------------------------------------ the state machine, stored and run

  /** Only with the account and deployment it trades for selected: another's order never fires as this one. */
  #evaluate(s: TradingSession, o: WorkingOrder, at: number): void {
    if (!this.#owns(s, o)) return;
    const look = this.#look(s, o);
    if (!look) return;
    const before = stateKey(o);
    this.#settle(s, o, evaluate(o, look), before, at);
  }

  /**
   * After the machine moved: stored when anything changed (before any effect runs, so what it fires
   * is on disk before it is sent), then its effects run and the window hears of it.
   */
  #settle(
    s: TradingSession,
    o: WorkingOrder,
    effects: readonly Effect[],
    before: string | null,
    at: number,
    force = false,
  ): void {
    const moved = before === null || stateKey(o) !== before;
    if (effects.length === 0 && !moved && !force) return;
    if (effects.length > 0 || force || before === null || before.split('|')[0] !== o.state) this.#store.save();
    if (effects.some((e) => e.type === 'send-exit')) coreProbe.onWorkingFire?.(at);
    for (const e of effects) void this.#run(s, o, e);
    this.#emitSoon();
  }

  async #run(s: TradingSession, o: WorkingOrder, e: Effect): Promise<void> {
    const { ctx } = this.#o;
    try {
      switch (e.type) {
        case 'send-exit': {
          const sent = await sendExit(ctx, s, o, e, this.#notes(s, o, this.#legWords(o, e.leg)), this.#closing);
          const before = stateKey(o);
          const more = onExitResult(o, e.leg, e.attempt, { ...sent.outcome, now: s.clock.now() });
          this.#notifyExit(s, o, e, sent);
          this.#settle(s, o, more, before, performance.now(), true);
          return;
        }
        case 'place-limit': {
          const r = await placeOne(ctx, s, o, e, this.#notes(s, o, 'its limit leg'));
          const before = stateKey(o);
          this.#settle(s, o, onLimitPlaced(o, e.leg, { ...r, now: s.clock.now() }), before, performance.now(), true);
          return;
        }
        case 'place-quotes': {
          const results = await placeQuotes(ctx, s, o, e.quotes, this.#notes(s, o, 'its quotes'));
          const before = stateKey(o);
          const more = onQuotesPlaced(o, e.epoch, results);
          const refused = results.find((r) => r.refused)?.refused;
          const market = this.#name(s, o.assetId, e.epoch);
          const placed = results.filter((r) => r.orderId !== null).length;
          this.#notice(
            refused ? 'warning' : 'info',
            refused
              ? `Roll on ${market}: ${placed} of ${results.length} quotes placed. ${refused.message}`
              : `Roll on ${market}: ${placed} ${placed === 1 ? 'quote' : 'quotes'} placed for the new epoch.`,
          );
          this.#settle(s, o, more, before, performance.now(), true);
          return;
        }
        case 'requote': {
          const side = e.sell ? 'ask' : 'bid';
          const x = await requoteOne(ctx, s, o, e, this.#notes(s, o, `its ${side}, moved to follow fair value`));
          const before = stateKey(o);
          const more = onRequoted(o, e.round, e.quote, x, this.#name(s, o.assetId, e.epoch));
          this.#settle(s, o, more, before, performance.now(), true);
          return;
        }
        case 'cancel': {
          // Only with the account it trades for: another selected account's key cannot cancel them.
          if (!this.#owns(s, o)) {
            this.#notice(
              'warning',
              `${this.#title(o)} on ${this.#name(s, o.assetId, e.epoch)}: its resting orders stay on the exchange; cancel them with its account.`,
            );
            return;
          }
          const failed = await cancelOrders(s, o, e);
          if (failed) this.#notice('warning', `${this.#title(o)} on ${this.#name(s, o.assetId, e.epoch)}: ${failed}`);
          return;
        }
        case 'notice':
          this.#notice(e.level, e.message);
          return;
      }
    } catch (error) {
      ctx.logger.warn('working.effect_failed', {
        effect: e.type,
        message: error instanceof Error ? error.message : 'non-error',
      });
    }
  }

  /** Ends orders with one reason, stored in one write; their resting orders are cancelled (awaited). */
  async #stop(orders: readonly WorkingOrder[], reason: string): Promise<void> {
    const s = this.#sessionNow();
    const now = s?.clock.now() ?? Date.now();
    const ended = orders.map((o) => ({ o, effects: end(o, 'stopped', reason, now) }));
    this.#store.save();
    if (s) await Promise.all(ended.flatMap(({ o, effects }) => effects.map((e) => this.#run(s, o, e))));
  }

  /** One leg cancelled, stored in one write before its resting order is cancelled (awaited). */
  async #cancelLeg(o: WorkingOrder, legId: string): Promise<void> {
    const s = this.#sessionNow();
    const effects = cancelLeg(o, legId, s?.clock.now() ?? Date.now());
    this.#store.save();
    if (s) await Promise.all(effects.map((e) => this.#run(s, o, e)));
  }

  #stopAll(reason: string): void {
    const live = this.#store.all().filter(running);
    if (live.length === 0) return;
    void this.#stop(live, reason);
    this.#notice(
      'warning',
      `${live.length} working ${live.length === 1 ? 'order' : 'orders'} stopped: ${reason.replace(/^Stopped: /, '').replace(/\.$/, '')}.`,
    );
    this.#emitSoon();
  }

  /** Orders of another deployment or account than the selected one stop: they were the trader's on that one. */
  #checkOwners(s: TradingSession): void {
    for (const o of this.#store.all()) {
      if (!running(o)) continue;
      if (o.deployment !== s.deployment.id) void this.#stop([o], 'Stopped: another deployment was selected.');
      else if (!this.#owns(s, o)) void this.#stop([o], 'Stopped: another account was selected.');
    }
  }

  #owns(s: TradingSession, o: WorkingOrder): boolean {
    return o.deployment === s.deployment.id && s.desk.selection.master?.toLowerCase() === o.account.toLowerCase();
  }

  /** After a restart, once the account's orders are read: resting legs matched to what is still open. */
  #reconcileRead(s: TradingSession): void {
    const account = s.desk.account;
    if (this.#reconcile.size === 0 || !account?.balance) return;
    for (const id of [...this.#reconcile]) {
      const o = this.#store.get(id);
      this.#reconcile.delete(id);
      if (!o || !running(o) || !this.#owns(s, o)) continue;
      const book = account.restingOrders(o.assetId, o.epoch);
      const open = new Map<string, bigint>();
      for (const r of [...(book?.buys ?? []), ...(book?.sells ?? [])]) open.set(r.id.toLowerCase(), r.size);
      const before = stateKey(o);
      this.#settle(
        s,
        o,
        reconcile(o, open, account.inventory(o.assetId, o.epoch), s.clock.now()),
        before,
        performance.now(),
        true,
      );
    }
  }

  // ------------------------------------------------------------------ what an order sees

  #sessionNow(): TradingSession | null {
    let s: TradingSession | null;
    try {
      s = this.#o.trading.session();
    } catch {
      s = null;
    }
    if (s?.stopped) s = null;
    this.#useSession(s);
    return s;
  }

  /** Books belong to one session: another one (or none) drops them. */
  #useSession(s: TradingSession | null): void {
    if (s === this.#session) return;
    this.#unfollowAll();
    this.#session = s;
  }

  #unfollowAll(): void {
    for (const b of this.#books.values()) b.stop();
    this.#books.clear();
  }

  /** Books followed: each market with an exit still watching or retrying, and no other. */
  #follow(s: TradingSession): void {
    this.#useSession(s);
    const wanted = new Set<string>();
    for (const o of this.#store.all()) {
      if (!running(o) || o.kind === 'roll') continue;
      const key = `${o.assetId}:${o.epoch}`;
      wanted.add(key);
      if (this.#books.has(key)) continue;
      const a = o.assetId;
      const e = o.epoch;
      // Each change of the book is market data: the orders on it are looked at now.
      const sync = s.board.followBook(a, e, () =>
        this.#onData((x) => x.assetId === a && x.epoch === e, performance.now()),
      );
      this.#books.set(key, sync);
    }
    for (const [key, sync] of this.#books)
      if (!wanted.has(key)) {
        sync.stop();
        this.#books.delete(key);
      }
  }

  #look(s: TradingSession, o: WorkingOrder): MarketLook | null {
    const epoch = o.kind === 'roll' ? s.epochs.current(o.assetId) : o.epoch;
    if (epoch === undefined) return null;
    const f = unpackAssetId(o.assetId);
    const market = this.#name(s, o.assetId, epoch);
    let book: MarketLook['book'] = null;
    let bookNote: string | null = null;
    if (o.kind !== 'roll') {
      const sync = this.#books.get(`${o.assetId}:${epoch}`);
      const health = sync?.health();
      if (sync && health?.state === 'live') {
        const own = s.desk.ownLevels(o.assetId, epoch);
        const levels = sync.store.view(16);
        book = { bid: othersBest(levels.bids, own.bids), ask: othersBest(levels.asks, own.asks) };
      } else {
        bookNote = `the book of ${market} is ${health ? `${health.state}${health.reason ? `: ${health.reason}` : ''}` : 'not followed yet'}`;
      }
    }
    const tick = this.#oracle.get(f.id.toString());
    const age = tick ? Date.now() - tick.at : null;
    const oracleLive = tick !== undefined && age !== null && age <= ORACLE_LIVE_MS;
    const asset = s.epochs.asset(o.assetId);
    let fair: bigint | null = null;
    if (o.kind === 'roll') {
      const fv = s.board.fairValue(o.assetId, epoch);
      fair = fv.known ? fv.price : null;
    }
    return {
      market,
      epoch,
      now: s.clock.now(),
      expiry: epochEnd(o.assetId, epoch),
      strike: asset && asset.epoch === epoch ? asset.strikePrice : null,
      book,
      bookNote,
      oracle: oracleLive ? tick.price : null,
      oracleNote: oracleLive
        ? null
        : age === null
          ? `no oracle price for ${market} yet`
          : `no oracle price for ${market} in ${Math.round(age / 1000)} s`,
      inventory: s.desk.account?.inventory(o.assetId, epoch) ?? 0n,
      fair,
    };
  }

  // ------------------------------------------------------------------ words and views

  #name(s: TradingSession | null, assetId: bigint, epoch: bigint): string {
    const symbol = s?.markets.find((m) => m.assetId === assetId)?.symbol ?? `asset ${assetId}`;
    return marketLabel(symbol, assetId, epoch);
  }

  #title(o: WorkingOrder): string {
    return `Working ${o.kind === 'oco' ? 'OCO' : o.kind === 'exit' ? `${exitLegs(o)[0]?.trigger.type ?? 'exit'}` : o.kind}`;
  }

  #legWords(o: WorkingOrder, legId: string): string {
    const leg = exitLegs(o).find((l) => l.id === legId);
    if (!leg) return 'its exit';
    const t = leg.trigger;
    switch (t.type) {
      case 'take-profit':
      case 'stop':
        return `its ${t.type}${t.double ? ' (double)' : ''} at ${displayPrice(t.price)}`;
      case 'oracle-stop':
        return `its oracle stop (the oracle ${t.direction === 'below' ? 'at or below' : 'at or above'} ${displayOracle(t.level < 0n ? 0n : t.level)})`;
      case 'time-exit':
        return `its time exit (${t.secondsBeforeEnd} s before the end)`;
    }
  }

  /** What main's order dialog says of the order's origin, when the gate asks. */
  #notes(s: TradingSession, o: WorkingOrder, what: string): string[] {
    return [`Sent by a working order (${o.kind}, ${o.id}) on ${this.#name(s, o.assetId, o.epoch)}: ${what}.`];
  }

  #notifyExit(s: TradingSession, o: WorkingOrder, e: Send, sent: ExitSent): void {
    const market = this.#name(s, o.assetId, o.epoch);
    const what = this.#legWords(o, e.leg).replace(/^its /, '');
    const side = e.sell ? 'sold' : 'bought';
    const r = sent.outcome;
    if (r.refused) {
      this.#notice('warning', `Working ${what} on ${market} fired, and its exit was not sent: ${r.refused.message}`);
      return;
    }
    const filled = r.filled;
    const avg = sent.fillPrice !== null ? ` at ${displayPrice(BigInt(sent.fillPrice))} average` : '';
    const leg = exitLegs(o).find((l) => l.id === e.leg);
    const retrying = leg?.state === 'firing' && leg.retryAt !== null;
    const text =
      filled > 0n
        ? `Working ${what} on ${market} fired: ${side} ${displaySize(filled)}${avg} (limit ${displayPrice(sent.limit)}); position now ${displaySize(r.inventory < 0n ? -r.inventory : r.inventory)}${r.inventory < 0n ? ' short' : ''}.`
        : `Working ${what} on ${market} fired: nothing filled within its limit ${displayPrice(sent.limit)}.`;
    const tail = retrying
      ? ` Trying again (${leg.attempts.length} of ${leg.retries + 1}).`
      : leg && leg.state === 'done' && o.state === 'stopped' && leg.retries > 0
        ? ' No tries left.'
        : '';
    this.#notice(filled > 0n ? 'info' : 'warning', text + tail);
  }

  #notice(level: 'info' | 'warning', message: string): void {
    this.#o.ctx.events.emit('notice', { level, message: message.slice(0, 500) });
  }

  #view(o: WorkingOrder): WorkingOrderView {
    return viewOf(o, this.#name(this.#session, o.assetId, o.epoch), epochEnd(o.assetId, o.epoch));
  }

  #emitSoon(): void {
    if (this.#emitQueued || this.#disposed) return;
    this.#emitQueued = true;
    // After the send has gone: the list is for the window, never on the trigger's path.
    setImmediate(() => {
      this.#emitQueued = false;
      if (!this.#disposed) this.#o.ctx.events.emit('workingOrders', this.list());
    });
  }

  #find(id: string): WorkingOrder {
    const o = this.#store.get(id);
    if (!o)
      throw new BridgeFailure('working.not_found', 'That working order is not kept here (it may have ended long ago).');
    return o;
  }

  #newId(): string {
    return `wo-${Date.now().toString(36)}-${(this.#seq++).toString(36)}`;
  }

  #ensureTimer(): void {
    if (this.#timer || this.#disposed) return;
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
    this.#timer.unref?.();
  }
}
