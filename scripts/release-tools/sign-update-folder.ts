/**
 * The signing half of `npm run release` (scripts/release-tools/release.ts), usable on its own: takes a
 * folder as electron-builder wrote it (installers and their `latest*.yml` manifests), adds the
 * release notes and minimum version to each manifest, checks that every file a manifest names is in
 * the folder with the SHA-512 and size it states, and writes `<manifest>.sig` with an Ed25519
 * signature by the release key (node:crypto) over the message the app checks
 * (src/main/updates/signed-manifest.ts). The key must be one the app embeds
 * (src/main/updates/release-keys.json): a release signed by any other key would be refused by every
 * installed copy, so it is refused here first.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { keyFingerprint } from '../../src/main/updates/release-key';
import {
  manifestMessage,
  MAX_MANIFEST_BYTES,
  MAX_NOTES_CHARS,
  SIGNATURE_FORMAT,
  SIGNATURE_SUFFIX,
  type SignatureFile,
} from '../../src/main/updates/signed-manifest';
import { parseVersion } from '../../src/main/updates/version';

/** The environment variable that may hold the release key's PEM (CI secrets), instead of a file. */
export const RELEASE_KEY_ENV = 'EXCHANGE_TERMINAL_RELEASE_KEY';

export interface ReleaseSigner {
  readonly privateKey: KeyObject;
  /** The 32 raw bytes of the public key, in base64, as release-keys.json lists it. */
  readonly publicKey: string;
  readonly fingerprint: string;
}

/** A signer from a PKCS#8 PEM (what `openssl genpkey -algorithm ed25519` and `--new-key` write). */
export function signerFromPem(pem: string): ReleaseSigner {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the release key must be an Ed25519 private key');
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const raw = new Uint8Array(spki.subarray(spki.length - 32));
  return { privateKey, publicKey: Buffer.from(raw).toString('base64'), fingerprint: keyFingerprint(raw) };
}

/** The release key from a file, or else from RELEASE_KEY_ENV. */
export function loadSigner(keyFile: string | undefined, env: NodeJS.ProcessEnv = process.env): ReleaseSigner {
  if (keyFile) return signerFromPem(readFileSync(keyFile, 'utf8'));
  const pem = env[RELEASE_KEY_ENV];
  if (pem) return signerFromPem(pem);
  throw new Error(`no release key: pass --key-file <path> or set ${RELEASE_KEY_ENV} to the key's PEM`);
}

/** A new release key pair: the private key's PEM (keep it offline) and its signer. */
export function newReleaseKey(): { pem: string; signer: ReleaseSigner } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { pem, signer: signerFromPem(pem) };
}

export interface TrustedKeyEntry {
  readonly fingerprint: string;
  readonly publicKey: string;
}

/** The keys the app embeds, read from release-keys.json. */
export function readTrustedKeys(file: string): TrustedKeyEntry[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: TrustedKeyEntry[] };
  return parsed.keys ?? [];
}

/** The .sig text of one manifest, signed by each signer (two during a key rotation). */
export function signatureFor(manifestName: string, manifest: Uint8Array, signers: readonly ReleaseSigner[]): string {
  const message = manifestMessage(manifestName, manifest);
  const file: SignatureFile = {
    format: SIGNATURE_FORMAT,
    signatures: signers.map((s) => ({
      key: s.fingerprint,
      signature: sign(null, message, s.privateKey).toString('base64'),
    })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export interface SignFolderOptions {
  readonly dir: string;
  readonly signers: readonly ReleaseSigner[];
  /** The keys the app embeds: every signer must be one of them. */
  readonly trusted: readonly TrustedKeyEntry[];
  readonly notes?: string;
  readonly minimumVersion?: string;
}

export interface SignedManifest {
  readonly name: string;
  readonly version: string;
  readonly files: readonly string[];
}

function sha512Of(path: string): string {
  return createHash('sha512').update(readFileSync(path)).digest('base64');
}

/** Adds notes and minimum version to every manifest of the folder, checks its files and signs it. */
export function signUpdateFolder(options: SignFolderOptions): SignedManifest[] {
  const { dir, signers } = options;
  if (signers.length === 0) throw new Error('no release key to sign with');
  for (const signer of signers) {
    if (!options.trusted.some((k) => k.publicKey === signer.publicKey)) {
      throw new Error(
        `the release key ${signer.fingerprint} is not in src/main/updates/release-keys.json: installed copies would refuse what it signs (add it there, in a release signed by a key they trust, first)`,
      );
    }
  }
  if (options.notes !== undefined && options.notes.length > MAX_NOTES_CHARS)
    throw new Error(`release notes are limited to ${MAX_NOTES_CHARS} characters (the app refuses longer ones)`);
  if (options.minimumVersion !== undefined && !parseVersion(options.minimumVersion))
    throw new Error(`--minimum-version ${options.minimumVersion} is not a semantic version`);
  const names = readdirSync(dir).filter((f) => /^latest.*\.yml$/.test(f));
  if (names.length === 0)
    throw new Error(`no latest*.yml manifest in ${dir}: electron-builder writes them with a publish provider`);
  const out: SignedManifest[] = [];
  for (const name of names) {
    const manifest = parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
    const version = String(manifest['version']);
    if (!parseVersion(version)) throw new Error(`${name}: version ${version} is not a semantic version`);
    const files = (manifest['files'] as { url: string; sha512: string; size: number }[] | undefined) ?? [];
    if (files.length === 0) throw new Error(`${name} names no files`);
    for (const file of files) {
      const path = join(dir, file.url);
      if (sha512Of(path) !== file.sha512) throw new Error(`${name}: ${file.url} does not match its SHA-512`);
      if (readFileSync(path).length !== file.size) throw new Error(`${name}: ${file.url} does not have its size`);
    }
    if (options.minimumVersion !== undefined) manifest['minimumVersion'] = options.minimumVersion;
    if (options.notes !== undefined) manifest['releaseNotes'] = options.notes;
    const bytes = new TextEncoder().encode(stringify(manifest, { lineWidth: 0 }));
    if (bytes.length > MAX_MANIFEST_BYTES) throw new Error(`${name} is larger than the app accepts`);
    writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, `${name}${SIGNATURE_SUFFIX}`), signatureFor(name, bytes, signers));
    out.push({ name, version, files: files.map((f) => f.url) });
  }
  return out;
}
