import { Wallet, getAddress } from 'ethers';
import { z } from 'zod';
import type { Hex } from '../../shared/protocol/hex';
import { DigestSigner } from '../../shared/protocol/signing';
import type { KeyValueStore } from '../store/key-value-store';
import { systemClock, type Clock } from './clock';
import { Emitter } from './emitter';
import { VaultError, assertNewPassword } from './errors';
import type { FileSecretStore } from './file-secrets';
import { DEFAULT_SCRYPT, PasswordHashSchema, hashPassword, verifyPassword, type ScryptParams } from './kdf';
import { createRandomMaterial, materialFromMnemonic, materialFromPrivateKey, type KeyMaterial } from './key-material';
import { KdfSlot, decryptKeystore, encryptKeystore, parseKeystore, type KeystoreScrypt } from './keystore-v3';
import type { BackendKind, SecretBackend } from './secret-backend';
import { PasswordThrottle } from './throttle';
import { WatchOnlyAccounts } from './watch-only';

export const KeyInfoSchema = z.object({
  /** Checksummed. */
  address: z.string(),
  label: z.string(),
  role: z.enum(['master', 'agent']),
  /** ISO 8601. */
  createdAt: z.string(),
  source: z.enum(['created', 'privateKey', 'mnemonic', 'keystore']),
  backend: z.enum(['keychain', 'file']),
  /** Made for practice mode: it signs only under the practice domain, and no other key does (keyWorld). */
  practice: z.literal(true).optional(),
});
/** Public facts about a key: everything here may be shown in the window. */
export type VaultKeyInfo = z.infer<typeof KeyInfoSchema>;
export type VaultKeyRole = VaultKeyInfo['role'];
export type KeySource = VaultKeyInfo['source'];

export interface KeyOptions {
  label?: string;
  role?: VaultKeyRole;
}

/**
 * Where a signature is valid: under practice's own domain (src/shared/practice.ts) or anywhere else.
 * A practice key signs only for practice and a real key never does, so a practice key can never sign
 * for money and play money can never be signed for with a key that holds money.
 */
export type SigningWorld = 'practice' | 'real';

/** The world a key belongs to. */
export function keyWorld(info: Pick<VaultKeyInfo, 'practice'>): SigningWorld {
  return info.practice === true ? 'practice' : 'real';
}

export interface VaultStatus {
  locked: boolean;
  hasPassword: boolean;
  backend: BackendKind;
  /** One sentence about where keys are kept (and why, for the file fallback). */
  backendMessage: string;
  /** Epoch ms until which password attempts are refused, or null. */
  throttledUntil: number | null;
}

export interface VaultEvents extends Record<string, unknown> {
  locked: { reason: 'manual' | 'idle' };
  unlocked: Record<string, never>;
  'keys-changed': { keys: VaultKeyInfo[] };
}

export interface VaultOptions {
  store: KeyValueStore;
  /** The OS keychain backend, or a FileSecretStore when no keychain answers. */
  backend: SecretBackend | FileSecretStore;
  backendMessage?: string;
  clock?: Clock;
  /** scrypt cost for the app-lock password hash (tests pass a cheap one). */
  passwordScrypt?: ScryptParams;
  /** scrypt cost for exported keystores; default is ethers' (N = 2^17). */
  keystoreScrypt?: KeystoreScrypt;
  /** Minutes of inactivity before auto-lock; null or 0 disables. Only applies with a password. */
  autoLockMinutes?: number | null;
}

const KEYS_KEY = 'vault.keys';
const LOCK_KEY = 'vault.lockPassword';
const MAX_LABEL = 64;
/**
 * More keys than any trader holds (a master and its agent per account). keys.create needs no dialog,
 * and the key list is read on every key operation: without a bound the window could grow it forever.
 */
export const MAX_KEYS = 256;
const DIGEST_RE = /^0x[0-9a-fA-F]{64}$/;

function isFileStore(backend: SecretBackend | FileSecretStore): backend is FileSecretStore {
  return backend.kind === 'file';
}

/**
 * Keys and signing for the main process. Secrets stay in the backend (OS keychain or encrypted file);
 * parsed signers are cached only while unlocked, so signing after the first use of a key is a
 * sub-millisecond in-memory operation. Nothing this class returns or throws contains key material.
 */
