/** Machine codes of vault failures. The message beside each is a sentence for the user. */
export const VAULT_ERROR_CODES = [
  'KEY_NOT_FOUND',
  'DUPLICATE_KEY',
  'BAD_PASSWORD',
  'THROTTLED',
  'LOCKED',
  'PASSWORD_REQUIRED',
  'KEYCHAIN_UNAVAILABLE',
  'KEYCHAIN_ENTRY_MISSING',
  'INVALID_MNEMONIC',
  'INVALID_PRIVATE_KEY',
  'INVALID_KEYSTORE',
  'KEYSTORE_UNSUPPORTED',
  'KEYSTORE_TOO_COSTLY',
  'KEYSTORE_BUSY',
  'INVALID_DIGEST',
  'INVALID_LABEL',
  'INVALID_ACCOUNT_INDEX',
  'PASSWORD_MISMATCH',
  'PASSWORD_TOO_SHORT',
  'PASSWORD_ALREADY_SET',
  'FILE_VAULT_CORRUPT',
  'WATCH_ONLY_FULL',
  'VAULT_FULL',
  'WRONG_WORLD',
] as const;

export type VaultErrorCode = (typeof VAULT_ERROR_CODES)[number];

/**
 * A vault failure. Messages never contain key material or passwords, and no underlying error is attached
 * as `cause` (library errors may echo their input).
 */
export class VaultError extends Error {
  readonly code: VaultErrorCode;
  /** For THROTTLED: epoch ms after which another attempt is accepted. */
  readonly retryAt: number | undefined;
  constructor(code: VaultErrorCode, message: string, retryAt?: number) {
    super(message);
    this.name = 'VaultError';
    this.code = code;
    this.retryAt = retryAt;
  }
  toJSON(): { code: VaultErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export const MIN_PASSWORD_LENGTH = 8;

/** Throws PASSWORD_TOO_SHORT / PASSWORD_MISMATCH for a new password and its repetition. */
export function assertNewPassword(password: string, again: string = password): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new VaultError('PASSWORD_TOO_SHORT', `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (password !== again) {
    throw new VaultError('PASSWORD_MISMATCH', 'The two passwords do not match.');
  }
}
