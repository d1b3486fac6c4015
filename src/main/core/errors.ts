/**
 * Turns the failures of vault, settings and exchange into bridge errors: a stable dotted code
 * the window can act on, and the module's own sentence. Anything else stays unexpected and
 * reaches the window only as bridge.internal (see dispatchBridgeCall in bridge-runtime.ts).
 */
import { ExchangeError } from '../../client';
import { SettingsError, type SettingsErrorCode } from '../settings';
import { VaultError, type VaultErrorCode } from '../vault';
import { fieldSentence, settingLabel } from '../../shared/field-words';
import { BridgeFailure } from './bridge-runtime';

const VAULT_CODES: Readonly<Record<VaultErrorCode, string>> = {
  KEY_NOT_FOUND: 'keys.not_found',
  DUPLICATE_KEY: 'keys.duplicate',
  BAD_PASSWORD: 'vault.bad_password',
  THROTTLED: 'vault.throttled',
  LOCKED: 'vault.locked',
  PASSWORD_REQUIRED: 'vault.password_required',
  KEYCHAIN_UNAVAILABLE: 'vault.keychain_unavailable',
  KEYCHAIN_ENTRY_MISSING: 'keys.secret_missing',
  INVALID_MNEMONIC: 'keys.invalid_mnemonic',
  INVALID_PRIVATE_KEY: 'keys.invalid_private_key',
  INVALID_KEYSTORE: 'keys.invalid_keystore',
  KEYSTORE_UNSUPPORTED: 'keys.keystore_unsupported',
  KEYSTORE_TOO_COSTLY: 'keys.keystore_too_costly',
  KEYSTORE_BUSY: 'keys.keystore_busy',
  INVALID_DIGEST: 'vault.invalid_digest',
  INVALID_LABEL: 'keys.invalid_label',
  INVALID_ACCOUNT_INDEX: 'keys.invalid_account_index',
  PASSWORD_MISMATCH: 'vault.password_mismatch',
  PASSWORD_TOO_SHORT: 'vault.password_too_short',
  PASSWORD_ALREADY_SET: 'vault.password_already_set',
  FILE_VAULT_CORRUPT: 'vault.file_corrupt',
  WRONG_WORLD: 'vault.wrong_world',
  WATCH_ONLY_FULL: 'keys.watch_only_full',
  VAULT_FULL: 'keys.vault_full',
};

const SETTINGS_CODES: Readonly<Record<SettingsErrorCode, string>> = {
  INVALID_SETTINGS: 'settings.invalid',
  SETTINGS_TOO_LARGE: 'settings.too_large',
  UNKNOWN_DEPLOYMENT: 'settings.unknown_deployment',
  PIN_CHANGED: 'deployments.pin_changed',
  PIN_UNCONFIRMED: 'deployments.pin_unconfirmed',
  CHAIN_MISMATCH: 'deployments.chain_mismatch',
};

/** "ORDER_REJECTED" → "order_rejected"; anything unusual becomes "error". */
function snake(code: string): string {
  const s = code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(s) ? s : 'error';
}

/** The coded bridge failure for a known error, or null for an unexpected one. */
export function toBridgeFailure(error: unknown): BridgeFailure | null {
  if (error instanceof BridgeFailure) return error;
  if (error instanceof VaultError) return new BridgeFailure(VAULT_CODES[error.code], error.message);
  if (error instanceof SettingsError) return new BridgeFailure(SETTINGS_CODES[error.code], settingsSentence(error));
  if (error instanceof ExchangeError) return new BridgeFailure(`exchange.${snake(error.code)}`, error.sentence);
  return null;
}

/**
 * A settings refusal names the field as the screen does ("Size preset 1 must be greater than zero."),
 * not by its path in the settings file ("defaultSizes.0 …").
 */
function settingsSentence(error: SettingsError): string {
  const path = error.path;
  if (!path || !error.message.includes(path)) return error.message;
  const parts = path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const said = error.message.slice(error.message.indexOf(path) + path.length).trim();
  const prefix = error.message.slice(0, error.message.indexOf(path));
  return `${prefix}${fieldSentence(settingLabel(parts), said)}`;
}
