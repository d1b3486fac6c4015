/**
 * Own orders on screen at once: an order is shown as "sending" in open orders and the ladder's Mine
 * column in the frame its key or button was pressed, turns "resting" (or "rejected", with the
 * reason) as soon as main has the exchange's answer (its orderAnswered event, sent before main
 * re-reads the account), and gives way to main's own open-orders row once the account view lists it.
 * A window-side echo only: nothing here is sent anywhere or trusted by main.
 */
import { writable, type Readable } from 'svelte/store';
import type {
  AccountView,
  OpenOrderView,
  OrderHistoryEntry,
  OrderResult,
  OrderTicket,
  SideName,
  TimeInForceName,
} from '../../shared/bridge';
import { CENTS_SUFFIX, canonicalDecimal, parsePrice, parseSize } from '../../shared/protocol/units';

export type PendingState = 'sending' | 'resting' | 'rejected';

export interface PendingOrder {
  /** Local key (no order id exists before the exchange answers). */
  readonly key: number;
  readonly assetId: string;
  readonly epoch: string;
  readonly side: SideName;
  /** Protocol integers as decimal strings, as main sends them. */
  readonly price: string;
  readonly size: string;
  /** What still rests (the size until the answer says what filled). */
  readonly remaining: string;
  readonly timeInForce: TimeInForceName;
  readonly state: PendingState;
  readonly orderId: string | null;
  /** Why it was rejected, in words. */
  readonly reason: string;
  /** When it was sent (local ms), for its row. */
  readonly at: number;
}

/** How long a rejected order stays listed beside its notice. */
export const REJECTED_SHOWN_MS = 6_000;
/** A resting echo the account view never confirmed is dropped after this (it was filled or cancelled meanwhile). */
export const RESTING_ECHO_MS = 10_000;

export class OwnOrderEcho {
  readonly #store = writable<PendingOrder[]>([]);
  readonly orders: Readable<PendingOrder[]> = { subscribe: this.#store.subscribe };
  #list: PendingOrder[] = [];
  #next = 1;
  readonly #now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  #set(list: PendingOrder[]): void {
    this.#list = list;
    this.#store.set(list);
  }

