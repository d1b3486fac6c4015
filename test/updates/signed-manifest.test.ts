/**
 * The signed manifest as the app checks it (src/main/updates/signed-manifest.ts), on folders signed by
 * the release tooling (scripts/release-tools/sign-update-folder.ts, node:crypto) and verified with noble:
 * the two implementations agree, and every way a manifest can be wrong is refused with its code.
 */
import { sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { signatureFor, signUpdateFolder } from '../../scripts/release-tools/sign-update-folder';
import { keyFingerprint } from '../../src/main/updates/release-key';
import {
  manifestMessage,
  MAX_MANIFEST_BYTES,
  SIGNATURE_FORMAT,
  verifyManifest,
} from '../../src/main/updates/signed-manifest';
import { parseReleaseKeys, TRUSTED_RELEASE_KEYS } from '../../src/main/updates/trusted-keys';
import { UpdateProblem } from '../../src/main/updates/update-problem';
import { parseVersion } from '../../src/main/updates/version';
import { makeRelease, MANIFEST, testKey, type ReleaseFolder } from './update-server';

const made: ReleaseFolder[] = [];
afterEach(() => {
  for (const r of made.splice(0)) r.remove();
});
function release(...args: Parameters<typeof makeRelease>): ReleaseFolder {
  const r = makeRelease(...args);
  made.push(r);
  return r;
}

const running = parseVersion('1.0.0')!;
const ours = testKey();
const other = testKey();

function verify(manifest: Uint8Array, signature: string | null, options: { name?: string; at?: string } = {}) {
  return verifyManifest({
    manifestName: options.name ?? MANIFEST,
    manifest,
    signature,
    trusted: [ours.key],
    running: parseVersion(options.at ?? '1.0.0')!,
  });
}

function refusal(run: () => unknown): UpdateProblem {
  try {
    run();
  } catch (error) {
    if (error instanceof UpdateProblem) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('a signed manifest', () => {
  it('is accepted when a trusted key signed it: version, files, notes and the signing key as signed', () => {
    const r = release({ version: '1.2.0', notes: 'Fixes the order gate.\nFaster books.', signers: [ours] });
    const verdict = verify(r.manifest, r.signature.toString());
    expect(verdict.kind).toBe('newer');
    if (verdict.kind !== 'newer') return;
    expect(verdict.release).toMatchObject({
      version: { text: '1.2.0' },
      notes: 'Fixes the order gate.\nFaster books.',
      keyFingerprint: ours.key.fingerprint,
      releaseDate: '2026-11-20T10:00:00.000Z',
      files: [{ url: r.installerName, size: r.installer.length }],
    });
  });

  it('says the app is current when the signed version is the running one', () => {
    const r = release({ version: '1.0.0', signers: [ours] });
    expect(verify(r.manifest, r.signature.toString())).toEqual({
      kind: 'current',
      version: '1.0.0',
      keyFingerprint: ours.key.fingerprint,
    });
  });

  it('accepts either key during a rotation, when both signed', () => {
    const r = release({ version: '1.1.0', signers: [other, ours] });
    const verdict = verifyManifest({
      manifestName: MANIFEST,
      manifest: r.manifest,
      signature: r.signature.toString(),
      trusted: [ours.key],
      running,
    });
    expect(verdict).toMatchObject({ kind: 'newer', release: { keyFingerprint: ours.key.fingerprint } });
  });

  it('agrees with node:crypto: the message the tooling signs is the one noble verifies, byte for byte', () => {
    const r = release({ version: '1.1.0', signers: [ours] });
    const signature = sign(null, manifestMessage(MANIFEST, r.manifest), ours.signer.privateKey).toString('base64');
    const text = JSON.stringify({ format: SIGNATURE_FORMAT, signatures: [{ key: ours.key.fingerprint, signature }] });
    expect(verify(r.manifest, text).kind).toBe('newer');
    expect(keyFingerprint(ours.key.publicKey)).toBe(ours.signer.fingerprint);
  });
});

describe('a manifest the app refuses before downloading anything', () => {
  it('unsigned: no signature file, an empty or unreadable one', () => {
    const r = release({ version: '1.1.0', signers: [ours] });
    for (const text of [
      null,
      '',
      'not json',
      '{"format":"other","signatures":[]}',
      JSON.stringify({ format: SIGNATURE_FORMAT, signatures: [] }),
    ])
      expect(refusal(() => verify(r.manifest, text)).code, String(text)).toBe('update.unsigned');
  });

  it('signed by another key, naming that key', () => {
    const r = release({ version: '1.1.0', signers: [other] });
    const problem = refusal(() => verify(r.manifest, r.signature.toString()));
    expect(problem.code).toBe('update.unknown_key');
    expect(problem.message).toContain(other.key.fingerprint);
    expect(problem.refused).toBe(true);
  });

  it('tampered: one byte of the manifest changed, or a signature of another manifest', () => {
    const r = release({ version: '1.1.0', signers: [ours] });
    const tampered = Buffer.from(r.manifest);
    tampered[tampered.indexOf('1.1.0')] = '9'.charCodeAt(0);
    expect(refusal(() => verify(tampered, r.signature.toString())).code).toBe('update.bad_signature');
    const second = release({ version: '1.1.1', signers: [ours] });
    expect(refusal(() => verify(r.manifest, second.signature.toString())).code).toBe('update.bad_signature');
  });

  it('signed for another file name (a Windows manifest served as the Linux one)', () => {
    const r = release({ version: '1.1.0', signers: [ours] });
    const asWindows = signatureFor('latest.yml', r.manifest, [ours.signer]);
    expect(refusal(() => verify(r.manifest, asWindows)).code).toBe('update.bad_signature');
  });

  it('oversized, before the signature is even looked at', () => {
    const big = new Uint8Array(MAX_MANIFEST_BYTES + 1);
    expect(refusal(() => verify(big, signatureFor(MANIFEST, big, [ours.signer]))).code).toBe(
      'update.manifest_too_large',
    );
  });

  it('older than the running app (no downgrade), even though signed', () => {
    const r = release({ version: '0.9.0', signers: [ours] });
    const problem = refusal(() => verify(r.manifest, r.signature.toString()));
    expect(problem.code).toBe('update.downgrade');
    expect(problem.message).toBe(
      "The update server offers version 0.9.0, older than this app's 1.0.0: an older release can carry flaws fixed since, so it was refused. Nothing was installed.",
    );
  });

  it('requiring a newer starting version than the running app (install by hand)', () => {
    const r = release({ version: '2.0.0', minimumVersion: '1.5.0', signers: [ours] });
    expect(refusal(() => verify(r.manifest, r.signature.toString())).code).toBe('update.minimum_version');
    expect(verify(r.manifest, r.signature.toString(), { at: '1.5.0' }).kind).toBe('newer');
  });

  it('signed but unusable: a file outside the update folder, no checksum, YAML aliases, a version that is not semver', () => {
    const variants: [string, (m: Record<string, unknown>) => void][] = [
      ['another host', (m) => ((m['files'] as { url: string }[])[0]!.url = 'https://evil.example/x.AppImage')],
      ['a path', (m) => ((m['files'] as { url: string }[])[0]!.url = '../../x.AppImage')],
      ['no sha512', (m) => delete (m['files'] as { sha512?: string }[])[0]!.sha512],
      ['no size', (m) => delete (m['files'] as { size?: number }[])[0]!.size],
      ['bad version', (m) => (m['version'] = 'latest')],
    ];
    for (const [what, change] of variants) {
      const r = release({ version: '1.1.0', signers: [ours] });
      const manifest = parse(r.manifest.toString()) as Record<string, unknown>;
      change(manifest);
      const bytes = Buffer.from(stringify(manifest));
      const problem = refusal(() => verify(bytes, signatureFor(MANIFEST, bytes, [ours.signer])));
      expect(problem.code, what).toBe('update.invalid_manifest');
    }
    const aliased = Buffer.from(`${r0().manifest.toString()}\nextra: &a [1]\nmore: *a\n`);
    expect(refusal(() => verify(aliased, signatureFor(MANIFEST, aliased, [ours.signer]))).code).toBe(
      'update.invalid_manifest',
    );
  });
});

function r0(): ReleaseFolder {
  return release({ version: '1.1.0', signers: [ours] });
}

describe('the release tooling', () => {
  it('refuses to sign with a key the app does not embed, and when a file does not match its manifest', () => {
    const r = release({ version: '1.1.0', signers: [ours] });
    expect(() =>
      signUpdateFolder({
        dir: r.dir,
        signers: [other.signer],
        trusted: [{ fingerprint: ours.key.fingerprint, publicKey: ours.signer.publicKey }],
      }),
    ).toThrow(/not in src\/main\/updates\/release-keys\.json/);
    writeFileSync(join(r.dir, r.installerName), 'changed after packing');
    expect(() =>
      signUpdateFolder({
        dir: r.dir,
        signers: [ours.signer],
        trusted: [{ fingerprint: ours.key.fingerprint, publicKey: ours.signer.publicKey }],
      }),
    ).toThrow(/does not match its SHA-512/);
    expect(readFileSync(join(r.dir, MANIFEST)).equals(r.manifest)).toBe(true);
  });

  it('release-keys.json holds public keys whose fingerprints are their own', () => {
    expect(TRUSTED_RELEASE_KEYS.length).toBeGreaterThan(0);
    for (const key of TRUSTED_RELEASE_KEYS) expect(keyFingerprint(key.publicKey)).toBe(key.fingerprint);
    const file = JSON.parse(readFileSync('src/main/updates/release-keys.json', 'utf8')) as {
      keys: { fingerprint: string }[];
    };
    file.keys[0]!.fingerprint = other.key.fingerprint;
    expect(() => parseReleaseKeys(file)).toThrow(/is not the fingerprint of its key/);
  });
});
