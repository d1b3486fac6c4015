/**
 * A release and the update server that serves it, for tests: a folder as electron-builder writes it
 * (an installer and latest-linux.yml), signed by `npm run release`'s own signing code with a key the
 * test makes, served from a loopback HTTP server the test starts. Each request is recorded, and the
 * test may replace what one path answers (a tampered file, a redirect, a huge body).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { releaseKeyFromBase64, type ReleaseKey } from '../../src/main/updates/release-key';
import { newReleaseKey, signUpdateFolder, type ReleaseSigner } from '../../scripts/release-tools/sign-update-folder';

export const MANIFEST = 'latest-linux.yml';

export interface TestKey {
  readonly signer: ReleaseSigner;
  readonly key: ReleaseKey;
}

export function testKey(): TestKey {
  const { signer } = newReleaseKey();
  return { signer, key: releaseKeyFromBase64(signer.publicKey) };
}

export interface ReleaseSpec {
  readonly version: string;
  readonly notes?: string;
  readonly minimumVersion?: string;
  /** The installer's bytes; by default a small script that records it ran (see installerScript). */
  readonly installer?: Buffer;
  readonly signers: readonly TestKey[];
}

/** An "AppImage" that, when the updater starts it, writes `ran <version>` to the marker file. */
export function installerScript(version: string, marker: string): Buffer {
  return Buffer.from(`#!/bin/sh\necho "ran ${version}" > '${marker}'\n`);
}

export interface ReleaseFolder {
  readonly dir: string;
  readonly installerName: string;
  readonly installer: Buffer;
  readonly manifest: Buffer;
  readonly signature: Buffer;
  remove(): void;
}

/** Writes the installer and electron-builder's manifest for it, then signs the folder as `npm run release` does. */
export function makeRelease(spec: ReleaseSpec): ReleaseFolder {
  const dir = mkdtempSync(join(tmpdir(), 'update-release-'));
  const installerName = `Exchange-Terminal-${spec.version}.AppImage`;
  const installer = spec.installer ?? installerScript(spec.version, join(dir, 'never-used'));
  writeFileSync(join(dir, installerName), installer);
  const sha512 = createHash('sha512').update(installer).digest('base64');
  writeFileSync(
    join(dir, MANIFEST),
    stringify({
      version: spec.version,
      files: [{ url: installerName, sha512, size: installer.length }],
      path: installerName,
      sha512,
      releaseDate: '2026-11-20T10:00:00.000Z',
    }),
  );
  signUpdateFolder({
    dir,
    signers: spec.signers.map((k) => k.signer),
    trusted: spec.signers.map((k) => ({ fingerprint: k.signer.fingerprint, publicKey: k.signer.publicKey })),
    ...(spec.notes === undefined ? {} : { notes: spec.notes }),
    ...(spec.minimumVersion === undefined ? {} : { minimumVersion: spec.minimumVersion }),
  });
  return {
    dir,
    installerName,
    installer,
    manifest: readFileSync(join(dir, MANIFEST)),
    signature: readFileSync(join(dir, `${MANIFEST}.sig`)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type Answer =
  | { readonly kind: 'body'; readonly body: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'redirect'; readonly location: string }
  /** Streams this many bytes without a declared length. */
  | { readonly kind: 'stream'; readonly bytes: number };

export interface UpdateServer {
  /** The update folder's address, ending with a slash. */
  readonly url: string;
  readonly port: number;
  /** Paths requested, in order (the folder prefix removed). */
  readonly requests: string[];
  serve(release: ReleaseFolder): void;
  /** Answer one file name differently until cleared. */
  answer(name: string, answer: Answer | null): void;
  close(): Promise<void>;
}

const FOLDER = '/exchange-terminal/stable/';

export async function startUpdateServer(): Promise<UpdateServer> {
  let release: ReleaseFolder | null = null;
  const overrides = new Map<string, Answer>();
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    requests.push(path.startsWith(FOLDER) ? decodeURIComponent(path.slice(FOLDER.length)) : path);
    const name = path.startsWith(FOLDER) ? decodeURIComponent(path.slice(FOLDER.length)) : null;
    const override = name === null ? undefined : overrides.get(name);
    const answer: Answer =
      override ??
      (release && name !== null && !name.includes('/')
        ? (() => {
            try {
              return { kind: 'body', body: readFileSync(join(release.dir, name)) } as const;
            } catch {
              return { kind: 'missing' } as const;
            }
          })()
        : { kind: 'missing' });
    switch (answer.kind) {
      case 'body':
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': answer.body.length });
        res.end(answer.body);
        return;
      case 'missing':
        res.writeHead(404).end();
        return;
      case 'redirect':
        res.writeHead(302, { location: answer.location }).end();
        return;
      case 'stream': {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(16 * 1024, 0x41);
        let left = answer.bytes;
        const push = (): void => {
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            left -= n;
            if (!res.write(chunk.subarray(0, n))) return void res.once('drain', push);
          }
          res.end();
        };
        res.on('error', () => undefined);
        push();
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${FOLDER}`,
    port,
    requests,
    serve: (r) => void (release = r),
    answer: (name, a) => void (a ? overrides.set(name, a) : overrides.delete(name)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
