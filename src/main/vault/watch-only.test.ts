// Watch-only accounts: kept beside the keys' metadata, checksummed, never a key the vault holds, bounded.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/key-value-store';
import { MAX_WATCH_ONLY, WatchOnlyAccounts } from './watch-only';

const ADDRESS = '0x8ba1f109551bd432803012645ac136ddd64dba72';

describe('WatchOnlyAccounts', () => {
  it('adds by address alone, checksummed, once, and persists in the store', () => {
    const store = createMemoryStore();
    let changes = 0;
    const w = new WatchOnlyAccounts(
      store,
      () => 0,
      () => changes++,
    );
    const info = w.add(ADDRESS, 'cold', false);
    expect(info).toEqual({
      address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      label: 'cold',
      createdAt: '1970-01-01T00:00:00.000Z',
    });
    expect(w.add(ADDRESS.toUpperCase().replace('0X', '0x'), 'again', false)).toEqual(info);
    expect(
      new WatchOnlyAccounts(
        store,
        () => 0,
        () => undefined,
      ).has(ADDRESS),
    ).toBe(true);
    expect(changes).toBe(1);
    expect(w.remove(ADDRESS)).toBe(true);
    expect(w.remove(ADDRESS)).toBe(false);
    expect(w.list()).toEqual([]);
  });

  it('refuses an address whose key the vault holds, and more than the bound', () => {
    const w = new WatchOnlyAccounts(
      createMemoryStore(),
      () => 0,
      () => undefined,
    );
    expect(() => w.add(ADDRESS, undefined, true)).toThrow(/holds the key/);
    for (let i = 0; i < MAX_WATCH_ONLY; i++) w.add(`0x${i.toString(16).padStart(40, '0')}`, undefined, false);
    expect(() => w.add(ADDRESS, undefined, false)).toThrow(/At most/);
  });
});
