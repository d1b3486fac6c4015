/**
 * Encrypted JSON keystores (Web3 Secret Storage v3), read and written without blocking main.
 *
 * A keystore names its own key-derivation cost, and the window may hand main any keystore it likes:
 * so the file is read into bounded facts first (size, fields, and a KDF cost no higher than real
 * wallets write, docs/hostile-input.md), and only then is the key derived, on libuv's threadpool
 * (node:crypto's async scrypt and pbkdf2), never on main's event loop. One derivation runs at a time
 * (the caller holds KdfSlot), so repeated calls cannot fill the threadpool or the memory either.
 */
import {
  createCipheriv,
  createDecipheriv,
  pbkdf2,
  randomBytes,
  randomUUID,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { keccak256 } from 'ethers';
import { VaultError } from './errors';
import { materialFromPrivateKey, type KeyMaterial } from './key-material';

/** The bounds a keystore must fit before any work is done on it, and why each (see docs/hostile-input.md). */
export const KEYSTORE_LIMITS = {
  /** Real keystores are 0.5–1.5 KB (ethers adds an encrypted mnemonic); 16 KiB leaves room for extra fields. */
  maxJsonChars: 16 * 1024,
  /** geth's standard and MetaMask's N (2^18, 256 MiB with r = 8); ethers writes 2^17, MyEtherWallet 2^13. */
  scryptMaxN: 2 ** 18,
  /** Every wallet writes r = 8 (the spec's test vector r = 1). */
  scryptMaxR: 8,
  /** geth's light setting writes p = 6, the spec's vector p = 8, geth's test keys p = 16. */
  scryptMaxP: 16,
  /** N·r·p, the work: geth's standard 2^18 · 8 · 1 (about a second), the costliest setting any wallet writes. */
  scryptMaxWork: 2 ** 21,
  /** The spec and ethereumjs write c = 2^18; OWASP asks 600,000 for PBKDF2-SHA256 today; 2^20 covers both. */
  pbkdf2MaxC: 2 ** 20,
  /** Wallets write 32-byte salts. */
  maxSaltBytes: 64,
} as const;

/** The scrypt cost of a keystore this vault writes; ethers' default N = 2^17 unless a test passes a cheap one. */
export interface KeystoreScrypt {
  N: number;
  r: number;
  p: number;
}

const EXPORT_SCRYPT: KeystoreScrypt = { N: 2 ** 17, r: 8, p: 1 };

type Kdf =
  { kind: 'scrypt'; salt: Buffer; n: number; r: number; p: number } | { kind: 'pbkdf2'; salt: Buffer; c: number };

/** A keystore read into bounded facts: nothing here costs more than the limits allow. */
export interface ParsedKeystore {
  kdf: Kdf;
  iv: Buffer;
  ciphertext: Buffer;
  mac: Buffer;
  /** Lowercase hex without 0x, when the file names its address. */
  address: string | null;
}

const damaged = (why: string): VaultError => new VaultError('INVALID_KEYSTORE', `The keystore ${why}.`);

const unsupported = (
  what: string,
  usual = 'wallets write scrypt or PBKDF2-SHA256 with AES-128-CTR, which is what the app opens',
): VaultError => new VaultError('KEYSTORE_UNSUPPORTED', `The keystore uses ${what}; ${usual}.`);

const tooCostly = (what: string): VaultError =>
  new VaultError(
    'KEYSTORE_TOO_COSTLY',
    `The keystore asks for ${what}: more than any wallet writes, so the app will not spend the time and memory to open it.`,
  );

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A field by name in any letter case: ethers writes "Crypto", geth "crypto". */
function field(obj: Json, name: string): unknown {
  if (Object.hasOwn(obj, name)) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : obj[key];
}

function hexBytes(obj: Json, name: string, bytes: { min: number; max: number }, what: string): Buffer {
  const v = field(obj, name);
  const hex = typeof v === 'string' ? v.replace(/^0x/i, '') : '';
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex) || hex.length / 2 < bytes.min || hex.length / 2 > bytes.max) {
    throw damaged(`has no valid ${what}`);
  }
  return Buffer.from(hex, 'hex');
}

/** A whole number as wallets write it (geth and ethers numbers; some tools write decimal strings). */
function wholeNumber(obj: Json, name: string, what: string): number {
  const v = field(obj, name);
  const n = typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw damaged(`has no valid ${what}`);
  return n;
}

