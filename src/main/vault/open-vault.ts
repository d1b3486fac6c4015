import { FileSecretStore } from './file-secrets';
import { KEYCHAIN_SERVICE, createKeychainBackend, probeKeychain } from './keychain';
import { Vault, type VaultOptions } from './vault';

export interface OpenVaultOptions extends Omit<VaultOptions, 'backend' | 'backendMessage'> {
  /** Path of the encrypted key file used when no keychain answers (e.g. userData/keys.vault). */
  filePath: string;
  /** Keychain service name; tests pass a unique one. */
  service?: string;
  probeTimeoutMs?: number;
  /** Never use the keychain (tests of the fallback; a user preference later). */
  forceFile?: boolean;
}

/**
 * Probes the OS keychain and opens the vault on it, or on the encrypted file fallback when it does not
 * answer (a Linux box without a Secret Service). The status says which, in a sentence.
 */
export async function openVault(options: OpenVaultOptions): Promise<Vault> {
  const { filePath, service = KEYCHAIN_SERVICE, probeTimeoutMs, forceFile, ...rest } = options;
  const probe = forceFile
    ? { available: false as const, reason: 'The system keychain is turned off for this vault.' }
    : await probeKeychain(service, probeTimeoutMs);
  if (probe.available) {
    return new Vault({ ...rest, backend: createKeychainBackend(service) });
  }
  return new Vault({
    ...rest,
    backend: new FileSecretStore({ filePath, ...(rest.passwordScrypt ? { scrypt: rest.passwordScrypt } : {}) }),
    backendMessage: `${probe.reason} Keys are kept in a file encrypted with your vault password instead; set one before adding keys.`,
  });
}
