/**
 * `npm run release`: builds the app with the update address baked in, packs it with electron-builder
 * (which writes the installers and `latest*.yml`), signs every manifest with the release key and
 * writes the folder an update server serves as it is (release/update-server/ unless --out says).
 *
 *   npm run release -- --feed-url https://updates.example.org/exchange-terminal/ \
 *       [--platform linux|mac|win] [--notes notes.txt] [--minimum-version 0.1.0] \
 *       [--key-file release.pem]            (or EXCHANGE_TERMINAL_RELEASE_KEY=<PEM>)
 *       [--second-key-file new.pem]         (a key rotation: both sign)
 *       [--windows-publisher "CN=…"]        (Authenticode publisher a Windows update must carry)
 *       [--from <folder>]                   (sign an already packed folder: no build, no pack)
 *       [--out release/update-server]
 *
 *   npm run release -- --new-key <path>     a new release key: writes its private PEM (mode 600) and
 *                                           prints the entry for src/main/updates/release-keys.json
 *
 * The README's "Updates" section says where the private key lives and how to rotate it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { UpdateOrigin } from '../../src/main/updates/update-origin';
import { SIGNATURE_SUFFIX } from '../../src/main/updates/signed-manifest';
import { loadSigner, newReleaseKey, readTrustedKeys, signUpdateFolder, signerFromPem } from './sign-update-folder';

const root = resolve(import.meta.dirname, '..', '..');
const KEYS_FILE = join(root, 'src/main/updates/release-keys.json');
const bin = (name: string): string => join(root, 'node_modules', '.bin', name);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  process.stdout.write(`\n$ ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} failed (exit ${result.status ?? 'signal'})`);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'feed-url': { type: 'string' },
      platform: {
        type: 'string',
        default: process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux',
      },
      notes: { type: 'string' },
      'minimum-version': { type: 'string' },
      'key-file': { type: 'string' },
      'second-key-file': { type: 'string' },
      'windows-publisher': { type: 'string', multiple: true },
      from: { type: 'string' },
      out: { type: 'string', default: join(root, 'release', 'update-server') },
      'new-key': { type: 'string' },
    },
    strict: true,
  });

  if (values['new-key']) {
    const path = resolve(values['new-key']);
    if (existsSync(path)) throw new Error(`${path} exists: a release key is never overwritten`);
    const { pem, signer } = newReleaseKey();
    writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
    process.stdout.write(
      `Wrote the private release key to ${path} (keep it offline; see the README's "Updates").\n` +
        `Fingerprint: ${signer.fingerprint}\n` +
        `Entry for src/main/updates/release-keys.json:\n${JSON.stringify({ fingerprint: signer.fingerprint, publicKey: signer.publicKey }, null, 2)}\n`,
    );
    return;
  }

  const feedUrl = values['feed-url'];
  if (!feedUrl || !UpdateOrigin.parse(feedUrl))
    throw new Error('--feed-url must be the https address of the update folder');
  const signers = [loadSigner(values['key-file'])];
  if (values['second-key-file']) signers.push(signerFromPem(readFileSync(values['second-key-file'], 'utf8')));
  const trusted = readTrustedKeys(KEYS_FILE);
  for (const s of signers) {
    if (!trusted.some((k) => k.publicKey === s.publicKey))
      throw new Error(`the release key ${s.fingerprint} is not in ${KEYS_FILE}: installed copies would refuse it`);
  }
  const notes = values.notes === undefined ? undefined : readFileSync(values.notes, 'utf8').trim();

  let packed = values.from ? resolve(values.from) : join(root, 'release');
  if (!values.from) {
    const env = {
      ...process.env,
      MAIN_VITE_UPDATE_FEED_URL: feedUrl,
      MAIN_VITE_WINDOWS_PUBLISHERS: (values['windows-publisher'] ?? []).join(','),
    };
    run(bin('electron-vite'), ['build'], env);
    run(
      bin('electron-builder'),
      [`--${values.platform}`, '--publish', 'never', '-c.publish.provider=generic', `-c.publish.url=${feedUrl}`],
      env,
    );
    packed = join(root, 'release');
  }

  const signed = signUpdateFolder({
    dir: packed,
    signers,
    trusted,
    ...(notes === undefined ? {} : { notes }),
    ...(values['minimum-version'] === undefined ? {} : { minimumVersion: values['minimum-version'] }),
  });

  // What the update server serves, and nothing else: each manifest, its signature, the files it names.
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  for (const manifest of signed) {
    for (const file of [manifest.name, `${manifest.name}${SIGNATURE_SUFFIX}`, ...manifest.files])
      copyFileSync(join(packed, file), join(out, file));
    const written = parse(readFileSync(join(out, manifest.name), 'utf8')) as { version: string };
    process.stdout.write(
      `Signed ${manifest.name} (version ${written.version}) by ${signers.map((s) => s.fingerprint).join(' and ')}\n`,
    );
  }
  process.stdout.write(
    `\nUpload the contents of ${out} to ${feedUrl}:\n${readdirSync(out)
      .map((f) => `  ${f}`)
      .join('\n')}\n`,
  );
}

try {
  main();
} catch (error) {
  process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
