/**
 * The persistence seam for main-process modules. electron-store and conf both have this shape, so the
 * Electron wiring injects an electron-store and node tests inject a conf or memory store.
 * Keys are flat strings (create the backing store with `accessPropertiesByDotNotation: false`).
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** A store held in memory; values are deep-copied so callers cannot mutate what is stored. */
export function createMemoryStore(initial: Record<string, unknown> = {}): KeyValueStore & {
  snapshot(): Record<string, unknown>;
} {
  const data = new Map<string, unknown>(Object.entries(structuredClone(initial)));
  return {
    get: (key) => (data.has(key) ? structuredClone(data.get(key)) : undefined),
    set: (key, value) => {
      data.set(key, structuredClone(value));
    },
    delete: (key) => {
      data.delete(key);
    },
    snapshot: () => structuredClone(Object.fromEntries(data)),
  };
}
