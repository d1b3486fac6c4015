// Drives every vault operation on the real OS keychain (when one answers) and on the encrypted-file
// fallback, and checks that no secret ever appears in anything returned, thrown or stored.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HDNodeWallet,
  LangEn,
  Mnemonic,
  SigningKey,
  Wallet,
  decryptKeystoreJson,
  encryptKeystoreJson,
  keccak256,
  toUtf8Bytes,
} from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { recoverDigestSigner } from '../../shared/protocol/signing';
import { createMemoryStore } from '../store/key-value-store';
import { VaultError, type VaultErrorCode } from './errors';
import { createKeychainBackend } from './keychain';
import { TEST_SERVICE, cleanTestService, keychainAvailability } from '../../../test/support/keychain-test-support';
import { openVault } from './open-vault';
import { Vault, type VaultEvents } from './vault';

const CHEAP = { N: 1024, r: 8, p: 1 };

// Secrets used in this file. Every one must be absent from everything the vault gives back.
const APP_PASSWORD = 'app-lock-password-1';
const NEW_APP_PASSWORD = 'app-lock-password-2';
const KEYSTORE_PASSWORD = 'keystore-import-pw';
const EXPORT_PASSWORD = 'keystore-export-pw';
const randomWallet = Wallet.createRandom();
const MNEMONIC = randomWallet.mnemonic!.phrase;
const mnemonicWallet0 = Wallet.fromPhrase(MNEMONIC); // index 0
const mnemonicWallet3 = HDNodeWallet.fromPhrase(MNEMONIC, undefined, "m/44'/60'/0'/0/3");
const PK_WALLET = Wallet.createRandom();
const KEYSTORE_WALLET = Wallet.createRandom();
const HARDHAT_PHRASE = 'test test test test test test test test test test test junk';

function secretNeedles(privateKeys: string[]): string[] {
  const words = MNEMONIC.split(' ');
  const windows: string[] = [];
  for (let i = 0; i + 3 <= words.length; i++) windows.push(words.slice(i, i + 3).join(' '));
  return [
    ...privateKeys.flatMap((pk) => [pk, pk.slice(2), pk.slice(2).toUpperCase()]),
    MNEMONIC,
    ...windows,
    APP_PASSWORD,
    NEW_APP_PASSWORD,
    KEYSTORE_PASSWORD,
    EXPORT_PASSWORD,
  ];
}

/** Collects the text form of everything observed from the vault. */
class Observed {
  readonly texts: string[] = [];
  add(value: unknown): void {
    if (value instanceof Error) {
      this.texts.push(value.message, String(value), value.stack ?? '', JSON.stringify(value));
      return;
    }
    this.texts.push(JSON.stringify(value) ?? String(value), String(value));
  }
  async ok<T>(p: Promise<T> | T): Promise<T> {
    const v = await p;
    this.add(v);
    return v;
  }
  async fails(p: Promise<unknown> | (() => unknown), code: VaultErrorCode): Promise<VaultError> {
    let err: unknown;
    try {
      await (typeof p === 'function' ? p() : p);
    } catch (e) {
      err = e;
    }
    expect(err, `expected ${code}`).toBeInstanceOf(VaultError);
    const ve = err as VaultError;
    expect(ve.code).toBe(code);
    expect(ve.message.length).toBeGreaterThan(10);
    this.add(ve);
    return ve;
  }
}

interface Harness {
  vault: Vault;
  storeSnapshot(): unknown;
  extraTexts(): string[];
  cleanup(): Promise<void>;
}

type Setup = () => Promise<Harness>;

const availability = await keychainAvailability();

const keychainSetup: Setup = () => {
  const store = createMemoryStore();
  const vault = new Vault({
    store,
    backend: createKeychainBackend(TEST_SERVICE),
    passwordScrypt: CHEAP,
    keystoreScrypt: CHEAP,
  });
  return Promise.resolve({
    vault,
    storeSnapshot: () => store.snapshot(),
    extraTexts: () => [],
    cleanup: cleanTestService,
  });
};

const fileSetup: Setup = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-file-'));
  const store = createMemoryStore();
  const vault = await openVault({
    store,
    filePath: join(dir, 'keys.vault'),
    forceFile: true,
    passwordScrypt: CHEAP,
    keystoreScrypt: CHEAP,
  });
  return {
    vault,
    storeSnapshot: () => store.snapshot(),
    extraTexts: () => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')),
    cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
};

const backends: Array<[string, Setup]> = [['file fallback', fileSetup]];
if (availability.available) backends.push(['OS keychain', keychainSetup]);

