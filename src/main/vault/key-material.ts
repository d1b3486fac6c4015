import { HDNodeWallet, LangEn, Mnemonic, SigningKey, Wallet, computeAddress } from 'ethers';
import { VaultError } from './errors';

/** A private key with the address it controls. Lives only inside the vault. */
export interface KeyMaterial {
  /** Checksummed address. */
  address: string;
  /** 0x + 64 lowercase hex. */
  privateKey: string;
}

const PRIVATE_KEY_RE = /^(?:0x)?([0-9a-fA-F]{64})$/;
const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24];
/** BIP-32 non-hardened child indices. */
export const MAX_ACCOUNT_INDEX = 2 ** 31 - 1;

export function materialFromPrivateKey(input: string): KeyMaterial {
  const match = PRIVATE_KEY_RE.exec(input.trim());
  const invalid = () =>
    new VaultError(
      'INVALID_PRIVATE_KEY',
      'The private key must be 64 hexadecimal digits (optionally starting with 0x) and a valid secp256k1 key.',
    );
  if (!match?.[1]) throw invalid();
  const privateKey = `0x${match[1].toLowerCase()}`;
  try {
    return { address: computeAddress(new SigningKey(privateKey).publicKey), privateKey };
  } catch {
    throw invalid(); // zero or ≥ curve order; the library error would echo the input
  }
}

export function createRandomMaterial(): KeyMaterial {
  const wallet = Wallet.createRandom();
  return { address: wallet.address, privateKey: wallet.privateKey };
}

/** Splits a phrase as typed (any spacing or case) into normalized words. */
export function normalizePhrase(phrase: string): string[] {
  return phrase.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean);
}

export function derivationPath(index: number): string {
  return `m/44'/60'/0'/0/${index}`;
}

/** Derives the account at m/44'/60'/0'/0/index from an English BIP-39 phrase. */
export function materialFromMnemonic(phrase: string, index: number): KeyMaterial {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ACCOUNT_INDEX) {
    throw new VaultError(
      'INVALID_ACCOUNT_INDEX',
      `The account index must be a whole number from 0 to ${MAX_ACCOUNT_INDEX}.`,
    );
  }
  const words = normalizePhrase(phrase);
  if (!MNEMONIC_WORD_COUNTS.includes(words.length)) {
    throw new VaultError(
      'INVALID_MNEMONIC',
      `The recovery phrase has ${words.length} word${words.length === 1 ? '' : 's'}; it must have 12, 15, 18, 21 or 24.`,
    );
  }
  const wordlist = LangEn.wordlist();
  // Name the position, never the word: a near-miss typo is almost the secret itself.
  const unknown = words.findIndex((w) => wordlist.getWordIndex(w) < 0);
  if (unknown >= 0) {
    throw new VaultError(
      'INVALID_MNEMONIC',
      `Word ${unknown + 1} of the recovery phrase is not in the English BIP-39 word list.`,
    );
  }
  const joined = words.join(' ');
  if (!Mnemonic.isValidMnemonic(joined, wordlist)) {
    throw new VaultError(
      'INVALID_MNEMONIC',
      'The recovery phrase checksum does not match: a word is probably mistyped or out of order.',
    );
  }
  const wallet = HDNodeWallet.fromPhrase(joined, undefined, derivationPath(index), wordlist);
  return { address: wallet.address, privateKey: wallet.privateKey };
}
