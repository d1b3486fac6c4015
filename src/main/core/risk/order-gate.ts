/**
 * The order gate: the one function every order passes before it is signed or sent (docs/risk-guards.md).
 * It fixes who signs, for whom and what; reads the account; applies the risk guards against the
 * market's fair value; asks in main's dialog when the user wants every order confirmed, when a guard
 * that allows a one-off override breaks, or when the account could not be read here; checks after
 * the dialog that nothing it showed has changed; and only then lets the vault sign the order (a
 * clearance, see clearances.ts) or the path send one signed before.
 */
import type { TimeInForceName } from '../../../shared/bridge';
import type { Address } from '../../../shared/protocol';
import type { FairValue } from '../../../client';
import type { Logger } from '../../log';
import type { SettingsService } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';
import type { Dialogs } from '../dialogs/dialogs';
import { coreProbe } from '../probe';
import type { ClearedTerms, Clearances } from './clearances';
import type { OrderFigures } from './account-figures';
import { allowedLimit, breachesOf, ownCost, type AccountRisk, type Breach, type CheckedOrder } from './guards';
import { orderMargin } from '../../../shared/protocol';
import type { Reservations } from './reservations';
import { NO_ORDERS, withOnTheirWay, type MarketRest } from './resting-worst';
import { LIMIT_NAMES, parseLimits, type ParsedLimits } from './limits';
import type { RiskLimits, Settings } from '../../../shared/settings-schema';
import type { LossBudget } from './loss-budget';
import { orderDialog, type OrderPath } from './order-dialog';
import type { OrderRate } from './order-rate';

export type { OrderPath } from './order-dialog';

export interface GateOrder {
  path: OrderPath;
  /** The key that signs: the master, or its agent. */
  signer: Address;
  /** The account whose money it is. */
  master: Address;
  role: 'master' | 'agent';
  assetId: bigint;
  epoch: bigint;
  sell: boolean;
  price: bigint;
  size: bigint;
  timeInForce: TimeInForceName;
  /** An edit's order being replaced: it no longer counts among the open orders. */
  replaces?: string;
  /** True when this machine signs it (a clearance is issued); false when a signed order is only sent. */
  signsHere: boolean;
  /** Our own sentences for the dialog, e.g. the air-gapped request's fingerprint. */
  notes?: readonly string[];
  /**
   * A marketable order (a hotkey's, a close's): its limit is its best price moved by the slippage. When
   * that limit alone breaks the band or the daily loss budget, the gate tightens it to the worst price
   * they allow, as long as that still reaches `best` (the best opposite price now; null: unknown, not
   * tightened), rather than refuse it (docs/risk-guards.md#tightened-limits).
   */
  tighten?: { best: bigint | null };
}

/** What the account holds, as the guards count it for one order, with its equity at fair value. */
export type AccountSnapshot = OrderFigures;

/** The market and account facts the gate needs, from the running session (or none, offline). */
export interface GateView {
  fair(assetId: bigint, epoch: bigint): FairValue;
  marketName(assetId: bigint, epoch: bigint): string;
  /**
   * Null when the account cannot be read here (offline, or not the selected account). Answers at once
   * when the account is already read (the hotkey path), and after reading it otherwise. `replaces`:
   * an edit's order, which no longer counts among the open orders.
   */
  account(
    master: string,
    assetId: bigint,
    epoch: bigint,
    sell: boolean,
    replaces: string | undefined,
  ): AccountSnapshot | null | Promise<AccountSnapshot | null>;
  /**
   * As `account`, but only when it is already read and its session still runs: never starts a read
   * (null then). For a rehearsal.
   */
  accountIfRead(
    master: string,
    assetId: bigint,
    epoch: bigint,
    sell: boolean,
    replaces: string | undefined,
  ): AccountSnapshot | null;
  /**
   * What the account's resting orders could lose in all (account-figures.ts `open`), when it is read
   * here and its session still runs; null otherwise. For the budget meter.
   */
  openIfRead(master: string): Pick<AccountSnapshot, 'restingCost' | 'market'> | null;
  deploymentName: string | null;
  /** Who is selected and what is pinned, compared before and after the dialog. */
  identity(): string;
  /**
   * Whether the market is in the deployment's market list: an order on a market the person took off
   * the list is refused (its fair value and book are not followed here, so nothing could check it).
   */
  listed(assetId: bigint): boolean;
}