export class Vault {
  /** Lowercase addresses of the practice keys; null until read (and after the list changes). */
  #practice: Set<string> | null = null;
  readonly #store: KeyValueStore;
  readonly #backend: SecretBackend | FileSecretStore;
  readonly #backendMessage: string;
  readonly #clock: Clock;
  readonly #passwordScrypt: ScryptParams;
  readonly #keystoreScrypt: KeystoreScrypt | undefined;
  readonly #throttle: PasswordThrottle;
  /** Keystore import and export derive one key at a time, off main's event loop (keystore-v3.ts). */
  readonly #keystoreKdf = new KdfSlot();
  readonly #events = new Emitter<VaultEvents>();
  readonly #signers = new Map<string, DigestSigner>();
  /** Addresses watched without a key: kept with the keys' metadata, never able to sign. */
  readonly watchOnly: WatchOnlyAccounts;
  #locked: boolean;
  #autoLockMs = 0;
  #idleTimer: unknown = null;
  /** Password checks run one at a time so parallel guesses cannot slip past the throttle. */
  #passwordQueue: Promise<unknown> = Promise.resolve();

  constructor(options: VaultOptions) {
    this.#store = options.store;
    this.#backend = options.backend;
    this.#clock = options.clock ?? systemClock;
    this.#passwordScrypt = options.passwordScrypt ?? DEFAULT_SCRYPT;
    this.#keystoreScrypt = options.keystoreScrypt;
    this.#throttle = new PasswordThrottle(this.#store, () => this.#clock.now());
    this.watchOnly = new WatchOnlyAccounts(
      this.#store,
      () => this.#clock.now(),
      () => this.#events.emit('keys-changed', { keys: this.#keys() }),
    );
    this.#backendMessage =
      options.backendMessage ??
      (isFileStore(options.backend)
        ? 'No system keychain is available, so keys are kept in a file encrypted with your vault password.'
        : 'Keys are kept in the system keychain.');
    this.#locked = isFileStore(this.#backend) ? !this.#backend.isOpen() : this.hasPassword();
    this.setAutoLockMinutes(options.autoLockMinutes ?? null);
  }

  // ---- status and events -------------------------------------------------------------------------

  on<K extends keyof VaultEvents>(event: K, listener: (payload: VaultEvents[K]) => void): () => void {
    return this.#events.on(event, listener);
  }

