/** The app's KeyValueStore: electron-store under userData, read from disk once per key (electron runtime file: see eslint.config.js). */
import Store from 'electron-store';
import { cachedStore } from '../store/cached-store';
import type { KeyValueStore } from '../store/key-value-store';

export function createElectronKeyValueStore(): KeyValueStore {
  // Flat keys such as "vault.keys", exactly like the conf store the node tests use.
  const store = new Store<Record<string, unknown>>({ name: 'exchange-terminal', accessPropertiesByDotNotation: false });
  return cachedStore({
    get: (key) => store.get(key),
    set: (key, value) => {
      if (value === undefined) store.delete(key);
      else store.set(key, value);
    },
    delete: (key) => {
      store.delete(key);
    },
  });
}
