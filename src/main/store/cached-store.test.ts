import { describe, expect, it } from 'vitest';
import { cachedStore } from './cached-store';
import { createMemoryStore, type KeyValueStore } from './key-value-store';

/** A memory store that counts reads of the backing store. */
function counted(): KeyValueStore & { reads: () => number } {
  const inner = createMemoryStore();
  let reads = 0;
  return {
    get: (key) => {
      reads++;
      return inner.get(key);
    },
    set: (key, value) => inner.set(key, value),
    delete: (key) => inner.delete(key),
    reads: () => reads,
  };
}

describe('cachedStore', () => {
  it('reads each key from the backing store once, absent keys included', () => {
    const inner = counted();
    inner.set('a', { n: 1 });
    const store = cachedStore(inner);
    expect(store.get('a')).toEqual({ n: 1 });
    expect(store.get('a')).toEqual({ n: 1 });
    expect(store.get('missing')).toBeUndefined();
    expect(store.get('missing')).toBeUndefined();
    expect(inner.reads()).toBe(2);
  });

  it('reads a key again after a write or a delete, so it returns what the backing store kept', () => {
    const inner = counted();
    const store = cachedStore(inner);
    store.set('a', { n: 1 });
    expect(store.get('a')).toEqual({ n: 1 });
    store.set('a', { n: 2 });
    expect(store.get('a')).toEqual({ n: 2 });
    store.delete('a');
    expect(store.get('a')).toBeUndefined();
    expect(inner.get('a')).toBeUndefined();
    expect(inner.reads()).toBe(4);
  });

  it('copies values out, so a caller cannot change what the next one reads', () => {
    const store = cachedStore(createMemoryStore({ a: { list: [1] } }));
    (store.get('a') as { list: number[] }).list.push(2);
    expect(store.get('a')).toEqual({ list: [1] });
  });
});