  hasPassword(): boolean {
    return isFileStore(this.#backend) ? this.#backend.exists() : this.#lockHash() !== null;
  }

  /** Whether keys are locked away: the one fact a trading call checks, without the rest of status(). */
  isLocked(): boolean {
    return this.#locked;
  }

  status(): VaultStatus {
    return {
      locked: this.#locked,
      hasPassword: this.hasPassword(),
      backend: this.#backend.kind,
      backendMessage: this.#backendMessage,
      throttledUntil: this.#throttle.throttledUntil(),
    };
  }

  list(): VaultKeyInfo[] {
    return this.#keys();
  }

  // ---- keys --------------------------------------------------------------------------------------

  async create(options: KeyOptions = {}): Promise<VaultKeyInfo> {
    return this.#add(createRandomMaterial(), 'created', options);
  }

  /** A new random key for practice only: only created, never imported (a practice key holds no money). */
  async createPractice(options: KeyOptions = {}): Promise<VaultKeyInfo> {
    return this.#add(createRandomMaterial(), 'created', options, true);
  }

  async importPrivateKey(privateKey: string, options: KeyOptions = {}): Promise<VaultKeyInfo> {
    this.#requireUnlocked();
    return this.#add(materialFromPrivateKey(privateKey), 'privateKey', options);
  }

  /** Imports the account at m/44'/60'/0'/0/`accountIndex` of an English BIP-39 phrase. */
  async importMnemonic(phrase: string, accountIndex: number, options: KeyOptions = {}): Promise<VaultKeyInfo> {
    this.#requireUnlocked();
    return this.#add(materialFromMnemonic(phrase, accountIndex), 'mnemonic', options);
  }

  /** Refuses a keystore over KEYSTORE_LIMITS before any work; decrypts off main's event loop. */
  async importKeystore(json: string, password: string, options: KeyOptions = {}): Promise<VaultKeyInfo> {
    this.#requireUnlocked();
    const keystore = parseKeystore(json);
    const material = await this.#keystoreKdf.run(() => decryptKeystore(keystore, password));
    return this.#add(material, 'keystore', options);
  }

  /** The key as an encrypted JSON keystore v3. The caller has already confirmed the export with the user. */
  async exportKeystore(address: string, password: string, passwordAgain: string): Promise<string> {
    this.#requireUnlocked();
    const info = this.#find(address);
    assertNewPassword(password, passwordAgain);
    const material = await this.#material(info);
    return this.#keystoreKdf.run(() => encryptKeystore(material, password, this.#keystoreScrypt));
  }

  rename(address: string, label: string): VaultKeyInfo {
    this.#requireUnlocked();
    const info = this.#find(address);
    const renamed = { ...info, label: this.#label(label, undefined) };
    this.#saveKeys(this.#keys().map((k) => (k.address === info.address ? renamed : k)));
    return renamed;
  }

  /** Removes the key from the backend and the list. The caller has already confirmed it with the user. */
  async delete(address: string): Promise<void> {
    this.#requireUnlocked();
    const info = this.#find(address);
    this.#requireSameBackend(info);
    await this.#backend.remove(info.address);
    this.#signers.get(info.address)?.destroy();
    this.#signers.delete(info.address);
    this.#saveKeys(this.#keys().filter((k) => k.address !== info.address));
  }

  // ---- signing -----------------------------------------------------------------------------------

  /**
   * Signs a 32-byte EIP-712 digest: 65 bytes r‖s‖v (v 27/28, low-s) as lowercase hex. Does not count as
   * user activity for auto-lock; main calls touch() on real input (AppCore.noteUserInput).
   */
  async signDigest(address: string, digest: string, world: SigningWorld = 'real'): Promise<Hex> {
    if (!DIGEST_RE.test(digest)) {
      throw new VaultError('INVALID_DIGEST', 'A digest must be 0x followed by 64 hex digits.');
    }
    this.#assertWorld(address, world);
    // Signers are keyed by checksummed address, which is what the app passes: no need to checksum it again.
    const signer =
      this.#signers.get(address) ?? this.#signers.get(this.#normalize(address)) ?? (await this.#loadSigner(address));
    return signer.sign(digest as Hex);
  }

  /**
   * Runs `fn` with an ethers Wallet for one operation (chain transactions, permits). `fn` must not keep
   * the wallet or return it.
   */
  async withWallet<T>(address: string, fn: (wallet: Wallet) => Promise<T> | T): Promise<T> {
    this.#requireUnlocked();
    // Chain transactions are real by nature: a practice key never makes one.
    this.#assertWorld(address, 'real');
    const material = await this.#material(this.#find(address));
    return fn(new Wallet(material.privateKey));
  }

  // ---- app lock ----------------------------------------------------------------------------------

  lock(reason: 'manual' | 'idle' = 'manual'): void {
    this.#clearIdleTimer();
    for (const signer of this.#signers.values()) signer.destroy();
    this.#signers.clear();
    if (isFileStore(this.#backend)) this.#backend.close();
    const was = this.#locked;
    this.#locked = true;
    if (!was) this.#events.emit('locked', { reason });
  }

  /** Unlocks with the app password (any value is accepted when no password is set on a keychain vault). */
  unlock(password = ''): Promise<void> {
    return this.#serialized(async () => {
      if (!this.hasPassword()) {
        if (isFileStore(this.#backend)) throw this.#passwordRequired();
        this.#setUnlocked();
        return;
      }
      await this.#checkPassword(password);
      this.#setUnlocked();
    });
  }

  /**
   * Sets or changes the app password. With the file fallback this is the password that encrypts the
   * key file, and setting it the first time creates the file.
   */
  setPassword(newPassword: string, newPasswordAgain: string, currentPassword = ''): Promise<void> {
    return this.#serialized(async () => {
      assertNewPassword(newPassword, newPasswordAgain);
      if (this.hasPassword()) await this.#checkPassword(currentPassword);
      if (isFileStore(this.#backend)) {
        if (this.#backend.exists()) await this.#backend.changePassword(newPassword);
        else await this.#backend.create(newPassword);
      } else {
        this.#store.set(LOCK_KEY, await hashPassword(newPassword, this.#passwordScrypt));
      }
      this.#setUnlocked();
    });
  }

  /** Removes the app password (keychain vaults only: the key file cannot exist without one). */
  removePassword(currentPassword: string): Promise<void> {
    return this.#serialized(async () => {
      if (isFileStore(this.#backend)) {
        throw new VaultError(
          'PASSWORD_REQUIRED',
          'Without a system keychain the key file must stay protected by a password.',
        );
      }
      if (!this.hasPassword()) return;
      await this.#checkPassword(currentPassword);
      this.#store.delete(LOCK_KEY);
      this.#setUnlocked();
    });
  }

  /** Records user activity: restarts the idle countdown. */
  touch(): void {
    if (!this.#locked) this.#armIdleTimer();
  }

  setAutoLockMinutes(minutes: number | null): void {
    this.#autoLockMs = minutes && minutes > 0 ? minutes * 60_000 : 0;
    if (!this.#locked) this.#armIdleTimer();
  }

  /** Stops timers and forgets cached signers (app quit). */
  dispose(): void {
    this.lock();
  }

  // ---- internals ---------------------------------------------------------------------------------

  #serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#passwordQueue.then(fn, fn);
    this.#passwordQueue = run.catch(() => undefined);
    return run;
  }

  async #checkPassword(password: string): Promise<void> {
    const until = this.#throttle.throttledUntil();
    if (until !== null) throw this.#throttled(until);
    const ok = isFileStore(this.#backend)
      ? await this.#backend.open(password)
      : await verifyPassword(password, this.#lockHash()!);
    if (ok) {
      this.#throttle.reset();
      return;
    }
    this.#throttle.recordFailure();
    const next = this.#throttle.throttledUntil();
    const wait = next === null ? '' : ` Wait ${Math.ceil((next - this.#clock.now()) / 1000)} s before trying again.`;
    throw new VaultError('BAD_PASSWORD', `The password is wrong.${wait}`, next ?? undefined);
  }

  #throttled(until: number): VaultError {
    const seconds = Math.ceil((until - this.#clock.now()) / 1000);
    return new VaultError('THROTTLED', `Too many wrong passwords: try again in ${seconds} s.`, until);
  }

  #passwordRequired(): VaultError {
    return new VaultError(
      'PASSWORD_REQUIRED',
      'No system keychain is available: set a vault password first, so keys can be stored in an encrypted file.',
    );
  }

  #setUnlocked(): void {
    const was = this.#locked;
    this.#locked = false;
    this.#armIdleTimer();
    if (was) this.#events.emit('unlocked', {});
  }

  #armIdleTimer(): void {
    this.#clearIdleTimer();
    if (this.#autoLockMs > 0 && this.hasPassword()) {
      this.#idleTimer = this.#clock.setTimeout(() => {
        this.#idleTimer = null;
        this.lock('idle');
      }, this.#autoLockMs);
    }
  }

  #clearIdleTimer(): void {
    if (this.#idleTimer !== null) this.#clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #requireUnlocked(): void {
    if (isFileStore(this.#backend) && !this.#backend.exists()) throw this.#passwordRequired();
    if (this.#locked) throw new VaultError('LOCKED', 'The vault is locked: unlock it with your password first.');
  }

  #lockHash() {
    const parsed = PasswordHashSchema.safeParse(this.#store.get(LOCK_KEY));
    return parsed.success ? parsed.data : null;
  }

  #keys(): VaultKeyInfo[] {
    const parsed = z.array(KeyInfoSchema).safeParse(this.#store.get(KEYS_KEY) ?? []);
    return parsed.success ? parsed.data : [];
  }

  #saveKeys(keys: VaultKeyInfo[]): void {
    this.#practice = null;
    this.#store.set(KEYS_KEY, keys);
    this.#events.emit('keys-changed', { keys });
  }

  #normalize(address: string): string {
    try {
      return getAddress(address);
    } catch {
      throw new VaultError('KEY_NOT_FOUND', 'That is not a valid address.');
    }
  }

  #find(address: string): VaultKeyInfo {
    const normalized = this.#normalize(address);
    const info = this.#keys().find((k) => k.address === normalized);
    if (!info) throw new VaultError('KEY_NOT_FOUND', `No key for ${normalized} is in this vault.`);
    return info;
  }

  #label(label: string | undefined, fallback: string | undefined): string {
    const trimmed = (label ?? fallback ?? '').trim();
    if (trimmed.length === 0 || trimmed.length > MAX_LABEL) {
      throw new VaultError('INVALID_LABEL', `A key label must have 1 to ${MAX_LABEL} characters.`);
    }
    return trimmed;
  }

  #requireSameBackend(info: VaultKeyInfo): void {
    if (info.backend !== this.#backend.kind) {
      throw new VaultError(
        'KEYCHAIN_UNAVAILABLE',
        info.backend === 'keychain'
          ? `The key ${info.address} is in the system keychain, which is not available now.`
          : `The key ${info.address} is in the encrypted key file, which this vault is not using now.`,
      );
    }
  }

  /** A key signs only in its own world (SigningWorld); unknown keys fall through to KEY_NOT_FOUND. */
  #assertWorld(address: string, world: SigningWorld): void {
    // Read before every signature: the practice addresses are kept rather than parsed from the store each time.
    this.#practice ??= new Set(
      this.#keys()
        .filter((k) => k.practice)
        .map((k) => k.address.toLowerCase()),
    );
    if ((this.#practice.has(address.toLowerCase()) ? 'practice' : 'real') === world) return;
    throw new VaultError(
      'WRONG_WORLD',
      world === 'practice'
        ? 'Not signed: this is not a practice key, and practice signs only with a key made for practice.'
        : 'Not signed: this is a practice key, and it signs only for practice, never on a real deployment.',
    );
  }

  async #add(material: KeyMaterial, source: KeySource, options: KeyOptions, practice = false): Promise<VaultKeyInfo> {
    this.#requireUnlocked();
    const keys = this.#keys();
    if (keys.some((k) => k.address === material.address)) {
      throw new VaultError('DUPLICATE_KEY', `The key ${material.address} is already in this vault.`);
    }
    if (keys.length >= MAX_KEYS) {
      throw new VaultError('VAULT_FULL', `This vault holds ${MAX_KEYS} keys, the most it keeps: delete one first.`);
    }
    const info: VaultKeyInfo = {
      address: material.address,
      label: this.#label(options.label, `Key ${keys.length + 1}`),
      role: options.role ?? 'master',
      createdAt: new Date(this.#clock.now()).toISOString(),
      source,
      backend: this.#backend.kind,
      ...(practice ? { practice: true as const } : {}),
    };
    await this.#backend.write(material.address, material.privateKey);
    try {
      this.#saveKeys([...keys, info]);
    } catch (err) {
      await this.#backend.remove(material.address).catch(() => undefined);
      throw err;
    }
    return info;
  }

  async #material(info: VaultKeyInfo): Promise<KeyMaterial> {
    this.#requireSameBackend(info);
    const secret = await this.#backend.read(info.address);
    if (secret === null) {
      throw new VaultError(
        'KEYCHAIN_ENTRY_MISSING',
        `The secret for ${info.address} is missing from the ${info.backend === 'keychain' ? 'system keychain' : 'key file'}.`,
      );
    }
    let material: KeyMaterial;
    try {
      material = materialFromPrivateKey(secret);
    } catch {
      material = { address: '', privateKey: '' };
    }
    if (material.address !== info.address) {
      throw new VaultError(
        'KEYCHAIN_ENTRY_MISSING',
        `The stored secret for ${info.address} does not match its address.`,
      );
    }
    return material;
  }

  async #loadSigner(address: string): Promise<DigestSigner> {
    this.#requireUnlocked();
    const info = this.#find(address);
    const { privateKey } = await this.#material(info);
    // A lock during the await must not leave a signer behind.
    this.#requireUnlocked();
    const existing = this.#signers.get(info.address);
    if (existing) return existing; // a parallel call loaded it first
    const signer = new DigestSigner(privateKey as Hex);
    this.#signers.set(info.address, signer);
    return signer;
  }
}