if (!availability.available && !availability.mustFail) {
  describe.skip(`vault on OS keychain (skipped: ${availability.reason})`, () => {
    it('runs every operation', () => undefined);
  });
}
if (!availability.available && availability.mustFail) {
  describe('OS keychain', () => {
    it('is available in CI', () => {
      throw new Error(`CI=true but no Secret Service answered: ${availability.reason}`);
    });
  });
}

describe.each(backends)('vault on %s', (_name, setup) => {
  let harness: Harness | undefined;
  afterAll(async () => {
    await harness?.cleanup();
  });

  it('runs every operation and never leaks a secret', async () => {
    harness = await setup();
    const { vault } = harness;
    const o = new Observed();
    const events: Array<[keyof VaultEvents, unknown]> = [];
    for (const name of ['locked', 'unlocked', 'keys-changed'] as const) {
      vault.on(name, (payload) => events.push([name, payload]));
    }

    // Password set-up: the file fallback requires one before anything else.
    const first = await o.ok(vault.status());
    if (first.backend === 'file') {
      expect(first).toMatchObject({ locked: true, hasPassword: false, throttledUntil: null });
      expect(first.backendMessage).toMatch(/encrypted with your vault password/);
      await o.fails(vault.create(), 'PASSWORD_REQUIRED');
      await o.fails(vault.unlock(APP_PASSWORD), 'PASSWORD_REQUIRED');
      await o.fails(vault.removePassword(APP_PASSWORD), 'PASSWORD_REQUIRED');
    } else {
      expect(first).toMatchObject({ locked: false, hasPassword: false, backend: 'keychain', throttledUntil: null });
    }
    await o.fails(vault.setPassword('short', 'short'), 'PASSWORD_TOO_SHORT');
    await o.fails(vault.setPassword(APP_PASSWORD, `${APP_PASSWORD}x`), 'PASSWORD_MISMATCH');
    await o.ok(vault.setPassword(APP_PASSWORD, APP_PASSWORD));
    expect(await o.ok(vault.status())).toMatchObject({ locked: false, hasPassword: true });

    // create
    const created = await o.ok(vault.create({ label: 'Trading', role: 'master' }));
    expect(created).toMatchObject({ label: 'Trading', role: 'master', source: 'created', backend: first.backend });
    expect(created.address).toMatch(/^0x[0-9a-fA-F]{40}$/);

    // private key: with 0x, without, duplicates, invalid
    const pkInfo = await o.ok(
      vault.importPrivateKey(PK_WALLET.privateKey.slice(2).toUpperCase(), { label: 'Agent', role: 'agent' }),
    );
    expect(pkInfo).toMatchObject({ address: PK_WALLET.address, role: 'agent', source: 'privateKey' });
    await o.fails(vault.importPrivateKey(PK_WALLET.privateKey), 'DUPLICATE_KEY');
    await o.fails(vault.importPrivateKey(`0x${'0'.repeat(64)}`), 'INVALID_PRIVATE_KEY');
    await o.fails(vault.importPrivateKey(PK_WALLET.privateKey.slice(0, 40)), 'INVALID_PRIVATE_KEY');
    await o.fails(
      vault.importPrivateKey('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'),
      'INVALID_PRIVATE_KEY',
    );

    // mnemonic: index 0 and 3, a known vector, and each kind of bad phrase
    const m0 = await o.ok(vault.importMnemonic(`  ${MNEMONIC.toUpperCase().replaceAll(' ', '   ')} `, 0));
    expect(m0.address).toBe(mnemonicWallet0.address);
    const m3 = await o.ok(vault.importMnemonic(MNEMONIC, 3, { label: 'Third' }));
    expect(m3.address).toBe(mnemonicWallet3.address);
    const hh1 = await o.ok(vault.importMnemonic(HARDHAT_PHRASE, 1));
    expect(hh1.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    const words = MNEMONIC.split(' ');
    const e1 = await o.fails(vault.importMnemonic(words.slice(0, 11).join(' '), 0), 'INVALID_MNEMONIC');
    expect(e1.message).toMatch(/11 words/);
    const e2 = await o.fails(
      vault.importMnemonic([...words.slice(0, 4), 'notaword', ...words.slice(5)].join(' '), 0),
      'INVALID_MNEMONIC',
    );
    expect(e2.message).toMatch(/Word 5 /);
    // Every word valid but the checksum wrong. A 12-word checksum is only 4 bits, so a fixed edit
    // of a random phrase would stay valid one run in 16: pick the first last-word that breaks it.
    const wordlist = LangEn.wordlist();
    const badChecksum = Array.from({ length: 2048 }, (_, i) => wordlist.getWord(i))
      .map((w) => [...words.slice(0, -1), w].join(' '))
      .find((phrase) => !Mnemonic.isValidMnemonic(phrase));
    expect(badChecksum).toBeDefined();
    const e3 = await o.fails(vault.importMnemonic(badChecksum!, 0), 'INVALID_MNEMONIC');
    expect(e3.message).toMatch(/checksum|mistyped/);
    await o.fails(vault.importMnemonic(MNEMONIC, -1), 'INVALID_ACCOUNT_INDEX');
    await o.fails(vault.importMnemonic(MNEMONIC, 2 ** 31), 'INVALID_ACCOUNT_INDEX');

    // keystore import
    const keystore = await encryptKeystoreJson(
      { address: KEYSTORE_WALLET.address, privateKey: KEYSTORE_WALLET.privateKey },
      KEYSTORE_PASSWORD,
      { scrypt: CHEAP },
    );
    await o.fails(vault.importKeystore(keystore, 'wrong-password'), 'BAD_PASSWORD');
    await o.fails(vault.importKeystore('{"not":"a keystore"}', KEYSTORE_PASSWORD), 'INVALID_KEYSTORE');
    const ks = await o.ok(vault.importKeystore(keystore, KEYSTORE_PASSWORD, { label: 'From file' }));
    expect(ks).toMatchObject({ address: KEYSTORE_WALLET.address, source: 'keystore', label: 'From file' });
    // A wrong keystore password is not an app-password failure: no throttling.
    expect(vault.status().throttledUntil).toBeNull();

    // export
    await o.fails(vault.exportKeystore(ks.address, EXPORT_PASSWORD, `${EXPORT_PASSWORD}!`), 'PASSWORD_MISMATCH');
    await o.fails(vault.exportKeystore(ks.address, 'short', 'short'), 'PASSWORD_TOO_SHORT');
    await o.fails(
      vault.exportKeystore(Wallet.createRandom().address, EXPORT_PASSWORD, EXPORT_PASSWORD),
      'KEY_NOT_FOUND',
    );
    const exported = await vault.exportKeystore(ks.address.toLowerCase(), EXPORT_PASSWORD, EXPORT_PASSWORD);
    // The export is encrypted: the scan below covers it, the decryption proves it holds the key.
    o.add(exported);
    const decrypted = await decryptKeystoreJson(exported, EXPORT_PASSWORD);
    expect(decrypted.address).toBe(KEYSTORE_WALLET.address);
    expect(decrypted.privateKey).toBe(KEYSTORE_WALLET.privateKey);

    // rename
    expect(await o.ok(vault.rename(created.address, '  Main  '))).toMatchObject({ label: 'Main' });
    await o.fails(() => vault.rename(created.address, '   '), 'INVALID_LABEL');
    await o.fails(() => vault.rename(created.address, 'x'.repeat(65)), 'INVALID_LABEL');
    await o.fails(() => vault.rename('0x1234', 'x'), 'KEY_NOT_FOUND');

    // list
    const listed = await o.ok(vault.list());
    expect(listed.map((k) => k.address)).toEqual([
      created.address,
      pkInfo.address,
      m0.address,
      m3.address,
      hh1.address,
      ks.address,
    ]);
    expect(listed[0]!.label).toBe('Main');

    // signing: same bytes as ethers' SigningKey, recoverable, v 27/28, cached after the first read
    const digest = keccak256(toUtf8Bytes('exchange terminal'));
    const sig = await o.ok(vault.signDigest(pkInfo.address, digest));
    expect(sig).toBe(new SigningKey(PK_WALLET.privateKey).sign(digest).serialized);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(['1b', '1c']).toContain(sig.slice(-2));
    expect(recoverDigestSigner(digest as `0x${string}`, sig)).toBe(pkInfo.address);
    for (const k of listed) {
      const s = await o.ok(vault.signDigest(k.address, digest));
      expect(recoverDigestSigner(digest as `0x${string}`, s)).toBe(k.address);
    }
    await o.fails(vault.signDigest(pkInfo.address, '0x1234'), 'INVALID_DIGEST');
    await o.fails(vault.signDigest(Wallet.createRandom().address, digest), 'KEY_NOT_FOUND');

    // withWallet
    const addr = await o.ok(vault.withWallet(m3.address, (w) => w.address));
    expect(addr).toBe(m3.address);
    const msgSig = await o.ok(vault.withWallet(created.address, (w) => w.signMessage('hi')));
    expect(msgSig).toMatch(/^0x[0-9a-f]{130}$/);

    // lock: everything that touches a key is refused
    vault.lock();
    expect(await o.ok(vault.status())).toMatchObject({ locked: true, hasPassword: true });
    await o.fails(vault.signDigest(pkInfo.address, digest), 'LOCKED');
    await o.fails(
      vault.withWallet(pkInfo.address, () => 1),
      'LOCKED',
    );
    await o.fails(vault.create(), 'LOCKED');
    await o.fails(vault.importPrivateKey(Wallet.createRandom().privateKey), 'LOCKED');
    await o.fails(vault.exportKeystore(ks.address, EXPORT_PASSWORD, EXPORT_PASSWORD), 'LOCKED');
    await o.fails(() => vault.rename(ks.address, 'x'), 'LOCKED');
    await o.fails(vault.delete(ks.address), 'LOCKED');
    expect((await o.ok(vault.list())).length).toBe(6); // the list stays visible

    // wrong password, then the right one
    const bad = await o.fails(vault.unlock(`${APP_PASSWORD}-wrong`), 'BAD_PASSWORD');
    expect(bad.message).toBe('The password is wrong.');
    await o.ok(vault.unlock(APP_PASSWORD));
    expect(vault.status()).toMatchObject({ locked: false, throttledUntil: null });
    expect(await o.ok(vault.signDigest(pkInfo.address, digest))).toBe(sig);

    // change the password; the old one stops working
    await o.fails(vault.setPassword(NEW_APP_PASSWORD, NEW_APP_PASSWORD, 'not-the-password'), 'BAD_PASSWORD');
    // The failure above is the first of a streak, so no delay yet.
    await o.ok(vault.setPassword(NEW_APP_PASSWORD, NEW_APP_PASSWORD, APP_PASSWORD));
    vault.lock();
    await o.fails(vault.unlock(APP_PASSWORD), 'BAD_PASSWORD');
    const second = await o.fails(vault.unlock(APP_PASSWORD), 'BAD_PASSWORD');
    expect(second.message).toMatch(/Wait 1 s/);
    const throttled = await o.fails(vault.unlock(NEW_APP_PASSWORD), 'THROTTLED');
    expect(throttled.message).toMatch(/try again in \d+ s/);
    await new Promise((r) => setTimeout(r, (throttled.retryAt ?? Date.now()) - Date.now() + 50));
    await o.ok(vault.unlock(NEW_APP_PASSWORD));
    expect(await o.ok(vault.withWallet(ks.address, (w) => w.address))).toBe(ks.address);

    // delete: gone from the list and from the backend
    await o.ok(vault.delete(pkInfo.address));
    await o.fails(vault.signDigest(pkInfo.address, digest), 'KEY_NOT_FOUND');
    await o.fails(vault.delete(pkInfo.address), 'KEY_NOT_FOUND');
    if (first.backend === 'keychain') {
      expect(await createKeychainBackend(TEST_SERVICE).read(pkInfo.address)).toBeNull();
      // The keychain holds exactly the remaining keys.
      const remaining = vault.list();
      for (const k of remaining) expect(await createKeychainBackend(TEST_SERVICE).read(k.address)).not.toBeNull();
      await o.fails(vault.removePassword('wrong-password'), 'BAD_PASSWORD');
      await o.ok(vault.removePassword(NEW_APP_PASSWORD));
      expect(vault.status()).toMatchObject({ hasPassword: false, locked: false });
    }
    expect(vault.list().map((k) => k.address)).not.toContain(pkInfo.address);

    // events
    const kinds = events.map(([k]) => k);
    expect(kinds.filter((k) => k === 'keys-changed').length).toBe(8); // 6 adds, 1 rename, 1 delete
    expect(kinds.filter((k) => k === 'locked').length).toBe(2);
    expect(kinds).toContain('unlocked');
    o.add(events);

    // The scan: returned values, errors, events, the metadata store and (file) the vault file itself.
    const allKeys = [created, pkInfo, m0, m3, hh1, ks].map((k) => k.address);
    const privateKeys = [PK_WALLET.privateKey, KEYSTORE_WALLET.privateKey, mnemonicWallet0.privateKey];
    for (const a of allKeys) {
      if (a === pkInfo.address) continue;
      privateKeys.push(await vault.withWallet(a, (w) => w.privateKey)); // needles only, not observed
    }
    const haystack = [...o.texts, JSON.stringify(harness.storeSnapshot()), ...harness.extraTexts()];
    for (const needle of secretNeedles(privateKeys)) {
      for (const text of haystack) {
        if (text.includes(needle)) throw new Error(`a secret leaked (needle of length ${needle.length})`);
      }
    }
    expect(haystack.length).toBeGreaterThan(80);
    vault.dispose();
  });
});
