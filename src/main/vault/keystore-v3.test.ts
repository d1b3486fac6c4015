// Keystores as real wallets write them open; anything outside the bounds is refused before any work,
// with a code and a sentence; a wrong password and an altered file are the same refusal.
import { Wallet, decryptKeystoreJson, encryptKeystoreJson } from 'ethers';
import { describe, expect, it } from 'vitest';
import { VaultError, type VaultErrorCode } from './errors';
import { KEYSTORE_LIMITS, KdfSlot, decryptKeystore, encryptKeystore, parseKeystore } from './keystore-v3';

/**
 * The Web3 Secret Storage definition's test vectors (password "testpassword"): PBKDF2 at 2^18, and scrypt
 * with N = 2^18, r = 1, p = 8, which RFC 7914 forbids (N must be below 2^(16·r)) and no wallet writes.
 */
const SPEC_KEY = '0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';
const SPEC_SCRYPT = JSON.stringify({
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: {
      dklen: 32,
      n: 262144,
      p: 8,
      r: 1,
      salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19',
    },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
});
const SPEC_PBKDF2 = JSON.stringify({
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: {
      c: 262144,
      dklen: 32,
      prf: 'hmac-sha256',
      salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd',
    },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
});
/** A key file geth wrote for its own tests (password "foobar"): lowercase crypto, address without 0x, p = 16. */
const GETH_FILE =
  '{"address":"f466859ead1932d743d622cb74fc058882e8648a","crypto":{"cipher":"aes-128-ctr","ciphertext":"cb664472deacb41a2e995fa7f96fe29ce744471deb8d146a0e43c7898c9ddd4d","cipherparams":{"iv":"dfd9ee70812add5f4b8f89d0811c9158"},"kdf":"scrypt","kdfparams":{"dklen":32,"n":8,"p":16,"r":8,"salt":"0d6769bf016d45c479213990d6a08d938469c4adad8a02ce507b4a4e7b7739f1"},"mac":"bac9af994b15a45dd39669fc66f9aa8a3b9dd8c22cb16e4d8d7ea089d0f1a1a9"},"id":"472e8b3d-afb6-45b5-8111-72c89895099a","version":3}';
const GETH_ADDRESS = '0xf466859eAD1932D743d622CB74FC058882E8648A';

const wallet = Wallet.createRandom();
const PASSWORD = 'keystore-pw-1';

function refusal(fn: () => unknown): VaultError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VaultError);
    return e as VaultError;
  }
  throw new Error('expected a refusal');
}

async function refusedAsync(p: Promise<unknown>): Promise<VaultError> {
  const e: unknown = await p.then(
    () => new Error('expected a refusal'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VaultError);
  return e as VaultError;
}

function expectSentence(e: VaultError, code: VaultErrorCode): void {
  expect(e.code).toBe(code);
  expect(e.message).toMatch(/^[A-Z].{15,}\.$/s);
}

/** An ethers keystore with its KDF section replaced: what a hostile window would hand main. */
async function withKdf(kdf: string, kdfparams: Record<string, unknown>): Promise<string> {
  const base = JSON.parse(
    await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, PASSWORD, {
      scrypt: { N: 2 ** 4 },
    }),
  ) as { Crypto: Record<string, unknown> };
  return JSON.stringify({ ...base, Crypto: { ...base.Crypto, kdf, kdfparams } });
}
const SALT = 'ab'.repeat(32);

describe('keystores wallets write', () => {
  it("opens the spec's PBKDF2 vector and a file geth wrote; refuses the spec's scrypt vector in words", async () => {
    expect((await decryptKeystore(parseKeystore(SPEC_PBKDF2), 'testpassword')).privateKey).toBe(SPEC_KEY);
    const e = refusal(() => parseKeystore(SPEC_SCRYPT));
    expectSentence(e, 'KEYSTORE_UNSUPPORTED');
    expect(e.message).toContain('RFC 7914');
    expect((await decryptKeystore(parseKeystore(GETH_FILE), 'foobar')).address).toBe(GETH_ADDRESS);
  });

  it("opens ethers' keystores at its default cost (N = 2^17) and at geth's light cost (N = 2^12, p = 6)", async () => {
    for (const scrypt of [undefined, { N: 2 ** 12, r: 8, p: 6 }]) {
      const json = await encryptKeystoreJson(
        { address: wallet.address, privateKey: wallet.privateKey },
        PASSWORD,
        scrypt ? { scrypt } : {},
      );
      const material = await decryptKeystore(parseKeystore(json), PASSWORD);
      expect(material).toEqual({ address: wallet.address, privateKey: wallet.privateKey });
    }
  });

  it("opens geth's standard cost (N = 2^18, r = 8, p = 1), the costliest allowed", async () => {
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 18, r: 8, p: 1 });
    expect(parseKeystore(json).kdf).toMatchObject({ kind: 'scrypt', n: KEYSTORE_LIMITS.scryptMaxN, r: 8, p: 1 });
    expect((await decryptKeystore(parseKeystore(json), PASSWORD)).address).toBe(wallet.address);
  });

  it('writes keystores ethers opens (and reads them back)', async () => {
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const opened = await decryptKeystoreJson(json, PASSWORD);
    expect(opened.privateKey).toBe(wallet.privateKey);
    expect((await decryptKeystore(parseKeystore(json), PASSWORD)).privateKey).toBe(wallet.privateKey);
    expect(JSON.parse(json)).toMatchObject({ version: 3, crypto: { kdf: 'scrypt', kdfparams: { n: 2 ** 10 } } });
  });
});

