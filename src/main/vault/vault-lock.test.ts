// App lock, throttling and idle auto-lock, with a manual clock and an in-memory stand-in for the keychain.
import { Wallet, keccak256, toUtf8Bytes } from 'ethers';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type KeyValueStore } from '../store/key-value-store';
import { createManualClock } from './clock';
import { VaultError } from './errors';
import type { SecretBackend } from './secret-backend';
import { delayAfter } from './throttle';
import { Vault } from './vault';

const CHEAP = { N: 1024, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

function memoryKeychain(): SecretBackend & { reads: number; entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const backend = {
    kind: 'keychain' as const,
    reads: 0,
    entries,
    read: (a: string) => {
      backend.reads++;
      return Promise.resolve(entries.get(a) ?? null);
    },
    write: (a: string, s: string) => {
      entries.set(a, s);
      return Promise.resolve();
    },
    remove: (a: string) => {
      entries.delete(a);
      return Promise.resolve();
    },
  };
  return backend;
}

function make(store: KeyValueStore = createMemoryStore(), backend = memoryKeychain(), clock = createManualClock()) {
  const vault = new Vault({ store, backend, clock, passwordScrypt: CHEAP, autoLockMinutes: 5 });
  return { vault, store, backend, clock };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof VaultError ? e.code : `not a VaultError: ${String(e)}`;
  }
}

describe('delayAfter', () => {
  it('grows 0, 0, 1, 2, 4 … s and caps at 60 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(delayAfter)).toEqual([
      0, 0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });
});

describe('app lock', () => {
  it('without a password: starts unlocked, lock/unlock still gate signing', async () => {
    const { vault } = make();
    expect(vault.status()).toMatchObject({ locked: false, hasPassword: false, backend: 'keychain' });
    const key = await vault.create();
    vault.lock();
    expect(await code(vault.signDigest(key.address, keccak256('0x01')))).toBe('LOCKED');
    await vault.unlock();
    expect(await code(vault.signDigest(key.address, keccak256('0x01')))).toBe('ok');
  });

  it('reads the keychain once per key per unlock', async () => {
    const { vault, backend } = make();
    const key = await vault.create();
    const digest = keccak256(toUtf8Bytes('x'));
    await Promise.all([vault.signDigest(key.address, digest), vault.signDigest(key.address, digest)]);
    for (let i = 0; i < 10; i++) await vault.signDigest(key.address, digest);
    expect(backend.reads).toBeLessThanOrEqual(2); // two parallel first calls may both read
    const before = backend.reads;
    vault.lock();
    await vault.unlock();
    await vault.signDigest(key.address, digest);
    await vault.signDigest(key.address, digest);
    expect(backend.reads).toBe(before + 1);
  });

  it('throttles wrong passwords with a growing delay that survives a restart', async () => {
    const store = createMemoryStore();
    const clock = createManualClock();
    const { vault, backend } = make(store, memoryKeychain(), clock);
    await vault.setPassword(PASSWORD, PASSWORD);
    vault.lock();

    expect(await code(vault.unlock('wrong-1'))).toBe('BAD_PASSWORD'); // 1st: no wait
    expect(vault.status().throttledUntil).toBeNull();
    expect(await code(vault.unlock('wrong-2'))).toBe('BAD_PASSWORD'); // 2nd: 1 s
    expect(vault.status().throttledUntil).toBe(clock.now() + 1000);
    // While throttled, even the right password is refused at once, with the wait in the message.
    const err = await vault.unlock(PASSWORD).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe('THROTTLED');
    expect((err as VaultError).message).toBe('Too many wrong passwords: try again in 1 s.');
    clock.advance(1000);
    expect(await code(vault.unlock('wrong-3'))).toBe('BAD_PASSWORD'); // 3rd: 2 s

    // Restart: a new Vault on the same store is still throttled.
    const restarted = new Vault({ store, backend, clock, passwordScrypt: CHEAP });
    expect(restarted.status()).toMatchObject({ locked: true, hasPassword: true, throttledUntil: clock.now() + 2000 });
    expect(await code(restarted.unlock(PASSWORD))).toBe('THROTTLED');
    clock.advance(1999);
    expect(await code(restarted.unlock(PASSWORD))).toBe('THROTTLED');
    clock.advance(1);
    expect(await code(restarted.unlock(PASSWORD))).toBe('ok');
    // Success clears the streak.
    restarted.lock();
    expect(await code(restarted.unlock('wrong-again'))).toBe('BAD_PASSWORD');
    expect(restarted.status().throttledUntil).toBeNull();
  });

  it('caps the delay at 60 s', async () => {
    const clock = createManualClock();
    const { vault } = make(createMemoryStore(), memoryKeychain(), clock);
    await vault.setPassword(PASSWORD, PASSWORD);
    vault.lock();
    for (let i = 0; i < 12; i++) {
      expect(await code(vault.unlock(`wrong-${i}`))).toBe('BAD_PASSWORD');
      clock.advance(60_000);
    }
    await vault.unlock(`wrong-again`).catch(() => undefined);
    expect(vault.status().throttledUntil).toBe(clock.now() + 60_000);
  });

  it('parallel guesses cannot slip past the throttle', async () => {
    const { vault } = make();
    await vault.setPassword(PASSWORD, PASSWORD);
    vault.lock();
    const codes = await Promise.all(['a', 'b', 'c', 'd'].map((p) => code(vault.unlock(`wrong-${p}`))));
    expect(codes).toEqual(['BAD_PASSWORD', 'BAD_PASSWORD', 'THROTTLED', 'THROTTLED']);
  });

  it('auto-locks after the idle time; touch() postpones it; events fire', async () => {
    const clock = createManualClock();
    const { vault } = make(createMemoryStore(), memoryKeychain(), clock);
    const events: string[] = [];
    vault.on('locked', (e) => events.push(`locked:${e.reason}`));
    vault.on('unlocked', () => events.push('unlocked'));
    const unsubscribe = vault.on('keys-changed', (e) => events.push(`keys:${e.keys.length}`));

    const key = await vault.create();
    clock.advance(10 * 60_000);
    expect(vault.status().locked).toBe(false); // no password: nothing to auto-lock to

    await vault.setPassword(PASSWORD, PASSWORD);
    clock.advance(4 * 60_000);
    vault.touch();
    clock.advance(4 * 60_000);
    expect(vault.status().locked).toBe(false);
    clock.advance(60_000);
    expect(vault.status().locked).toBe(true);
    expect(await code(vault.signDigest(key.address, keccak256('0x02')))).toBe('LOCKED');

    await vault.unlock(PASSWORD);
    vault.setAutoLockMinutes(1);
    clock.advance(59_999);
    expect(vault.status().locked).toBe(false);
    clock.advance(1);
    expect(vault.status().locked).toBe(true);

    await vault.unlock(PASSWORD);
    vault.setAutoLockMinutes(null);
    clock.advance(24 * 60 * 60_000);
    expect(vault.status().locked).toBe(false);
    unsubscribe();
    await vault.create();
    expect(events).toEqual(['keys:1', 'locked:idle', 'unlocked', 'locked:idle', 'unlocked']);
  });

  it('never stores the password or a key in the metadata store', async () => {
    const store = createMemoryStore();
    const { vault, backend } = make(store);
    await vault.setPassword(PASSWORD, PASSWORD);
    const pk = Wallet.createRandom().privateKey;
    await vault.importPrivateKey(pk);
    const json = JSON.stringify(store.snapshot());
    expect(json).not.toContain(PASSWORD);
    expect(json).not.toContain(pk.slice(2));
    expect([...backend.entries.values()]).toEqual([pk]);
  });
});
