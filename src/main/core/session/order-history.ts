/**
 * The selected account's orders and what became of them (open, filled, cancelled, rejected), newest
 * first and bounded: a 1-minute market traded all day must not grow main's memory without end. Today's
 * entries are kept in main's store and come back after a restart (day-records.ts).
 */
import type { OrderHistoryEntry, SideName, SignAs, TimeInForceName } from '../../../shared/bridge';

export const ORDER_HISTORY_LIMIT = 300;

export interface PlacedOrder {
  assetId: bigint;
  epoch: bigint;
  orderId: string;
  side: SideName;
  price: bigint;
  size: bigint;
  timeInForce: TimeInForceName;
  signedBy: SignAs;
  /** The exchange's answer: what filled at once and whether anything rests. */
  status: 'ACCEPTED' | 'CANCELLED' | 'REJECTED' | 'FILLED' | 'PARTIALLY_FILLED';
  filled: bigint;
  /** The reject or cancel reason in words ('' when none). */
  reason: string;
}

export class OrderHistory {
  readonly #entries: OrderHistoryEntry[] = [];
  readonly #limit: number;
  readonly #onChange: (entries: readonly OrderHistoryEntry[]) => void;
  readonly #now: () => number;

  constructor(opts: { onChange: (entries: readonly OrderHistoryEntry[]) => void; now?: () => number; limit?: number }) {
    this.#onChange = opts.onChange;
    this.#now = opts.now ?? (() => Date.now());
    this.#limit = opts.limit ?? ORDER_HISTORY_LIMIT;
  }

  list(): OrderHistoryEntry[] {
    return [...this.#entries];
  }

  placed(o: PlacedOrder): void {
    const entry = orderHistoryEntryOf(o, this.#now());
    const existing = this.#index(o.orderId);
    // A resend the exchange had already processed keeps its first entry.
    if (existing >= 0) return;
    this.#entries.unshift(entry);
    if (this.#entries.length > this.#limit) this.#entries.length = this.#limit;
    this.#onChange(this.#entries);
  }

  /**
   * Entries of the same account kept from before (main's store, after a restart): those not known
   * here are added, newest placed first, within the limit. Returns whether any was added.
   */
  restore(entries: readonly OrderHistoryEntry[]): boolean {
    const known = new Set(this.#entries.map((e) => e.orderId.toLowerCase()));
    const added = entries.filter((e) => !known.has(e.orderId.toLowerCase()));
    if (added.length === 0) return false;
    // Stable: among entries placed at the same time, the ones held here stay first.
    const merged = [...this.#entries, ...added].sort((a, b) => b.placedAt - a.placedAt);
    this.#entries.splice(0, this.#entries.length, ...merged.slice(0, this.#limit));
    this.#onChange(this.#entries);
    return true;
  }

  /** Another account was selected: its orders are not this one's. */
  clear(): void {
    if (this.#entries.length === 0) return;
    this.#entries.length = 0;
    this.#onChange(this.#entries);
  }

  /** Open orders among `orderIds` are now cancelled. */
  cancelled(orderIds: readonly string[], reason = 'cancelled by you'): void {
    let changed = false;
    for (const id of orderIds) {
      const i = this.#index(id);
      const e = i >= 0 ? this.#entries[i] : undefined;
      if (!e || e.outcome !== 'open') continue;
      this.#entries[i] = { ...e, outcome: 'cancelled', reason, updatedAt: this.#now() };
      changed = true;
    }
    if (changed) this.#onChange(this.#entries);
  }

  /** A fill of one of our resting orders (from the feed). */
  filled(orderId: string, size: bigint): void {
    const i = this.#index(orderId);
    const e = i >= 0 ? this.#entries[i] : undefined;
    if (!e) return;
    const filled = BigInt(e.filled) + size;
    const done = filled >= BigInt(e.size);
    this.#entries[i] = {
      ...e,
      filled: filled.toString(),
      outcome: done && e.outcome === 'open' ? 'filled' : e.outcome,
      updatedAt: this.#now(),
    };
    this.#onChange(this.#entries);
  }

  #index(orderId: string): number {
    const id = orderId.toLowerCase();
    return this.#entries.findIndex((e) => e.orderId.toLowerCase() === id);
  }
}

/** The history entry of an order the exchange just answered, as `at` (ms). */
export function orderHistoryEntryOf(o: PlacedOrder, at: number): OrderHistoryEntry {
  const outcome: OrderHistoryEntry['outcome'] =
    o.status === 'REJECTED'
      ? 'rejected'
      : o.status === 'FILLED'
        ? 'filled'
        : o.status === 'CANCELLED'
          ? 'cancelled'
          : 'open';
  return {
    assetId: o.assetId.toString(),
    epoch: o.epoch.toString(),
    orderId: o.orderId,
    side: o.side,
    price: o.price.toString(),
    size: o.size.toString(),
    filled: o.filled.toString(),
    outcome,
    reason: o.reason.slice(0, 300),
    timeInForce: o.timeInForce,
    signedBy: o.signedBy,
    placedAt: at,
    updatedAt: at,
  };
}
