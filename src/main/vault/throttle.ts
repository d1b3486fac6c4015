import { z } from 'zod';
import type { KeyValueStore } from '../store/key-value-store';

const STATE_KEY = 'vault.passwordFailures';
const StateSchema = z.object({ failures: z.number().int().min(0), lastFailureAt: z.number() });
type State = z.infer<typeof StateSchema>;

export const MAX_DELAY_MS = 60_000;

/** Wait after `failures` consecutive wrong passwords: 0, 1, 2, 4, 8 … s, capped at 60 s. */
export function delayAfter(failures: number): number {
  if (failures <= 1) return 0;
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - 2));
}

/**
 * Counts consecutive wrong passwords in the store, so quitting and restarting the app does not reset
 * the delay.
 */
export class PasswordThrottle {
  readonly #store: KeyValueStore;
  readonly #now: () => number;
  constructor(store: KeyValueStore, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  #state(): State {
    const parsed = StateSchema.safeParse(this.#store.get(STATE_KEY));
    return parsed.success ? parsed.data : { failures: 0, lastFailureAt: 0 };
  }

  /** Epoch ms until which attempts are refused, or null when an attempt may be made now. */
  throttledUntil(): number | null {
    const { failures, lastFailureAt } = this.#state();
    const until = lastFailureAt + delayAfter(failures);
    return until > this.#now() ? until : null;
  }

  recordFailure(): void {
    this.#store.set(STATE_KEY, { failures: this.#state().failures + 1, lastFailureAt: this.#now() });
  }

  reset(): void {
    this.#store.delete(STATE_KEY);
  }
}