function scryptParams(params: Json, salt: Buffer): Kdf {
  const n = wholeNumber(params, 'n', 'scrypt N');
  const r = wholeNumber(params, 'r', 'scrypt r');
  const p = wholeNumber(params, 'p', 'scrypt p');
  if (n < 2 || (n & (n - 1)) !== 0 || n > 2 ** 52) throw damaged('has a scrypt N that is not a power of two');
  if (r < 1 || p < 1) throw damaged('has a scrypt r or p of zero');
  // RFC 7914 requires N < 2^(16·r), and OpenSSL (node's scrypt) enforces it; wallets write r = 8.
  if (Math.log2(n) >= 16 * r) {
    throw unsupported(
      `scrypt with N = 2^${Math.log2(n)} and r = ${r}`,
      'the scrypt standard (RFC 7914) forbids it and wallets write r = 8',
    );
  }
  const L = KEYSTORE_LIMITS;
  if (n > L.scryptMaxN)
    throw tooCostly(`scrypt N = 2^${Math.log2(n)} (wallets write at most 2^${Math.log2(L.scryptMaxN)})`);
  if (r > L.scryptMaxR) throw tooCostly(`scrypt r = ${r} (wallets write 8)`);
  if (p > L.scryptMaxP) throw tooCostly(`scrypt p = ${p} (wallets write at most ${L.scryptMaxP})`);
  if (n * r * p > L.scryptMaxWork) {
    throw tooCostly(
      `scrypt work N·r·p = ${(n * r * p).toLocaleString('en-US')} (wallets write at most ${L.scryptMaxWork.toLocaleString('en-US')})`,
    );
  }
  return { kind: 'scrypt', salt, n, r, p };
}

function pbkdf2Params(params: Json, salt: Buffer): Kdf {
  const prf = field(params, 'prf');
  if (typeof prf !== 'string' || prf.toLowerCase() !== 'hmac-sha256')
    throw unsupported('a PBKDF2 hash other than HMAC-SHA256');
  const c = wholeNumber(params, 'c', 'PBKDF2 count');
  if (c < 1) throw damaged('has a PBKDF2 count of zero');
  if (c > KEYSTORE_LIMITS.pbkdf2MaxC) {
    throw tooCostly(
      `${c.toLocaleString('en-US')} PBKDF2 rounds (wallets write at most ${KEYSTORE_LIMITS.pbkdf2MaxC.toLocaleString('en-US')})`,
    );
  }
  return { kind: 'pbkdf2', salt, c };
}

/**
 * Reads a keystore into bounded facts, refusing before any work: INVALID_KEYSTORE for a file that is
 * not one (or too large), KEYSTORE_UNSUPPORTED for a cipher or KDF no wallet writes,
 * KEYSTORE_TOO_COSTLY for a KDF cost above KEYSTORE_LIMITS.
 */