  /** An order about to be sent: shown at once. Null when the ticket does not parse (main will say why). */
  sending(order: OrderTicket): number | null {
    let price: bigint;
    let size: bigint;
    try {
      price = parsePrice(canonicalDecimal(order.price, CENTS_SUFFIX));
      size = parseSize(canonicalDecimal(order.size));
    } catch {
      return null;
    }
    const key = this.#next++;
    this.#set([
      {
        key,
        assetId: order.assetId,
        epoch: order.epoch,
        side: order.side,
        price: price.toString(),
        size: size.toString(),
        remaining: size.toString(),
        timeInForce: order.timeInForce,
        state: 'sending',
        orderId: null,
        reason: '',
        at: this.#now(),
      },
      ...this.#list,
    ]);
    return key;
  }

  /** The exchange's answer as main recorded it (orderAnswered, sent as soon as main has it; or the history). */
  answered(entries: readonly OrderHistoryEntry[]): void {
    let list = this.#prune(this.#list);
    for (const e of entries) {
      if (list.some((p) => p.orderId?.toLowerCase() === e.orderId.toLowerCase())) continue;
      const i = list.findIndex(
        (p) =>
          p.state === 'sending' &&
          p.assetId === e.assetId &&
          p.epoch === e.epoch &&
          p.side === e.side &&
          p.price === e.price &&
          p.size === e.size,
      );
      if (i < 0) continue;
      list = list.flatMap((p, j) => (j === i ? this.#settle(p, e.orderId, e.outcome, e.filled, e.reason) : [p]));
    }
    this.#set(list);
  }

  /** The call returned: its result settles the order if the history event has not already. */
  settled(key: number | null, result: OrderResult | null): void {
    if (key === null) return;
    const list = this.#list.flatMap((p) => {
      if (p.key !== key) return [p];
      if (result === null) return []; // refused before it was sent: the notice says why
      if (p.state !== 'sending') return [p];
      const outcome =
        result.status === 'REJECTED'
          ? 'rejected'
          : result.status === 'FILLED' || result.status === 'CANCELLED'
            ? 'done'
            : 'open';
      return this.#settle(p, result.orderId, outcome, result.filled, result.reason);
    });
    this.#set(this.#prune(list));
  }

  /** Main's account view: an order it lists open needs no echo any more. */
  account(view: AccountView | null): void {
    const open = new Set((view?.openOrders ?? []).map((o) => o.orderId.toLowerCase()));
    this.#set(this.#prune(this.#list.filter((p) => p.orderId === null || !open.has(p.orderId.toLowerCase()))));
  }

  #settle(p: PendingOrder, orderId: string, outcome: string, filled: string, reason: string): PendingOrder[] {
    if (outcome === 'rejected') return [{ ...p, orderId, state: 'rejected', reason, at: this.#now() }];
    if (outcome !== 'open') return []; // filled or cancelled: nothing rests (its fill is told elsewhere)
    const remaining = BigInt(p.size) - BigInt(filled);
    return remaining > 0n
      ? [{ ...p, orderId, state: 'resting', remaining: remaining.toString(), at: this.#now() }]
      : [];
  }

  #prune(list: PendingOrder[]): PendingOrder[] {
    const now = this.#now();
    return list.filter(
      (p) =>
        (p.state !== 'rejected' || now - p.at < REJECTED_SHOWN_MS) &&
        (p.state !== 'resting' || now - p.at < RESTING_ECHO_MS),
    );
  }
}

/** The window's echo of its own orders. */
export const ownOrders = new OwnOrderEcho();

/** Own sizes on their way (sent, not yet answered), by price, for the ladder's Mine column (◌). */
export function pendingLevels(
  list: readonly PendingOrder[],
  assetId: string,
  epoch: string,
): { bids: Map<string, bigint>; asks: Map<string, bigint> } {
  return levelsIn(list, assetId, epoch, 'sending');
}

/**
 * Own sizes resting in the book as the answers know them, by price: the orders the exchange answered as
 * resting that main's account view does not list yet (their echoes), plus the account view's open
 * orders. The Mine column shows them as in the book (●) from the answer on, not from the book's next
 * update; the ladder takes the larger of this and the book's own size per row, as both count the same
 * orders once the book catches up (an echo ends when the account view lists its order).
 */
export function answeredLevels(
  list: readonly PendingOrder[],
  openOrders: readonly Pick<OpenOrderView, 'assetId' | 'epoch' | 'side' | 'price' | 'remaining'>[],
  assetId: string,
  epoch: string,
): { bids: Map<string, bigint>; asks: Map<string, bigint> } {
  const levels = levelsIn(list, assetId, epoch, 'resting');
  for (const o of openOrders) {
    if (o.assetId !== assetId || o.epoch !== epoch) continue;
    const side = o.side === 'buy' ? levels.bids : levels.asks;
    side.set(o.price, (side.get(o.price) ?? 0n) + BigInt(o.remaining));
  }
  return levels;
}

function levelsIn(
  list: readonly PendingOrder[],
  assetId: string,
  epoch: string,
  state: PendingState,
): { bids: Map<string, bigint>; asks: Map<string, bigint> } {
  const bids = new Map<string, bigint>();
  const asks = new Map<string, bigint>();
  for (const p of list) {
    if (p.assetId !== assetId || p.epoch !== epoch || p.state !== state) continue;
    const side = p.side === 'buy' ? bids : asks;
    side.set(p.price, (side.get(p.price) ?? 0n) + BigInt(p.remaining));
  }
  return { bids, asks };
}

/**
 * Pending size of one ladder row of `step` units: the row a level goes to, as the ladder groups it
 * (bids round down, asks round up: lib/ladder.ts groupLevels).
 */
export function pendingAt(
  levels: ReadonlyMap<string, bigint>,
  rowPrice: bigint,
  step: bigint,
  side: 'bid' | 'ask',
): bigint {
  let total = 0n;
  for (const [price, size] of levels) {
    const p = BigInt(price);
    const bucket = side === 'bid' ? (p / step) * step : ((p + step - 1n) / step) * step;
    if (bucket === rowPrice) total += size;
  }
  return total;
}
