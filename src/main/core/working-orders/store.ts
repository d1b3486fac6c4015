/**
 * Working orders in main's store: written whenever one changes, and always before an order it fires
 * is sent (runner.ts), so a restart knows what was on its way. Ended orders are kept a while for the
 * list (the last ENDED_KEPT, none older than a day); a record that does not parse is dropped, never guessed.
 */
import type { KeyValueStore } from '../../store/key-value-store';
import { running, toStored, workingOrderRecord, type WorkingOrder } from './types';

const STORE_KEY = 'workingOrders';
/** At most this many running at once: a ladder trader's exits and rolls fit; a script spraying them does not. */
export const MAX_RUNNING = 64;
const ENDED_KEPT = 50;
const ENDED_FOR_MS = 86_400_000;

export class WorkingOrderStore {
  readonly #store: KeyValueStore;
  #orders: WorkingOrder[];

  constructor(store: KeyValueStore) {
    this.#store = store;
    const raw = store.get(STORE_KEY);
    const list = Array.isArray(raw) ? raw : [];
    this.#orders = list.flatMap((r) => {
      const parsed = workingOrderRecord.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    });
  }

  all(): readonly WorkingOrder[] {
    return this.#orders;
  }

  get(id: string): WorkingOrder | undefined {
    return this.#orders.find((o) => o.id === id);
  }

  runningCount(): number {
    return this.#orders.filter(running).length;
  }

  add(o: WorkingOrder): void {
    this.#orders.push(o);
    this.save();
  }

  /** Writes every record; ended ones past their keeping are dropped first. */
  save(now = Date.now()): void {
    const ended = this.#orders.filter((o) => !running(o));
    const drop = new Set(
      ended
        .sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0))
        .filter((o, i) => i >= ENDED_KEPT || now - (o.endedAt ?? now) > ENDED_FOR_MS),
    );
    // A new array, never spliced in place: a caller may be iterating over all() while it saves.
    if (drop.size > 0) this.#orders = this.#orders.filter((o) => !drop.has(o));
    this.#store.set(STORE_KEY, toStored(this.#orders));
  }
}