export function parseKeystore(json: string): ParsedKeystore {
  if (json.length > KEYSTORE_LIMITS.maxJsonChars) {
    throw new VaultError(
      'INVALID_KEYSTORE',
      `The file is ${json.length.toLocaleString('en-US')} characters long; a keystore is about 500 to 1,500 and this app reads at most ${KEYSTORE_LIMITS.maxJsonChars.toLocaleString('en-US')}.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    data = null;
  }
  const version = isObject(data) ? field(data, 'version') : undefined;
  const crypto = isObject(data) ? field(data, 'crypto') : undefined;
  if (!isObject(data) || (version !== 3 && version !== '3') || !isObject(crypto)) {
    throw new VaultError(
      'INVALID_KEYSTORE',
      'The file is not an encrypted JSON keystore (version 3 with a crypto section).',
    );
  }
  const cipher = field(crypto, 'cipher');
  if (typeof cipher !== 'string' || cipher.toLowerCase() !== 'aes-128-ctr')
    throw unsupported('a cipher other than AES-128-CTR');
  const cipherparams = field(crypto, 'cipherparams');
  if (!isObject(cipherparams)) throw damaged('has no cipher parameters');
  const kdfName = field(crypto, 'kdf');
  const params = field(crypto, 'kdfparams');
  if (!isObject(params)) throw damaged('has no key-derivation parameters');
  const dklen = wholeNumber(params, 'dklen', 'derived key length');
  if (dklen !== 32) throw unsupported(`a derived key of ${dklen} bytes instead of 32`);
  const salt = hexBytes(params, 'salt', { min: 1, max: KEYSTORE_LIMITS.maxSaltBytes }, 'salt');
  const kdfKind = typeof kdfName === 'string' ? kdfName.toLowerCase() : '';
  if (kdfKind !== 'scrypt' && kdfKind !== 'pbkdf2') throw unsupported('a key derivation other than scrypt or PBKDF2');
  const kdf = kdfKind === 'scrypt' ? scryptParams(params, salt) : pbkdf2Params(params, salt);
  const addressField = field(data, 'address');
  let address: string | null = null;
  if (addressField !== undefined) {
    const hex = typeof addressField === 'string' ? addressField.replace(/^0x/i, '') : '';
    if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw damaged('names an address that is not 40 hex digits');
    address = hex.toLowerCase();
  }
  return {
    kdf,
    iv: hexBytes(cipherparams, 'iv', { min: 16, max: 16 }, 'initialisation vector'),
    // A v3 keystore encrypts one 32-byte private key.
    ciphertext: hexBytes(crypto, 'ciphertext', { min: 32, max: 32 }, 'ciphertext of a 32-byte key'),
    mac: hexBytes(crypto, 'mac', { min: 32, max: 32 }, 'MAC'),
    address,
  };
}

/** ethers' rule for keystore passwords (NFKC, UTF-8), so files ethers wrote open here and the other way round. */
function passwordBytes(password: string): Buffer {
  return Buffer.from(password.normalize('NFKC'), 'utf8');
}

/** The 32-byte derived key, computed on libuv's threadpool. */
function deriveKey(kdf: Kdf, password: string): Promise<Buffer> {
  const secret = passwordBytes(password);
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, key: Buffer): void => {
      secret.fill(0);
      if (err)
        reject(new VaultError('INVALID_KEYSTORE', 'The keystore could not be decrypted: its key derivation failed.'));
      else resolve(key);
    };
    if (kdf.kind === 'pbkdf2') pbkdf2(secret, kdf.salt, kdf.c, 32, 'sha256', done);
    // maxmem: scrypt needs 128·N·r bytes; node's default cap (32 MiB) is below geth's standard.
    else scrypt(secret, kdf.salt, 32, { N: kdf.n, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.n * kdf.r + 2 ** 24 }, done);
  });
}

function macOf(derived: Buffer, ciphertext: Buffer): Buffer {
  return Buffer.from(keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2), 'hex');
}

/**
 * Decrypts a parsed keystore. A wrong password and an altered file look the same (the MAC does not
 * match), and both cost exactly one derivation: BAD_PASSWORD, never throttled (the password is not ours).
 */
export async function decryptKeystore(keystore: ParsedKeystore, password: string): Promise<KeyMaterial> {
  const derived = await deriveKey(keystore.kdf, password);
  try {
    if (!timingSafeEqual(macOf(derived, keystore.ciphertext), keystore.mac)) {
      throw new VaultError('BAD_PASSWORD', 'The keystore password is wrong (or the file was altered).');
    }
    const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), keystore.iv);
    const plain = Buffer.concat([decipher.update(keystore.ciphertext), decipher.final()]);
    const privateKey = `0x${plain.toString('hex')}`;
    plain.fill(0);
    let material: KeyMaterial;
    try {
      material = materialFromPrivateKey(privateKey);
    } catch {
      throw damaged('holds a value that is not a valid private key');
    }
    if (keystore.address !== null && material.address.slice(2).toLowerCase() !== keystore.address) {
      throw damaged('names an address that does not match its key');
    }
    return material;
  } finally {
    derived.fill(0);
  }
}

/** Encrypts a key as a v3 keystore (scrypt, AES-128-CTR) as geth writes it: every wallet reads it. */
export async function encryptKeystore(
  material: KeyMaterial,
  password: string,
  cost: KeystoreScrypt = EXPORT_SCRYPT,
): Promise<string> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derived = await deriveKey({ kind: 'scrypt', salt, n: cost.N, r: cost.r, p: cost.p }, password);
  try {
    const key = Buffer.from(material.privateKey.slice(2), 'hex');
    const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
    const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
    key.fill(0);
    return JSON.stringify({
      address: material.address.slice(2).toLowerCase(),
      crypto: {
        cipher: 'aes-128-ctr',
        ciphertext: ciphertext.toString('hex'),
        cipherparams: { iv: iv.toString('hex') },
        kdf: 'scrypt',
        kdfparams: { dklen: 32, n: cost.N, p: cost.p, r: cost.r, salt: salt.toString('hex') },
        mac: macOf(derived, ciphertext).toString('hex'),
      },
      id: randomUUID(),
      version: 3,
    });
  } finally {
    derived.fill(0);
  }
}

/**
 * One key derivation at a time for keystores: a second call while one runs is refused rather than
 * queued, so the window cannot line up minutes of work or hold several 256 MiB scrypt buffers.
 */
export class KdfSlot {
  #busy = false;

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy) {
      throw new VaultError(
        'KEYSTORE_BUSY',
        'Another keystore is being opened or written; try again when it has finished.',
      );
    }
    this.#busy = true;
    try {
      return await work();
    } finally {
      this.#busy = false;
    }
  }
}
