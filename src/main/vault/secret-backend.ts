/** Where private keys are kept: the OS keychain, or the password-encrypted file when none answers. */
export type BackendKind = 'keychain' | 'file';

/** Stores one secret (a private key hex) per checksummed address. */
export interface SecretBackend {
  readonly kind: BackendKind;
  read(address: string): Promise<string | null>;
  write(address: string, secret: string): Promise<void>;
  remove(address: string): Promise<void>;
}
