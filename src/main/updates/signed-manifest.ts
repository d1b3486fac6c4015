/**
 * Signed update manifests. The update server serves electron-builder's manifest (`latest-linux.yml`,
 * `latest-mac.yml`, `latest.yml`: version, files with their SHA-512 and size, release date) with two
 * fields the release step adds (`minimumVersion`, `releaseNotes`), and beside it `<manifest>.sig`:
 * Ed25519 signatures by release keys over
 *
 *     "Exchange Terminal update manifest v1\n" + <manifest file name> + "\n" + <manifest bytes>
 *
 * so a manifest is accepted only byte for byte as signed, and only under its own name (a Windows
 * manifest served as the Linux one fails). The signature is checked before the manifest is parsed at
 * all; then the release must be newer than the running app and allowed to update it. Every refusal is
 * an UpdateProblem with its sentence. `scripts/release-tools/` signs with the same message (node:crypto).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { parse } from 'yaml';
import { z } from 'zod';
import { keyFingerprint, normalFingerprint, type ReleaseKey } from './release-key';
import { NOTHING_INSTALLED, UpdateProblem } from './update-problem';
import { compareVersions, parseVersion, type Version } from './version';

export const MANIFEST_MESSAGE_PREFIX = 'Exchange Terminal update manifest v1\n';
export const SIGNATURE_FORMAT = 'exchange-terminal-update-signature/1';
export const SIGNATURE_SUFFIX = '.sig';
/** electron-builder's manifests are a few hundred bytes; 64 KiB leaves room for long notes and many files. */
export const MAX_MANIFEST_BYTES = 64 * 1024;
export const MAX_SIGNATURE_BYTES = 4 * 1024;
export const MAX_NOTES_CHARS = 4000;
/** The largest file a manifest may announce (an installer is about 100 MB). */
export const MAX_FILE_BYTES = 2 * 1024 ** 3;

/** The bytes a release key signs for one manifest. */
export function manifestMessage(manifestName: string, manifest: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(`${MANIFEST_MESSAGE_PREFIX}${manifestName}\n`);
  const out = new Uint8Array(head.length + manifest.length);
  out.set(head);
  out.set(manifest, head.length);
  return out;
}

const signatureFile = z.strictObject({
  format: z.literal(SIGNATURE_FORMAT),
  signatures: z
    .array(z.strictObject({ key: z.string().max(64), signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/) }))
    .min(1)
    .max(8),
});
export type SignatureFile = z.infer<typeof signatureFile>;

/** A file the manifest names: a plain name in the update folder, never a path or another host. */
const fileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+ -]{0,199}$/, 'a file name in the update folder (no path, no host)')
  .refine((name) => !name.includes('..'), 'a file name in the update folder (no path, no host)');
const sha512 = z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'a SHA-512 in base64');
const fileEntry = z.object({
  url: fileName,
  sha512,
  size: z.number().int().positive().max(MAX_FILE_BYTES),
});
const manifestSchema = z.object({
  version: z.string(),
  files: z.array(fileEntry).min(1).max(16),
  releaseDate: z.string().max(40).optional(),
  minimumVersion: z.string().optional(),
  releaseNotes: z.string().max(MAX_NOTES_CHARS).optional(),
});

export interface ReleaseFile {
  readonly url: string;
  readonly sha512: string;
  readonly size: number;
}

/** A release whose manifest a trusted key signed, newer than the running app and allowed to update it. */
export interface VerifiedRelease {
  readonly manifestName: string;
  readonly version: Version;
  readonly files: readonly ReleaseFile[];
  readonly releaseDate: string | null;
  /** The release's own words (possibly empty): shown quoted and labelled, never as the app's. */
  readonly notes: string;
  readonly keyFingerprint: string;
}

export type ManifestVerdict =
  | { readonly kind: 'newer'; readonly release: VerifiedRelease }
  | { readonly kind: 'current'; readonly version: string; readonly keyFingerprint: string };

function refused(code: ConstructorParameters<typeof UpdateProblem>[0], sentence: string): UpdateProblem {
  return new UpdateProblem(code, `${sentence} ${NOTHING_INSTALLED}`);
}

