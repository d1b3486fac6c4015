/**
 * Runs the risk ledger's look between orders (ledger-watch.ts) on one trading session: reads the
 * selected account, its fair values, today's budget and the orders on their way; cancels what the
 * plan says with the master key (or its agent when the master is watch-only here), one notice each;
 * and tells the loss budget what it saw while nothing was at risk. Keys of this machine the window
 * selected away from with orders resting (left-accounts.ts) are looked at the same way, each against
 * its own day. Looks are coalesced: one at a time, and one more after it when something changed meanwhile.
 */
import type { Hex } from '../../../shared/protocol';
import type { Logger } from '../../log';
import type { TradingSession } from '../session/session';
import { marketLabel } from '../session/market-name';
import { lossLimit, type LossBudget } from './loss-budget';
import type { ParsedLimits } from './limits';
import { cancelNotice, plan, type Cancel, type WatchedOrder } from './ledger-watch';
import type { Reservations } from './reservations';
import type { AccountState } from '../../../client';
import { accountEquity } from './session-view';

export interface LedgerRunnerDeps {
  budget: LossBudget;
  reservations: Reservations;
  limits(): ParsedLimits;
  notify(level: 'info' | 'warning', message: string): void;
  /** After each look: the host pushes today's budget to the window when its figure changed. */
  looked?(): void;
  logger: Logger;
}

/** One account the ledger looks at: the selected one, or one left with orders resting. */
interface Watched {
  master: string;
  /** A left account's agent, which signs its cancels when the master's key is not here. */
  agent: string | null;
  account: AccountState;
  selected: boolean;
  placedAt(orderId: string): number | null;
}

export class LedgerRunner {
  readonly #d: LedgerRunnerDeps;
  readonly #session: TradingSession;
  /** Orders asked to be cancelled and not yet seen gone: not asked twice. */
  readonly #cancelling = new Set<string>();
  #running: Promise<void> | null = null;
  #again = false;

  constructor(deps: LedgerRunnerDeps, session: TradingSession) {
    this.#d = deps;
    this.#session = session;
  }

  /** Something the ledger counts changed: look again (now, or right after the look running now). */
  look(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#lookOnce()
      .catch((error: unknown) =>
        this.#d.logger.warn('risk.watch_failed', { message: error instanceof Error ? error.message : 'non-error' }),
      )
      .finally(() => {
        this.#running = null;
        this.#d.looked?.();
        if (this.#again && !this.#session.stopped) {
          this.#again = false;
          this.look();
        }
      });
  }

