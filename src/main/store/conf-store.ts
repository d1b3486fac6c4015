import Conf from 'conf';
import { cachedStore } from './cached-store';
import type { KeyValueStore } from './key-value-store';

export interface ConfStoreOptions {
  /** Directory holding the JSON file (a temp dir in tests, the app's userData in production). */
  cwd: string;
  /** File name without extension. */
  configName?: string;
}

/** A KeyValueStore persisted as one JSON file by `conf` (atomic writes are conf's), read from disk once per key. */
export function createConfStore(options: ConfStoreOptions): KeyValueStore {
  const conf = new Conf<Record<string, unknown>>({
    cwd: options.cwd,
    configName: options.configName ?? 'config',
    projectName: 'exchange-terminal',
    // Keys such as "vault.keys" stay flat, like the electron-store the app injects.
    accessPropertiesByDotNotation: false,
  });
  return cachedStore({
    get: (key) => conf.get(key),
    set: (key, value) => {
      // conf refuses undefined; deleting is the same thing for our callers.
      if (value === undefined) conf.delete(key);
      else conf.set(key, value);
    },
    delete: (key) => {
      conf.delete(key);
    },
  });
}