describe('wrong passwords and altered files', () => {
  it('refuses a wrong password and a changed MAC or ciphertext with the same sentence', async () => {
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const wrong = await refusedAsync(decryptKeystore(parseKeystore(json), `${PASSWORD}!`));
    expectSentence(wrong, 'BAD_PASSWORD');
    const data = JSON.parse(json) as { crypto: { mac: string; ciphertext: string } };
    const flip = (hex: string): string => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    for (const altered of [
      { ...data, crypto: { ...data.crypto, mac: flip(data.crypto.mac) } },
      { ...data, crypto: { ...data.crypto, ciphertext: flip(data.crypto.ciphertext) } },
    ]) {
      const e = await refusedAsync(decryptKeystore(parseKeystore(JSON.stringify(altered)), PASSWORD));
      expectSentence(e, 'BAD_PASSWORD');
      expect(e.message).toBe(wrong.message);
    }
  });

  it('refuses a file whose address is not its key', async () => {
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const other = JSON.stringify({ ...JSON.parse(json), address: Wallet.createRandom().address.slice(2) });
    expectSentence(await refusedAsync(decryptKeystore(parseKeystore(other), PASSWORD)), 'INVALID_KEYSTORE');
  });
});

describe('bounds, refused before any work', () => {
  it.each([
    ['scrypt N = 2^19', 'scrypt', { n: 2 ** 19, r: 8, p: 1, dklen: 32, salt: SALT }],
    ['scrypt N = 2^30', 'scrypt', { n: 2 ** 30, r: 8, p: 1, dklen: 32, salt: SALT }],
    ['scrypt r = 16', 'scrypt', { n: 2 ** 10, r: 16, p: 1, dklen: 32, salt: SALT }],
    ['scrypt p = 17', 'scrypt', { n: 2 ** 10, r: 8, p: 17, dklen: 32, salt: SALT }],
    ['scrypt work N·r·p over 2^21', 'scrypt', { n: 2 ** 18, r: 8, p: 2, dklen: 32, salt: SALT }],
    ['PBKDF2 c = 2^20 + 1', 'pbkdf2', { c: 2 ** 20 + 1, prf: 'hmac-sha256', dklen: 32, salt: SALT }],
    ['PBKDF2 c = 2^31 - 1', 'pbkdf2', { c: 2 ** 31 - 1, prf: 'hmac-sha256', dklen: 32, salt: SALT }],
  ])('%s is too costly', async (_name, kdf, params) => {
    const json = await withKdf(kdf, params);
    expectSentence(
      refusal(() => parseKeystore(json)),
      'KEYSTORE_TOO_COSTLY',
    );
  });

  it.each([
    ['PBKDF2 with HMAC-SHA512', 'pbkdf2', { c: 1024, prf: 'hmac-sha512', dklen: 32, salt: SALT }],
    ['a 64-byte derived key', 'scrypt', { n: 1024, r: 8, p: 1, dklen: 64, salt: SALT }],
    ['argon2', 'argon2id', { n: 1024, r: 8, p: 1, dklen: 32, salt: SALT }],
  ])('%s is not what wallets write', async (_name, kdf, params) => {
    const json = await withKdf(kdf, params);
    expectSentence(
      refusal(() => parseKeystore(json)),
      'KEYSTORE_UNSUPPORTED',
    );
  });

  it.each([
    ['N not a power of two', 'scrypt', { n: 1000, r: 8, p: 1, dklen: 32, salt: SALT }],
    ['a 65-byte salt', 'scrypt', { n: 1024, r: 8, p: 1, dklen: 32, salt: 'ab'.repeat(65) }],
    ['a count that is not a number', 'pbkdf2', { c: 'many', prf: 'hmac-sha256', dklen: 32, salt: SALT }],
  ])('%s is a damaged keystore', async (_name, kdf, params) => {
    const json = await withKdf(kdf, params);
    expectSentence(
      refusal(() => parseKeystore(json)),
      'INVALID_KEYSTORE',
    );
  });

  it('refuses files over the size bound, other ciphers and ciphertexts that are not one key', async () => {
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const data = JSON.parse(json) as Record<string, unknown> & { crypto: Record<string, unknown> };
    const padded = JSON.stringify({ ...data, padding: 'x'.repeat(KEYSTORE_LIMITS.maxJsonChars) });
    expectSentence(
      refusal(() => parseKeystore(padded)),
      'INVALID_KEYSTORE',
    );
    expectSentence(
      refusal(() => parseKeystore(JSON.stringify({ ...data, crypto: { ...data.crypto, cipher: 'aes-128-cbc' } }))),
      'KEYSTORE_UNSUPPORTED',
    );
    const longer = JSON.stringify({
      ...data,
      crypto: { ...data.crypto, ciphertext: `${String(data.crypto['ciphertext'])}00` },
    });
    expectSentence(
      refusal(() => parseKeystore(longer)),
      'INVALID_KEYSTORE',
    );
    for (const notOne of ['', '[]', '{"version":3}', '{"version":4,"crypto":{}}', 'x'.repeat(100)]) {
      expectSentence(
        refusal(() => parseKeystore(notOne)),
        'INVALID_KEYSTORE',
      );
    }
  });
});

describe('one derivation at a time', () => {
  it('refuses a second keystore while one is being opened, and takes the next one after', async () => {
    const slot = new KdfSlot();
    const json = await encryptKeystore(wallet, PASSWORD, { N: 2 ** 14, r: 8, p: 1 });
    const first = slot.run(() => decryptKeystore(parseKeystore(json), PASSWORD));
    expectSentence(await refusedAsync(slot.run(() => decryptKeystore(parseKeystore(json), PASSWORD))), 'KEYSTORE_BUSY');
    expect((await first).address).toBe(wallet.address);
    expect((await slot.run(() => decryptKeystore(parseKeystore(json), PASSWORD))).address).toBe(wallet.address);
  });
});