  async #lookOnce(): Promise<void> {
    const session = this.#session;
    if (session.stopped) return;
    const watched: Watched[] = [];
    const master = session.desk.selection.master;
    const account = session.desk.account;
    if (master && account) {
      const desk = session.desk;
      watched.push({
        master,
        agent: desk.selection.agent,
        account,
        selected: true,
        placedAt: (id) => desk.placed(id)?.placedAt ?? null,
      });
    }
    for (const l of session.left.list()) {
      if (master && l.address.toLowerCase() === master.toLowerCase()) continue;
      watched.push({
        master: l.address,
        agent: l.agent,
        account: l.state,
        selected: false,
        placedAt: (id) => l.placedAt.get(id.toLowerCase()) ?? null,
      });
    }
    const open = new Set<string>();
    const looks = watched.map((w) => {
      const orders = this.#orders(w);
      for (const o of orders) open.add(o.id);
      return { w, orders };
    });
    for (const id of this.#cancelling) if (!open.has(id)) this.#cancelling.delete(id);
    await Promise.all(looks.map(({ w, orders }) => this.#lookAt(w, orders)));
  }

  async #lookAt(w: Watched, orders: WatchedOrder[]): Promise<void> {
    const session = this.#session;
    const { master, account } = w;
    if (!account.balance) return;
    const equity = accountEquity(session, account);
    if (equity === null) return;
    const { reservations, budget } = this.#d;
    if (w.selected) {
      let holds = false;
      for (const p of account.positions.values()) if (p && (p.inventory !== 0n || p.margin !== 0n)) holds = true;
      budget.observeFlat(
        master,
        equity,
        !holds && orders.length === 0 && reservations.count(master) === 0,
        reservations.taken(master),
      );
    }
    if (orders.length === 0) return;
    const limits = this.#d.limits();
    const record = budget.peek(master);
    const base = record ? record.startEquity + record.transfers : null;
    // Today's budget once its baseline was taken (the ledger never starts a day's record itself).
    const budgetNow =
      base === null
        ? null
        : {
            loss: base > equity ? base - equity : 0n,
            limit: lossLimit(base, limits.dailyLossBps, limits.dailyLossFixed ?? null),
          };
    const fairOf = (a: bigint, e: bigint): bigint | null => {
      const f = session.board.fairValue(a, e);
      return f.known ? f.price : null;
    };
    const cancels = plan(
      {
        orders,
        inventory: (a, e) => account.inventory(a, e),
        fair: fairOf,
        band: limits.band,
        budget: budgetNow,
        reserved: reservations.total(master),
        onTheirWay: reservations.resting(master),
      },
      this.#cancelling,
    );
    if (cancels.length === 0) return;
    for (const c of cancels) this.#cancelling.add(c.order.id);
    await Promise.all(cancels.map((c) => this.#cancel(w, c, limits.band, budgetNow)));
    if (w.selected) await session.desk.refresh().catch(() => undefined);
    else await session.left.read(master).catch(() => undefined);
  }

  /** The account's resting orders in epochs trading now (an ended epoch's orders are off the book). */
  #orders(w: Watched): WatchedOrder[] {
    const out: WatchedOrder[] = [];
    for (const book of w.account.orders.values()) {
      const current = this.#session.epochs.current(book.assetId);
      if (current !== undefined && current !== book.epoch) continue;
      for (const [list, sell] of [
        [book.buys, false],
        [book.sells, true],
      ] as const) {
        for (const o of list) {
          out.push({
            id: o.id,
            assetId: book.assetId,
            epoch: book.epoch,
            sell,
            price: o.price,
            size: o.size,
            placedAt: w.placedAt(o.id),
          });
        }
      }
    }
    return out;
  }

  async #cancel(w: Watched, c: Cancel, band: bigint, budget: { limit: bigint } | null): Promise<void> {
    const session = this.#session;
    const o = c.order;
    const market = this.#marketName(o.assetId, o.epoch);
    // A left account is named: the window shows another one now.
    const whose = w.selected ? '' : `On ${w.master} (no longer selected): `;
    // The selected account as the desk has it; a left one by its master key here, or the agent it was left with.
    const actor = session.actorFor(w.master, w.agent);
    if (!actor) {
      // Watch-only here with no agent: nothing can cancel it from this machine. Said once per order.
      this.#d.notify(
        'warning',
        `${cancelNotice(c, market, band, budget).replace(/cancelled/, 'would cancel')} No key on this machine can cancel it: cancel it where its key is.`,
      );
      return;
    }
    const input = { assetId: o.assetId, epoch: o.epoch, orderHash: o.id as Hex };
    try {
      const outcome = actor.master
        ? await actor.client.cancelAgentOrder({ ...input, master: actor.master })
        : await actor.client.cancelOrder(input);
      const cancelled = outcome.delivery === 'duplicate' || outcome.response.status === 'CANCELLED';
      if (!cancelled) {
        this.#cancelling.delete(o.id);
        return;
      }
      if (w.selected)
        session.desk.ordersCancelled(
          [o.id],
          c.why === 'band' ? 'cancelled by quote protection' : 'cancelled by the daily loss limit',
        );
      this.#d.notify('warning', `${whose}${cancelNotice(c, market, band, budget)}`);
    } catch (error) {
      // Asked again at the next look.
      this.#cancelling.delete(o.id);
      this.#d.logger.warn('risk.cancel_failed', { message: error instanceof Error ? error.message : 'non-error' });
    }
  }

  #marketName(assetId: bigint, epoch: bigint): string {
    const symbol = this.#session.marketSet.entry(assetId)?.symbol ?? assetId.toString();
    return marketLabel(symbol, assetId, epoch);
  }
}
