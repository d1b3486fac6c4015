import type { KeyValueStore } from './key-value-store';

/**
 * Reads served from memory after the first. conf and electron-store read and parse their whole JSON
 * file on every get (they allow for other processes writing it); here main is the file's only writer
 * (one instance of the app), and some keys are read on every trading call (the vault's lock state and
 * password throttle), so a hotkey order would otherwise wait on the disk. A write drops the key, so
 * the next read returns exactly what the backing store made of the value; values are copied out, so a
 * caller cannot change what the next one reads.
 */
export function cachedStore(inner: KeyValueStore): KeyValueStore {
  const cache = new Map<string, unknown>();
  return {
    get: (key) => {
      if (!cache.has(key)) cache.set(key, inner.get(key));
      return structuredClone(cache.get(key));
    },
    set: (key, value) => {
      cache.delete(key);
      inner.set(key, value);
    },
    delete: (key) => {
      cache.delete(key);
      inner.delete(key);
    },
  };
}
