/**
 * Working orders in main's store: written whenever one changes, and always before an order it fires
 * is sent (runner.ts), so a restart knows what was on its way. Ended orders are kept a while for the
 * list (the last ENDED_KEPT, none older than a day); a record that does not parse is dropped, never guessed.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../../store/key-value-store';
import { running, toStored, workingOrderRecord, type WorkingOrder } from './types';

const STORE_KEY = 'workingOrders';
/** At most this many running at once: a ladder trader's exits and rolls fit; a script spraying them does not. */
export const MAX_RUNNING = 64;
const ENDED_KEPT = 50;
const ENDED_FOR_MS = 86_400_000;

export class WorkingOrderStore {
  readonly #store: KeyValueStore;
  readonly #orders: WorkingOrder[];

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

  /** Replaces a record by its id (an edit made on a copy). */
  replace(o: WorkingOrder): void {
    const i = this.#orders.findIndex((x) => x.id === o.id);
    if (i >= 0) this.#orders[i] = o;
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
    for (let i = this.#orders.length - 1; i >= 0; i--) if (drop.has(this.#orders[i]!)) this.#orders.splice(i, 1);
    this.#store.set(STORE_KEY, toStored(this.#orders));
  }
}

/** The stored form parses back to the same record (tests hold the store to it). */
export const storedList = z.array(workingOrderRecord);
