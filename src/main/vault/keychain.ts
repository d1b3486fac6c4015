import { randomBytes } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { VaultError } from './errors';
import type { SecretBackend } from './secret-backend';

export const KEYCHAIN_SERVICE = 'Exchange Terminal';

/**
 * On Linux, keyring falls back to the kernel keyring (lost at reboot) when no Secret Service answers;
 * pinning the store makes that case an error so the vault can switch to its file fallback instead.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** Runs a keychain call with a time limit: a locked keyring may wait forever on an unlock prompt. */
async function bounded<T>(timeoutMs: number, what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), timeout]);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : 'unknown error';
    throw new VaultError('KEYCHAIN_UNAVAILABLE', `The system keychain failed to ${what} (${reason}).`);
  } finally {
    clearTimeout(timer);
  }
}

function entry(service: string, account: string): AsyncEntry {
  return new AsyncEntry(service, account, ENTRY_OPTIONS);
}

/** Secrets in the OS keychain: service = `service`, account = checksummed address. */
export function createKeychainBackend(service = KEYCHAIN_SERVICE, timeoutMs = 10_000): SecretBackend {
  return {
    kind: 'keychain',
    read: (address) => bounded(timeoutMs, 'read a key', async (signal) => entry(service, address).getPassword(signal)),
    write: (address, secret) =>
      bounded(timeoutMs, 'store a key', async (signal) => entry(service, address).setPassword(secret, signal)),
    remove: (address) =>
      bounded(timeoutMs, 'delete a key', async (signal) => {
        await entry(service, address).deletePassword(signal);
      }),
  };
}

export type KeychainProbe = { available: true } | { available: false; reason: string };

/** Writes, reads back and deletes a random probe entry to learn whether a keychain really answers. */
export async function probeKeychain(service = KEYCHAIN_SERVICE, timeoutMs = 3_000): Promise<KeychainProbe> {
  const backend = createKeychainBackend(service, timeoutMs);
  const account = `probe-${randomBytes(8).toString('hex')}`;
  const value = randomBytes(16).toString('hex');
  try {
    await backend.write(account, value);
    const read = await backend.read(account);
    await backend.remove(account);
    if (read !== value) return { available: false, reason: 'The system keychain did not return what was stored.' };
    return { available: true };
  } catch (err) {
    const detail = err instanceof VaultError ? err.message.replace(/^The system keychain failed to [^(]*/, '') : '';
    return {
      available: false,
      reason: `No system keychain answered${detail ? ` ${detail.trim().replace(/\.$/, '')}` : ''}.`,
    };
  }
}
