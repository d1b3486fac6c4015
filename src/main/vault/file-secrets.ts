import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { VaultError } from './errors';
import { DEFAULT_SCRYPT, ScryptParamsSchema, deriveKey, type ScryptParams } from './kdf';
import type { SecretBackend } from './secret-backend';

const FileSchema = z.object({
  format: z.literal('exchange-terminal-vault'),
  version: z.literal(1),
  kdf: z.object({ name: z.literal('scrypt'), salt: z.string().min(1), params: ScryptParamsSchema }),
  cipher: z.object({ name: z.literal('aes-256-gcm'), iv: z.string().min(1), tag: z.string().min(1) }),
  data: z.string(),
});
type VaultFile = z.infer<typeof FileSchema>;
const PlainSchema = z.object({ keys: z.record(z.string(), z.string()) });
type Plain = z.infer<typeof PlainSchema>;

/** Binds the ciphertext to its KDF header, so a swapped header fails authentication. */
function aad(file: Pick<VaultFile, 'version' | 'kdf'>): Buffer {
  const { N, r, p } = file.kdf.params;
  return Buffer.from(`exchange-terminal-vault:v${file.version}:scrypt:${file.kdf.salt}:${N}:${r}:${p}`);
}

function corrupt(): VaultError {
  return new VaultError('FILE_VAULT_CORRUPT', 'The encrypted key file is damaged and cannot be read.');
}

/**
 * Keys in one file encrypted with AES-256-GCM under a scrypt-derived key. Used where no OS keychain
 * answers. The derived key is held only while open; every write re-encrypts with a fresh IV and replaces
 * the file atomically (temp file, fsync, rename). Nothing is ever written in plaintext.
 */
export class FileSecretStore implements SecretBackend {
  readonly kind = 'file' as const;
  readonly #path: string;
  readonly #params: ScryptParams;
  #key: Buffer | null = null;
  #salt: string | null = null;
  #kdfParams: ScryptParams | null = null;

  constructor(options: { filePath: string; scrypt?: ScryptParams }) {
    this.#path = options.filePath;
    this.#params = options.scrypt ?? DEFAULT_SCRYPT;
  }

  exists(): boolean {
    return existsSync(this.#path);
  }

  isOpen(): boolean {
    return this.#key !== null;
  }

  /** Creates an empty vault file protected by `password` and leaves it open. */
  async create(password: string): Promise<void> {
    if (this.exists()) throw new VaultError('PASSWORD_ALREADY_SET', 'An encrypted key file already exists.');
    await this.#rekey(password, { keys: {} });
  }

  /** Opens the file with `password`; false when the password is wrong. */
  async open(password: string): Promise<boolean> {
    const file = this.#readFile();
    const salt = Buffer.from(file.kdf.salt, 'base64');
    const key = await deriveKey(password, salt, file.kdf.params);
    try {
      this.#decrypt(file, key);
    } catch {
      key.fill(0);
      return false; // GCM authentication failed: wrong password (or tampering, indistinguishable)
    }
    this.close();
    this.#key = key;
    this.#salt = file.kdf.salt;
    this.#kdfParams = file.kdf.params;
    return true;
  }

  /** Re-encrypts everything under a new password (fresh salt). The store must be open. */
  async changePassword(newPassword: string): Promise<void> {
    await this.#rekey(newPassword, this.#load());
  }

  close(): void {
    this.#key?.fill(0);
    this.#key = null;
    this.#salt = null;
    this.#kdfParams = null;
  }

  // Synchronous file work behind the async SecretBackend shape; errors become rejections.
  read(address: string): Promise<string | null> {
    return Promise.resolve().then(() => this.#load().keys[address] ?? null);
  }

  write(address: string, secret: string): Promise<void> {
    return Promise.resolve().then(() => {
      const plain = this.#load();
      plain.keys[address] = secret;
      this.#save(plain);
    });
  }

  remove(address: string): Promise<void> {
    return Promise.resolve().then(() => {
      const plain = this.#load();
      delete plain.keys[address];
      this.#save(plain);
    });
  }

  async #rekey(password: string, plain: Plain): Promise<void> {
    const salt = randomBytes(16);
    const key = await deriveKey(password, salt, this.#params);
    this.close();
    this.#key = key;
    this.#salt = salt.toString('base64');
    this.#kdfParams = this.#params;
    this.#save(plain);
  }

  #readFile(): VaultFile {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.#path, 'utf8'));
    } catch {
      throw corrupt();
    }
    const parsed = FileSchema.safeParse(raw);
    if (!parsed.success) throw corrupt();
    return parsed.data;
  }

  #decrypt(file: VaultFile, key: Buffer): Plain {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.cipher.iv, 'base64'));
    decipher.setAAD(aad(file));
    decipher.setAuthTag(Buffer.from(file.cipher.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(file.data, 'base64')), decipher.final()]);
    return PlainSchema.parse(JSON.parse(plain.toString('utf8')));
  }

  #requireKey(): Buffer {
    if (!this.#key) throw new VaultError('LOCKED', 'The vault is locked: unlock it with your password first.');
    return this.#key;
  }

  #load(): Plain {
    const key = this.#requireKey();
    const file = this.#readFile();
    if (file.kdf.salt !== this.#salt) throw corrupt(); // replaced under us by another process
    try {
      return this.#decrypt(file, key);
    } catch {
      throw corrupt();
    }
  }

  #save(plain: Plain): void {
    const key = this.#requireKey();
    if (!this.#salt || !this.#kdfParams) throw corrupt();
    const header = { version: 1 as const, kdf: { name: 'scrypt' as const, salt: this.#salt, params: this.#kdfParams } };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(aad(header));
    const data = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    const file: VaultFile = {
      format: 'exchange-terminal-vault',
      ...header,
      cipher: { name: 'aes-256-gcm', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64') },
      data: data.toString('base64'),
    };
    writeFileAtomic(this.#path, JSON.stringify(file, null, 2));
  }
}

/** Temp file in the same directory, fsync, rename: readers see the old file or the new, never half. */
export function writeFileAtomic(path: string, contents: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
