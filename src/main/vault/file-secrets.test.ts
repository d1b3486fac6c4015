import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultError } from './errors';
import { FileSecretStore } from './file-secrets';

const CHEAP = { N: 1024, r: 8, p: 1 };
const SECRET = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
const dirs: string[] = [];

interface VaultFileHead {
  kdf: { salt: string; params: Record<string, number> };
}
function readVaultFile(path: string): VaultFileHead {
  return JSON.parse(readFileSync(path, 'utf8')) as VaultFileHead;
}

function fresh(): { path: string; store: FileSecretStore } {
  const dir = mkdtempSync(join(tmpdir(), 'file-secrets-'));
  dirs.push(dir);
  const path = join(dir, 'keys.vault');
  return { path, store: new FileSecretStore({ filePath: path, scrypt: CHEAP }) };
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('FileSecretStore', () => {
  it('round-trips secrets, never writes plaintext and leaves no temp files', async () => {
    const { path, store } = fresh();
    expect(store.exists()).toBe(false);
    await store.create('vault-password');
    await store.write(ADDRESS, SECRET);
    const raw = readFileSync(path, 'utf8');
    expect(raw).not.toContain(SECRET.slice(2));
    expect(raw).not.toContain(ADDRESS);
    expect(raw).not.toContain('vault-password');
    expect(JSON.parse(raw)).toMatchObject({ format: 'exchange-terminal-vault', version: 1, kdf: { name: 'scrypt' } });
    expect(readdirSync(join(path, '..'))).toEqual(['keys.vault']);

    const reopened = new FileSecretStore({ filePath: path, scrypt: CHEAP });
    expect(reopened.isOpen()).toBe(false);
    await expect(reopened.read(ADDRESS)).rejects.toMatchObject({ code: 'LOCKED' });
    expect(await reopened.open('wrong-password')).toBe(false);
    expect(await reopened.open('vault-password')).toBe(true);
    expect(await reopened.read(ADDRESS)).toBe(SECRET);
    await reopened.remove(ADDRESS);
    expect(await reopened.read(ADDRESS)).toBeNull();
    reopened.close();
    await expect(reopened.write(ADDRESS, SECRET)).rejects.toMatchObject({ code: 'LOCKED' });
  });

  it('changes the password with a fresh salt', async () => {
    const { path, store } = fresh();
    await store.create('first-password');
    await store.write(ADDRESS, SECRET);
    const salt1 = readVaultFile(path).kdf.salt;
    await store.changePassword('second-password');
    expect(readVaultFile(path).kdf.salt).not.toBe(salt1);
    const other = new FileSecretStore({ filePath: path, scrypt: CHEAP });
    expect(await other.open('first-password')).toBe(false);
    expect(await other.open('second-password')).toBe(true);
    expect(await other.read(ADDRESS)).toBe(SECRET);
  });

  it('refuses a tampered or damaged file', async () => {
    const { path, store } = fresh();
    await store.create('vault-password');
    await store.write(ADDRESS, SECRET);
    const file = readVaultFile(path);
    // Lowering the KDF cost in the header breaks authentication (the header is bound as AAD).
    writeFileSync(path, JSON.stringify({ ...file, kdf: { ...file.kdf, params: { ...file.kdf.params, N: 512 } } }));
    expect(await new FileSecretStore({ filePath: path }).open('vault-password')).toBe(false);
    writeFileSync(path, '{ not json');
    const err = await new FileSecretStore({ filePath: path }).open('vault-password').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe('FILE_VAULT_CORRUPT');
  });

  it('refuses to create over an existing file', async () => {
    const { store } = fresh();
    await store.create('vault-password');
    await expect(store.create('other-password')).rejects.toMatchObject({ code: 'PASSWORD_ALREADY_SET' });
  });
});