export interface OrderGateDeps {
  settings: Pick<SettingsService, 'read'>;
  dialogs: Pick<Dialogs, 'confirm'>;
  labelOf(address: string): string | null;
  budget: LossBudget;
  rate: OrderRate;
  clearances: Clearances;
  /** The risk ledger's orders on their way: taken with the check, in the same synchronous step. */
  reservations: Reservations;
  logger: Logger;
}

/**
 * What passed the gate: the clearance it issued and the order's reservation. `release()` voids the
 * clearance if the path stops before signing and ends the reservation; a path calls it once the
 * exchange answered and the account was read again (or it stopped). An order signed for a later send
 * stays reserved until its epoch ends (reservations.ts).
 */
export interface Passed {
  readonly terms: ClearedTerms | null;
  /** The limit price that passed: the order's own, or the tightened one. */
  readonly price: bigint;
  /** Set when the gate tightened the limit: from what, and which guard it kept inside. */
  readonly tightened?: { from: bigint; by: 'band' | 'budget' };
  release(): void;
}

/** Paths whose signature leaves main, to be sent later or elsewhere: reserved at their worst until the epoch ends. */
const HANDED_OUT: ReadonlySet<OrderPath> = new Set<OrderPath>(['offline-sign', 'airgap-sign']);
/** Paths that send an order signed before (here or on another machine). */
const SENDS_SIGNED: ReadonlySet<OrderPath> = new Set<OrderPath>(['offline-send', 'airgap-send']);

/** What one read gives the checks: the account (null when it cannot be read here) and the order's fair value. */
interface Read {
  risk: AccountRisk | null;
  fair: bigint | null;
  /** The order's market, `${assetId}:${epoch}`. */
  key: string;
  /** Another market's resting orders, to count orders on their way with (none: counted at their most). */
  market?: (assetId: bigint, epoch: bigint) => MarketRest;
}

/** A market not read: orders on their way there count at the most they can lose. */
const unread = (): MarketRest => ({ sums: NO_ORDERS, inventory: 0n, fair: null });

const riskLimitsOf = (s: Readonly<Settings>): RiskLimits => s.riskLimits;
const confirmOrdersOf = (s: Readonly<Settings>): boolean => s.confirmations.orders;
const identityOf = (view: GateView | null): string => view?.identity() ?? '';

const NOT_READ =
  'your position, open orders and today’s loss could not be read, so the position, open-order and daily loss limits were not applied';

