import { randomBytes } from 'node:crypto';
import { Mnemonic, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactPhrases } from './redact';

const wallet = Wallet.createRandom();
const PHRASE = wallet.mnemonic!.phrase;
const PK = wallet.privateKey;
const DIGEST = '0x' + 'ab'.repeat(32);

describe('redact', () => {
  it('removes values under secret keys at any depth, keeping flags', () => {
    const out = redact({
      privateKey: PK,
      nested: { mnemonic: PHRASE, list: [{ password: 'hunter22hunter' }], Passphrase: 'x', seed: 7 },
      private_key: PK.slice(2),
      clientSecret: 'abc',
      hasPassword: true,
      seedWords: ['a', 'b'],
    });
    expect(out).toEqual({
      privateKey: REDACTED,
      nested: { mnemonic: REDACTED, list: [{ password: REDACTED }], Passphrase: REDACTED, seed: REDACTED },
      private_key: REDACTED,
      clientSecret: REDACTED,
      hasPassword: true,
      seedWords: REDACTED,
    });
  });

  it('removes 32-byte hex under key-sounding keys but keeps hashes and addresses elsewhere', () => {
    const out = redact({
      signingKey: PK,
      apiKey: `Bearer ${PK.slice(2)}`,
      orderHash: DIGEST,
      signer: wallet.address,
      note: 'nothing secret here',
    });
    expect(out).toEqual({
      signingKey: REDACTED,
      apiKey: `Bearer ${REDACTED}`,
      orderHash: DIGEST,
      signer: wallet.address,
      note: 'nothing secret here',
    });
  });

  it('removes recovery phrases of 12 to 24 words anywhere, in any case and spacing', () => {
    for (const bytes of [16, 20, 24, 28, 32]) {
      const phrase = Mnemonic.fromEntropy(randomBytes(bytes)).phrase; // 12, 15, 18, 21, 24 words
      expect(phrase.split(' ').length).toBe((bytes * 3) / 4);
      const text = `user typed: ${phrase.toUpperCase().replaceAll(' ', '  ')}. xyzzy`;
      expect(redactPhrases(text)).toBe(`user typed: ${REDACTED} xyzzy`);
    }
    // Neighbouring list words go with the phrase: over-redacting beats leaking.
    expect(redactPhrases(`end ${PHRASE} end`)).toBe(REDACTED);
    const twentyFour = `${'abandon '.repeat(23)}art`;
    expect(redact({ message: `import failed for ${twentyFour}` })).toEqual({
      message: `import failed for ${REDACTED}`,
    });
    // Eleven words is a sentence, not a phrase.
    const eleven = PHRASE.split(' ').slice(0, 11).join(' ');
    expect(redactPhrases(eleven)).toBe(eleven);
    expect(redactPhrases('the quick brown fox')).toBe('the quick brown fox');
  });

  it('flattens errors, bigints, bytes, dates and cycles', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const err = Object.assign(new Error(`qqq: ${PHRASE}`), { code: 'X' });
    expect(redact({ err, amount: 10n ** 20n, raw: new Uint8Array(4), at: new Date(0), cyclic, fn: () => 1 })).toEqual({
      err: { name: 'Error', message: `qqq: ${REDACTED}`, code: 'X' },
      amount: '100000000000000000000',
      raw: '[4 bytes]',
      at: '1970-01-01T00:00:00.000Z',
      cyclic: { a: 1, self: '[Circular]' },
    });
  });
});
