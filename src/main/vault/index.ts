export { Vault, KeyInfoSchema, keyWorld } from './vault';
export type {
  VaultKeyInfo,
  KeyOptions,
  VaultKeyRole,
  KeySource,
  VaultEvents,
  VaultOptions,
  VaultStatus,
  SigningWorld,
} from './vault';
export { openVault } from './open-vault';
export type { OpenVaultOptions } from './open-vault';
export { VaultError, VAULT_ERROR_CODES, MIN_PASSWORD_LENGTH } from './errors';
export type { VaultErrorCode } from './errors';
export { KEYCHAIN_SERVICE, createKeychainBackend, probeKeychain } from './keychain';
export type { KeychainProbe } from './keychain';
export { FileSecretStore } from './file-secrets';
export type { BackendKind, SecretBackend } from './secret-backend';
export { systemClock, createManualClock } from './clock';
export type { Clock } from './clock';
export { WatchOnlyAccounts, MAX_WATCH_ONLY, type WatchOnlyInfo } from './watch-only';
