export type SettingsErrorCode =
  | 'INVALID_SETTINGS'
  | 'SETTINGS_TOO_LARGE'
  | 'UNKNOWN_DEPLOYMENT'
  | 'PIN_CHANGED'
  | 'PIN_UNCONFIRMED'
  | 'CHAIN_MISMATCH';

/** A settings or pinning failure: a machine code, a sentence for the user and, for validation, the path. */
export class SettingsError extends Error {
  readonly code: SettingsErrorCode;
  /** Dotted path of the offending field, for INVALID_SETTINGS. */
  readonly path: string | undefined;
  constructor(code: SettingsErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'SettingsError';
    this.code = code;
    this.path = path;
  }
  toJSON(): { code: SettingsErrorCode; message: string; path?: string } {
    return { code: this.code, message: this.message, ...(this.path === undefined ? {} : { path: this.path }) };
  }
}
