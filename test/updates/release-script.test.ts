/**
 * `npm run release` as a release manager runs it (scripts/release-tools/release.ts, through tsx): a
 * new release key is written owner-only and never over an existing file, with the entry for
 * release-keys.json; a key the app does not embed and an update address that is not https are refused
 * before anything is built or signed. (Signing itself: signed-manifest.test.ts and updater.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signerFromPem } from '../../scripts/release-tools/sign-update-folder';
import { makeRelease, testKey } from './update-server';

const work = mkdtempSync(join(tmpdir(), 'release-script-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function release(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(resolve('node_modules/.bin/tsx'), [resolve('scripts/release-tools/release.ts'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, EXCHANGE_TERMINAL_RELEASE_KEY: '' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run release', () => {
  it('--new-key writes an owner-only PEM and prints its release-keys.json entry, and never overwrites a key', () => {
    const path = join(work, 'new.pem');
    const made = release('--new-key', path);
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const signer = signerFromPem(readFileSync(path, 'utf8'));
    expect(made.stdout).toContain(`Fingerprint: ${signer.fingerprint}`);
    expect(made.stdout).toContain(`"publicKey": "${signer.publicKey}"`);
    const again = release('--new-key', path);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists: a release key is never overwritten');
    expect(signerFromPem(readFileSync(path, 'utf8')).publicKey).toBe(signer.publicKey);
  });

  it('refuses a key the app does not embed, before building or signing anything', () => {
    const key = testKey();
    const folder = makeRelease({ version: '0.2.0', signers: [key] });
    const pem = join(work, 'stranger.pem');
    writeFileSync(pem, key.signer.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const before = readFileSync(join(folder.dir, 'latest-linux.yml.sig'), 'utf8');
    const run = release('--feed-url', 'https://updates.example.org/et/', '--key-file', pem, '--from', folder.dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the release key ${key.signer.fingerprint} is not in`);
    expect(readFileSync(join(folder.dir, 'latest-linux.yml.sig'), 'utf8')).toBe(before);
    folder.remove();
  });

  it('refuses an update address that is not https, and a run without a key', () => {
    const http = release('--feed-url', 'http://updates.example.org/et/');
    expect(http.status).toBe(1);
    expect(http.stderr).toContain('--feed-url must be the https address of the update folder');
    const keyless = release('--feed-url', 'https://updates.example.org/et/');
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toContain('no release key: pass --key-file <path> or set EXCHANGE_TERMINAL_RELEASE_KEY');
  });
});
