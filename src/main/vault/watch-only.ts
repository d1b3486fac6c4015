/**
 * Watch-only accounts: an address the terminal watches without holding its key. Kept beside the
 * vault's key metadata in the same store; there is no secret, so nothing here can sign.
 */
import { getAddress } from 'ethers';
import { z } from 'zod';
import type { KeyValueStore } from '../store/key-value-store';
import { VaultError } from './errors';

const WATCH_KEY = 'vault.watchOnly';
/** More addresses than anyone watches; a bound so a hostile caller cannot grow the store. */
export const MAX_WATCH_ONLY = 64;

export const WatchOnlySchema = z.object({
  address: z.string(),
  label: z.string(),
  createdAt: z.string(),
});
export type WatchOnlyInfo = z.infer<typeof WatchOnlySchema>;

export class WatchOnlyAccounts {
  readonly #store: KeyValueStore;
  readonly #now: () => number;
  readonly #changed: () => void;

  constructor(store: KeyValueStore, now: () => number, changed: () => void) {
    this.#store = store;
    this.#now = now;
    this.#changed = changed;
  }

  list(): WatchOnlyInfo[] {
    const parsed = z.array(WatchOnlySchema).safeParse(this.#store.get(WATCH_KEY) ?? []);
    return parsed.success ? parsed.data : [];
  }

  has(address: string): boolean {
    return this.list().some((w) => w.address.toLowerCase() === address.toLowerCase());
  }

  /** Adds an address; `held` says whether the vault already holds its key (then it is not watch-only). */
  add(address: string, label: string | undefined, held: boolean): WatchOnlyInfo {
    // The bridge checked the shape; lower case first so any letter case is the same address.
    const checksummed = getAddress(address.toLowerCase());
    if (held) throw new VaultError('DUPLICATE_KEY', 'This vault holds the key of that address: it is not watch-only.');
    const list = this.list();
    const existing = list.find((w) => w.address.toLowerCase() === checksummed.toLowerCase());
    if (existing) return existing;
    if (list.length >= MAX_WATCH_ONLY)
      throw new VaultError('WATCH_ONLY_FULL', `At most ${MAX_WATCH_ONLY} watch-only accounts can be kept.`);
    const info: WatchOnlyInfo = {
      address: checksummed,
      label: label ?? `Watch-only ${list.length + 1}`,
      createdAt: new Date(this.#now()).toISOString(),
    };
    this.#store.set(WATCH_KEY, [...list, info]);
    this.#changed();
    return info;
  }

  remove(address: string): boolean {
    const list = this.list();
    const next = list.filter((w) => w.address.toLowerCase() !== address.toLowerCase());
    if (next.length === list.length) return false;
    this.#store.set(WATCH_KEY, next);
    this.#changed();
    return true;
  }
}