/** "Refused: <the first breach, with its numbers>. It also breaks your <others>." */
function refusal(b: Breach, others: readonly Breach[]): BridgeFailure {
  const names = others.filter((o) => o.code !== b.code).map((o) => LIMIT_NAMES[o.limit].toLowerCase());
  const also =
    names.length === 0
      ? ''
      : ` It also breaks your ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`}.`;
  return new BridgeFailure(b.code, `Refused: ${b.sentence}${also}`);
}

export class OrderGate {
  readonly #d: OrderGateDeps;
  /** The limits parsed once per settings object (settings are replaced, never changed in place). */
  #parsed: { from: RiskLimits; limits: ParsedLimits } | null = null;
  /** The last order that passed, with the view and identity it passed under: what rehearse() runs. */
  #last: { order: GateOrder; checked: CheckedOrder; view: GateView; identity: string } | null = null;

  constructor(deps: OrderGateDeps) {
    this.#d = deps;
  }

  #limits(from: RiskLimits): ParsedLimits {
    if (this.#parsed?.from !== from) this.#parsed = { from, limits: parseLimits(from) };
    return this.#parsed.limits;
  }

  /** Orders the account signed (or sent) through the gate in the last 60 seconds. */
  sentInLastMinute(master: string): number {
    return this.#d.rate.inLastMinute(master);
  }

  async pass(asked: GateOrder, view: GateView | null): Promise<Passed> {
    let order = asked;
    coreProbe.onGate?.('enter');
    const { settings } = this.#d;
    const limits = this.#limits(settings.read(riskLimitsOf));
    let checked: CheckedOrder = {
      assetId: order.assetId,
      epoch: order.epoch,
      sell: order.sell,
      price: order.price,
      size: order.size,
      mayRest: order.timeInForce === 'GTC' || order.timeInForce === 'ALO',
    };
    if (view && !view.listed(order.assetId))
      throw new BridgeFailure(
        'orders.unlisted_market',
        `Refused: ${view.marketName(order.assetId, order.epoch)} is not in your market list, so its fair value and book are not followed here. Add it back in Settings → Deployments to trade it.`,
      );
    // Synchronous when the account is already read: the hotkey path never yields inside the gate.
    const first = this.#read(order, view, limits);
    // Who is selected and what is pinned, fixed before anything awaited (the account read, the dialog).
    let identity = first instanceof Promise ? identityOf(view) : null;
    const before = first instanceof Promise ? await first : first;
    /** The read the last check used: its fair value prices the reservation. */
    let last = before;
    let breaches = this.#check(checked, order.master, before, limits);
    let tightened: Passed['tightened'];
    const tight = this.#tightened(order, checked, before, limits, breaches);
    if (tight) {
      tightened = { from: order.price, by: breaches.some((b) => b.code === 'risk.daily_loss') ? 'budget' : 'band' };
      order = { ...order, price: tight.price };
      checked = tight.checked;
      breaches = [];
    }
    const hard = breaches.length === 0 ? undefined : breaches.find((b) => !b.overridable);
    if (hard) throw this.#refuse(order, hard, breaches);

    if (settings.read(confirmOrdersOf) || breaches.length > 0 || before.risk === null) {
      identity ??= identityOf(view);
      const fair = view?.fair(order.assetId, order.epoch);
      const yes = await this.#d.dialogs.confirm(
        orderDialog({
          path: order.path,
          signer: order.signer,
          signerLabel: this.#d.labelOf(order.signer),
          role: order.role,
          master: order.master,
          market: view?.marketName(order.assetId, order.epoch) ?? `asset ${order.assetId} epoch ${order.epoch}`,
          sell: order.sell,
          price: order.price,
          size: order.size,
          timeInForce: order.timeInForce,
          inventory: before.risk?.inventory ?? null,
          fair: fair?.known
            ? { price: fair.price }
            : { reason: fair?.reason ?? 'this machine has no oracle prices, so fair value is not known here.' },
          breaches,
          unchecked: before.risk === null ? [NOT_READ] : [],
          deployment: view?.deploymentName ?? null,
          notes: order.notes ?? [],
        }),
      );
      if (!yes) {
        const first = breaches[0];
        if (first) throw this.#refuse(order, first, breaches);
        throw new BridgeFailure('orders.not_confirmed', 'The order was not confirmed, so nothing was sent.');
      }
      // The dialog showed one account, one domain and one set of facts: nothing else may be signed now.
      if (identityOf(view) !== identity)
        throw new BridgeFailure(
          'orders.changed_meanwhile',
          'Not sent: the account or the signing domain changed while the order dialog was open. Check the order and send it again.',
        );
      const again = this.#read(order, view, limits);
      last = again instanceof Promise ? await again : again;
      const after = this.#check(checked, order.master, last, limits);
      const agreed = new Set(breaches.map((b) => b.code));
      const fresh = after.find((b) => !agreed.has(b.code));
      if (fresh) throw this.#refuse(order, fresh, []);
    }

    // The reservation in the same synchronous step as the last check: no other pass can come between.
    const handedOut = HANDED_OUT.has(order.path);
    const orderTerms = {
      assetId: order.assetId,
      epoch: order.epoch,
      sell: order.sell,
      price: order.price,
      size: order.size,
    };
    // An order signed here earlier and sent now: its kept reservation gives way to this send's.
    if (SENDS_SIGNED.has(order.path)) this.#d.reservations.sent(order.master, orderTerms);
    const endReservation = this.#d.reservations.take({
      account: order.master,
      ...orderTerms,
      // One that may rest counts with its market (`rests`), not by a cost of its own.
      cost: handedOut
        ? orderMargin(order.sell, order.size, order.price)
        : checked.mayRest
          ? 0n
          : ownCost(checked, last.fair, this.#riskNow(order.master, last)),
      untilEpochEnds: handedOut,
      rests: !handedOut && checked.mayRest,
    });
    this.#d.rate.note(order.master);
    this.#d.budget.noteTraded(order.master);
    // Kept for rehearse(). Inside the timed window: on the hotkey path the identity is read only here.
    if (view) this.#last = { order, checked, view, identity: identity ?? identityOf(view) };
    coreProbe.onGate?.('leave');
    const outcome = { price: order.price, ...(tightened ? { tightened } : {}) };
    if (!order.signsHere) return { terms: null, ...outcome, release: endReservation };
    const terms: ClearedTerms = {
      signer: order.signer,
      sender: order.master,
      assetId: order.assetId,
      epoch: order.epoch,
      sell: order.sell,
      price: order.price,
      size: order.size,
    };
    this.#d.clearances.issue(terms);
    return {
      terms,
      ...outcome,
      release: () => {
        this.#d.clearances.void(terms);
        endReservation();
      },
    };
  }

  /**
   * Runs the checks of the last order that passed again, on the account and prices as they are now,
   * keeping nothing and sending nothing: no dialog, no clearance, no count toward the rate limit, no
   * day's baseline started, no read of the account started, no log. Main calls it on the person's
   * press (a key or button going down), a few milliseconds before the order that press may trigger:
   * that order then finds the account's figures made and the gate's code and data warm in the CPU's
   * caches, instead of cold after the idle time between orders (docs/risk-guards.md#how-the-gate-stays-fast).
   * Nothing to rehearse before the first order, or once the account or signing domain changed or its
   * session stopped (the order is forgotten); a throw forgets it too and never reaches the input handling.
   */
  rehearse(): void {
    const last = this.#last;
    if (!last) return;
    const { order, checked, view } = last;
    try {
      if (view.identity() !== last.identity) {
        this.#last = null;
        return;
      }
      // Today's baseline is started by an order the gate checks, never by a key press.
      if (!this.#d.budget.peek(order.master)) return;
      const snap = view.accountIfRead(order.master, order.assetId, order.epoch, order.sell, order.replaces);
      // Not read, or its session stopped: the next order passes (and rehearses) under the new one.
      if (!snap) {
        this.#last = null;
        return;
      }
      const limits = this.#limits(this.#d.settings.read(riskLimitsOf));
      this.#check(checked, order.master, this.#riskOf(order, view, snap, limits), limits);
      // Its answer is not needed: read as the gate reads it, so that read is warm too.
      this.#d.settings.read(confirmOrdersOf);
    } catch {
      this.#last = null;
    }
  }

  /** The account as the guards count it for this order, with today's loss, and the fair value they check against. */
  #read(order: GateOrder, view: GateView | null, limits: ParsedLimits): Read | Promise<Read> {
    const snap = view ? view.account(order.master, order.assetId, order.epoch, order.sell, order.replaces) : null;
    return snap instanceof Promise
      ? snap.then((s) => this.#riskOf(order, view, s, limits))
      : this.#riskOf(order, view, snap, limits);
  }

  #riskOf(order: GateOrder, view: GateView | null, snap: AccountSnapshot | null, limits: ParsedLimits): Read {
    if (!snap) {
      const f = view?.fair(order.assetId, order.epoch);
      return { risk: null, fair: f?.known ? f.price : null, key: `${order.assetId}:${order.epoch}` };
    }
    const status = this.#d.budget.status(order.master, snap.equity, limits.dailyLossBps, limits.dailyLossFixed);
    return {
      risk: {
        inventory: snap.inventory,
        sameSide: snap.sameSide,
        openOrders: snap.openOrders,
        restingCost: snap.restingCost,
        ...(snap.here ? { here: snap.here } : {}),
        // Read at the check itself (#check), never with the account: a read may be awaited.
        reserved: 0n,
        lossToday: status.loss,
        lossLimit: status.limit,
      },
      fair: snap.fair,
      key: `${order.assetId}:${order.epoch}`,
      ...(snap.market ? { market: snap.market } : {}),
    };
  }

  /**
   * The guards on one read. The reservations are counted here, at the check, not with the read: a read
   * may have been awaited while other orders passed and reserved, and the caller reserves in the same
   * synchronous step as this check.
   */
  #check(order: CheckedOrder, master: string, read: Read, limits: ParsedLimits): Breach[] {
    return breachesOf({
      order,
      fair: read.fair,
      limits,
      account: this.#riskNow(master, read),
      sentInLastMinute: this.#d.rate.inLastMinute(master),
    });
  }

  /**
   * The most the account's open orders and orders on their way could lose now, as the gate counts them
   * with today's loss (resting-worst.ts, reservations.ts); null when its account is not read here.
   */
  openWorst(master: string, view: GateView | null): bigint | null {
    const open = view?.openIfRead(master) ?? null;
    if (!open) return null;
    const { added } = withOnTheirWay(this.#d.reservations.resting(master), open.market ?? unread);
    return open.restingCost + added + this.#d.reservations.total(master);
  }

  /**
   * The read's account with the reservations as they are now: orders on their way that may rest are
   * counted with their market's resting orders (resting-worst.ts), the rest as reserved.
   */
  #riskNow(master: string, read: Read): AccountRisk | null {
    if (!read.risk) return null;
    const reserved = this.#d.reservations.total(master);
    const onWay = this.#d.reservations.resting(master);
    if (onWay.length === 0) return reserved === read.risk.reserved ? read.risk : { ...read.risk, reserved };
    const { added, sums } = withOnTheirWay(onWay, read.market ?? unread);
    const here = sums.get(read.key);
    return {
      ...read.risk,
      reserved,
      restingCost: read.risk.restingCost + added,
      ...(here ? { here } : {}),
    };
  }

  /**
   * A marketable order whose only breaches are the band and the budget, at the worst price they allow,
   * when that price still reaches the best opposite price and breaks nothing; null otherwise.
   */
  #tightened(
    order: GateOrder,
    checked: CheckedOrder,
    read: Read,
    limits: ParsedLimits,
    breaches: readonly Breach[],
  ): { price: bigint; checked: CheckedOrder } | null {
    const best = order.tighten?.best ?? null;
    if (best === null || breaches.length === 0) return null;
    if (!breaches.every((b) => b.code === 'risk.price_band' || b.code === 'risk.daily_loss')) return null;
    const price = allowedLimit(checked, read.fair, this.#riskNow(order.master, read), limits);
    if (price === null || price === checked.price) return null;
    if (checked.sell ? price > best : price < best) return null;
    const tight = { ...checked, price };
    return this.#check(tight, order.master, read, limits).length === 0 ? { price, checked: tight } : null;
  }

  #refuse(order: GateOrder, b: Breach, all: readonly Breach[]): BridgeFailure {
    this.#d.logger.info('risk.refused', { code: b.code, path: order.path });
    return refusal(b, all);
  }
}
