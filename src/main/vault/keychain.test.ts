import { afterAll, describe, expect, it } from 'vitest';
import { createKeychainBackend, probeKeychain } from './keychain';
import { TEST_SERVICE, cleanTestService, keychainAvailability } from '../../../test/support/keychain-test-support';

const availability = await keychainAvailability();

describe('probeKeychain', () => {
  it('reports a sentence when no keychain answers', async () => {
    // Outside with-keyring.sh on a Linux box without a session bus this is the unavailable branch.
    const result = await probeKeychain(TEST_SERVICE, 2_000);
    if (!result.available) expect(result.reason).toMatch(/^No system keychain answered.*\.$/);
    else expect(result).toEqual({ available: true });
  });
});

describe.skipIf(!availability.available && !availability.mustFail)('OS keychain backend', () => {
  afterAll(cleanTestService);

  it('answers the probe (required in CI)', () => {
    expect(availability.available, availability.reason).toBe(true);
  });

  it('stores, reads and deletes one entry per account', async () => {
    const backend = createKeychainBackend(TEST_SERVICE);
    const account = '0x000000000000000000000000000000000000dEaD';
    expect(await backend.read(account)).toBeNull();
    await backend.write(account, 'value-1');
    await backend.write(account, 'value-2'); // overwrite, not a second entry
    expect(await backend.read(account)).toBe('value-2');
    await backend.remove(account);
    expect(await backend.read(account)).toBeNull();
    await backend.remove(account); // removing twice is fine
  });
});
