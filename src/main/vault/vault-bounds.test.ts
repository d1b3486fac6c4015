// What a hostile caller can make the vault hold or compute: keys are bounded in number, and a
// keystore is refused before any work when it is over the bounds, or while another is being opened.
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/key-value-store';
import { VaultError, type VaultErrorCode } from './errors';
import { encryptKeystore } from './keystore-v3';
import type { SecretBackend } from './secret-backend';
import { MAX_KEYS, Vault } from './vault';

const CHEAP = { N: 1024, r: 8, p: 1 };

function memoryKeychain(): SecretBackend & { writes: number } {
  const entries = new Map<string, string>();
  const backend = {
    kind: 'keychain' as const,
    writes: 0,
    read: (a: string) => Promise.resolve(entries.get(a) ?? null),
    write: (a: string, s: string) => {
      backend.writes++;
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

async function fails(p: Promise<unknown>, code: VaultErrorCode): Promise<VaultError> {
  const e: unknown = await p.then(
    () => new Error(`expected ${code}`),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VaultError);
  expect((e as VaultError).code).toBe(code);
  expect((e as VaultError).message).toMatch(/^[A-Z].{15,}\.$/s);
  return e as VaultError;
}

function unlockedVault(backend = memoryKeychain()): Vault {
  // No app password on a keychain vault: unlocked from the start.
  return new Vault({ store: createMemoryStore(), backend, passwordScrypt: CHEAP, keystoreScrypt: CHEAP });
}

describe('vault bounds', () => {
  it(`holds at most ${MAX_KEYS} keys, however they are added`, async () => {
    const vault = unlockedVault();
    for (let i = 0; i < MAX_KEYS; i++) await vault.create();
    await fails(vault.create(), 'VAULT_FULL');
    await fails(vault.importPrivateKey(Wallet.createRandom().privateKey), 'VAULT_FULL');
    expect(vault.list()).toHaveLength(MAX_KEYS);
    await vault.delete(vault.list()[0]!.address);
    await vault.create();
    expect(vault.list()).toHaveLength(MAX_KEYS);
  });

  it('refuses a keystore over the bounds before deriving anything, and writes nothing', async () => {
    const backend = memoryKeychain();
    const vault = unlockedVault(backend);
    const wallet = Wallet.createRandom();
    const json = JSON.parse(await encryptKeystore(wallet, 'pw-12345678', CHEAP)) as {
      crypto: { kdfparams: Record<string, unknown> };
    };
    const costly = { ...json, crypto: { ...json.crypto, kdfparams: { ...json.crypto.kdfparams, n: 2 ** 30 } } };
    await fails(vault.importKeystore(JSON.stringify(costly), 'pw-12345678'), 'KEYSTORE_TOO_COSTLY');
    expect(backend.writes).toBe(0);
    expect(vault.list()).toEqual([]);
  });

  it('opens one keystore at a time: import and export while another runs are refused, then work', async () => {
    const vault = unlockedVault();
    const wallet = Wallet.createRandom();
    const json = await encryptKeystore(wallet, 'pw-12345678', { N: 2 ** 14, r: 8, p: 1 });
    const first = vault.importKeystore(json, 'pw-12345678');
    await fails(vault.importKeystore(json, 'pw-12345678'), 'KEYSTORE_BUSY');
    const other = await vault.create();
    await fails(vault.exportKeystore(other.address, 'export-pw-1', 'export-pw-1'), 'KEYSTORE_BUSY');
    const info = await first;
    expect(info).toMatchObject({ address: wallet.address, source: 'keystore' });
    const exported = await vault.exportKeystore(info.address, 'export-pw-1', 'export-pw-1');
    expect(JSON.parse(exported)).toMatchObject({ version: 3, address: wallet.address.slice(2).toLowerCase() });
  });
});
