// Shared by the keychain-backed tests: a unique service per run, and the CI-versus-laptop policy when
// no Secret Service answers (CI must have one; a developer machine skips with a printed reason).
import { randomBytes } from 'node:crypto';
import { findCredentialsAsync, AsyncEntry } from '@napi-rs/keyring';
import { probeKeychain } from '../../src/main/vault/keychain';

export const TEST_SERVICE = `Exchange Terminal Test ${randomBytes(6).toString('hex')}`;

export interface KeychainAvailability {
  available: boolean;
  /** Set when unavailable: why, and how to get one. */
  reason: string;
  /** True when the tests must fail instead of skipping (CI=true). */
  mustFail: boolean;
}

export async function keychainAvailability(): Promise<KeychainAvailability> {
  const probe = await probeKeychain(TEST_SERVICE, 5_000);
  if (probe.available) return { available: true, reason: '', mustFail: false };
  const reason = `${probe.reason} Run the tests as \`bash scripts/with-keyring.sh npx vitest run src/main/vault\`.`;
  const mustFail = process.env['CI'] === 'true';
  // eslint-disable-next-line no-console -- the skip reason must be visible in the test output
  if (!mustFail) console.warn(`[keychain tests skipped] ${reason}`);
  return { available: false, reason, mustFail };
}

/** Deletes everything this run stored under TEST_SERVICE. */
export async function cleanTestService(): Promise<void> {
  try {
    const creds = await findCredentialsAsync(TEST_SERVICE);
    for (const c of creds)
      await new AsyncEntry(TEST_SERVICE, c.account, { linux: { store: 'secret-service' } }).deletePassword();
  } catch {
    /* nothing was stored */
  }
}