/** Which trusted key signed the manifest; throws the refusal when none did, or when a trusted key's signature fails. */
export function checkSignatures(
  manifestName: string,
  manifest: Uint8Array,
  signatureText: string | null,
  trusted: readonly ReleaseKey[],
): ReleaseKey {
  let parsed: SignatureFile | null = null;
  if (signatureText !== null) {
    try {
      const result = signatureFile.safeParse(JSON.parse(signatureText));
      parsed = result.success ? result.data : null;
    } catch {
      parsed = null;
    }
  }
  if (!parsed) {
    throw refused(
      'update.unsigned',
      `The update server's ${manifestName} carries no release signature this app can read, so the update was refused before anything was downloaded.`,
    );
  }
  const message = manifestMessage(manifestName, manifest);
  let signer: ReleaseKey | null = null;
  const strangers: string[] = [];
  for (const entry of parsed.signatures) {
    const fingerprint = normalFingerprint(entry.key);
    const key = fingerprint === null ? undefined : trusted.find((k) => k.fingerprint === fingerprint);
    if (!key) {
      strangers.push(fingerprint ?? 'unreadable');
      continue;
    }
    const signature = new Uint8Array(Buffer.from(entry.signature, 'base64'));
    // Strict RFC 8032 verification (no ZIP-215 leniency): exactly what node:crypto signs.
    const good = (() => {
      try {
        return ed25519.verify(signature, message, key.publicKey, { zip215: false });
      } catch {
        return false;
      }
    })();
    if (!good) {
      throw refused(
        'update.bad_signature',
        `The update server's ${manifestName} does not match its signature by release key ${key.fingerprint}: it was changed after signing, so the update was refused before anything was downloaded.`,
      );
    }
    signer ??= key;
  }
  if (!signer) {
    throw refused(
      'update.unknown_key',
      `The update server's ${manifestName} is signed by a key this app does not trust (${strangers.join(', ')}), so the update was refused before anything was downloaded.`,
    );
  }
  return signer;
}

/**
 * The verdict on a manifest the update server served: the release it announces when it is newer than
 * `running`, or that the app is current. Throws an UpdateProblem for everything else.
 */
export function verifyManifest(input: {
  readonly manifestName: string;
  readonly manifest: Uint8Array;
  readonly signature: string | null;
  readonly trusted: readonly ReleaseKey[];
  readonly running: Version;
}): ManifestVerdict {
  const { manifestName, manifest, running } = input;
  if (manifest.length > MAX_MANIFEST_BYTES) {
    throw refused(
      'update.manifest_too_large',
      `The update server's ${manifestName} is larger than ${MAX_MANIFEST_BYTES / 1024} KiB, so it was refused unread.`,
    );
  }
  const signer = checkSignatures(manifestName, manifest, input.signature, input.trusted);
  // Parsed only once a trusted key vouched for the bytes: unsigned YAML is never read.
  let raw: unknown;
  try {
    raw = parse(new TextDecoder('utf-8', { fatal: true }).decode(manifest), { maxAliasCount: 0, uniqueKeys: true });
  } catch {
    raw = null;
  }
  const fields = manifestSchema.safeParse(raw);
  const version = fields.success ? parseVersion(fields.data.version) : null;
  const minimum =
    fields.success && fields.data.minimumVersion !== undefined ? parseVersion(fields.data.minimumVersion) : null;
  if (!fields.success || !version || (fields.data.minimumVersion !== undefined && !minimum)) {
    const issue = fields.success
      ? 'a version that is not a semantic version'
      : (fields.error.issues[0]?.message ?? 'unreadable');
    throw refused(
      'update.invalid_manifest',
      `The update server's ${manifestName} is signed by release key ${signer.fingerprint} but this app cannot use it (${issue}).`,
    );
  }
  const order = compareVersions(version, running);
  if (order === 0) return { kind: 'current', version: version.text, keyFingerprint: signer.fingerprint };
  if (order < 0) {
    throw refused(
      'update.downgrade',
      `The update server offers version ${version.text}, older than this app's ${running.text}: an older release can carry flaws fixed since, so it was refused.`,
    );
  }
  if (minimum && compareVersions(running, minimum) < 0) {
    throw refused(
      'update.minimum_version',
      `Version ${version.text} does not update versions before ${minimum.text} by itself: install it by hand from the project's release page (this app is ${running.text}).`,
    );
  }
  const m = fields.data;
  return {
    kind: 'newer',
    release: {
      manifestName,
      version,
      files: m.files.map((f) => ({ url: f.url, sha512: f.sha512, size: f.size })),
      releaseDate: m.releaseDate ?? null,
      notes: m.releaseNotes ?? '',
      keyFingerprint: signer.fingerprint,
    },
  };
}

/** The fingerprint of a raw public key, re-exported for the release tooling. */
export { keyFingerprint };
