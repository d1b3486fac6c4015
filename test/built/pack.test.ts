/**
 * What the installer carries. Packs the built app for Linux as a directory with electron-builder
 * (the same electron-builder.yml the installers use), with `electronDist` pointing at a stand-in
 * Electron: one `electron` file holding only Electron's fuse wire, since the real distribution
 * cannot be downloaded here. Then opens the archive: the built app, production dependencies
 * only, the keychain binding unpacked, no devnet, test or benchmark code, the payload under
 * 15 MB, the fuses flipped in the binary, the packed main bundle boots from the archive's own
 * files, and so does the practice exchange's worker (out/main/practice-worker.js: issue 20), which
 * reaches `ready` with nothing beyond loopback.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractAll, listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PRACTICE_CHAIN_ID } from '../../src/shared/practice';
import { startPracticeWorker } from '../practice/practice-worker-kit';
import { mustBoot } from './boot-run';

const MAX_PAYLOAD_BYTES = 15_000_000;
// @electron/fuses' marker (its constants.js): the fuse wire follows it in Electron's binary.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ENABLE = 0x31;
const DISABLE = 0x30;

const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(resolve('package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
};
const builderConfig = parse(readFileSync(resolve('electron-builder.yml'), 'utf8')) as {
  electronFuses: Record<string, boolean>;
};

const work = mkdtempSync(join(tmpdir(), 'pack-test-'));
const appDir = join(work, 'release', 'linux-unpacked');
const resources = join(appDir, 'resources');
const archive = join(resources, 'app.asar');
let entries: { packed: boolean; path: string }[] = [];
let packSeconds = 0;

/** Every file under a folder with its size. */
function filesIn(dir: string): { path: string; size: number }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { path, size: statSync(path).size };
    });
}

beforeAll(() => {
  if (!existsSync(resolve('out/main/index.js'))) throw new Error('out/ is missing: build first (npm test does).');
  // The stand-in Electron: Electron's default fuse states (RunAsNode, NODE_OPTIONS, --inspect and
  // file:// privileges on, the rest off), so the test sees electron-builder flip them.
  const dist = join(work, 'electron-dist');
  mkdirSync(dist);
  const defaults = [ENABLE, DISABLE, ENABLE, ENABLE, DISABLE, DISABLE, DISABLE, ENABLE];
  writeFileSync(
    join(dist, 'electron'),
    Buffer.concat([
      Buffer.from('stand-in for the Electron binary\n'),
      Buffer.from(FUSE_SENTINEL),
      Buffer.from([1, defaults.length, ...defaults]),
    ]),
  );
  const started = Date.now();
  const run = spawnSync(
    resolve('node_modules/.bin/electron-builder'),
    [
      '--linux',
      '--dir',
      '--publish',
      'never',
      `-c.electronDist=${dist}`,
      `-c.directories.output=${join(work, 'release')}`,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
      timeout: 110_000,
    },
  );
  packSeconds = (Date.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`electron-builder failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  entries = listPackage(archive, { isPack: true }).map((line) => {
    const [kind, path] = line.split(/\s*:\s*/, 2);
    return { packed: kind === 'pack', path: path ?? '' };
  });
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed app (Linux, --dir)', () => {
  it('carries the built app and its package.json', () => {
    const paths = entries.map((e) => e.path);
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/practice-worker.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
    ]) {
      expect(paths, file).toContain(file);
    }
    expect(paths.some((p) => /^\/out\/renderer\/assets\/index-[\w-]+\.js$/.test(p))).toBe(true);
  });

  it('carries production dependencies only (package-lock marks everything else dev)', () => {
    const modules = new Set(
      entries
        .map((e) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/|$)/.exec(e.path)?.[1])
        .filter((name): name is string => !!name && !name.endsWith('/node_modules') && !/^@[^/]+$/.test(name)),
    );
    for (const name of Object.keys(pkg.dependencies)) expect(modules, name).toContain(name);
    for (const name of modules) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, `${name} is in the lock`).toBeDefined();
      expect(entry?.dev, `${name} is a production dependency`).not.toBe(true);
    }
  });

  it('unpacks the keychain binding next to the archive (a .node file cannot load from inside it)', () => {
    const natives = entries.filter((e) => e.path.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
    for (const native of natives) {
      expect(native.packed, native.path).toBe(false);
      expect(existsSync(join(resources, 'app.asar.unpacked', native.path)), native.path).toBe(true);
    }
    expect(natives.some((n) => n.path.startsWith('/node_modules/@napi-rs/keyring'))).toBe(true);
  });

  it('carries no devnet, test, benchmark or source code, no source maps, and none of their tools', () => {
    const offenders = entries.filter(
      (e) =>
        (e.path.startsWith('/out/') && e.path.endsWith('.map')) ||
        /^\/(src|test|e2e|bench|contracts|scripts|resources|release|test-results|bench-results)(\/|$)/.test(e.path) ||
        /^\/node_modules\/(hardhat|solc|@nomicfoundation|ethers|electron|electron-builder|vitest|vite|@playwright|playwright|tsx|typescript|svelte)(\/|$)/.test(
          e.path,
        ) ||
        /\.(test|spec|bench)\.[cm]?[jt]s$/.test(e.path),
    );
    expect(offenders.map((e) => e.path)).toEqual([]);
    // The main bundle does not import the devnet or the chain tooling either.
    const main = readFileSync(resolve('out/main/index.js'), 'utf8');
    expect(main).not.toMatch(/from "(hardhat|solc|@nomicfoundation\/[^"]+)"|src\/devnet\//);
  });

  it('keeps the practice exchange (src/practice, src/exchange) in its worker: main loads none of it, and nothing packed holds devnet or chain code', () => {
    // Every built file's sources, from its source map (out/main/*.js and the chunks they share).
    const maps = filesIn(resolve('out/main')).filter((f) => f.path.endsWith('.js.map'));
    const sourcesOf = (file: string): string[] =>
      (JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] }).sources;
    const worker = maps.find((m) => m.path.endsWith('/practice-worker.js.map'));
    expect(worker, 'practice-worker.js.map').toBeDefined();
    expect(sourcesOf(worker!.path).some((s) => s.includes('src/practice/worker.ts'))).toBe(true);
    // The practice exchange is the local exchange layer (src/exchange), with no chain and no devnet.
    expect(sourcesOf(worker!.path).some((s) => s.includes('src/exchange/service/service.ts'))).toBe(true);
    for (const map of maps) {
      const sources = sourcesOf(map.path);
      expect(
        sources.filter((s) => /src\/devnet\/|node_modules\/(hardhat|solc)\//.test(s)),
        map.path,
      ).toEqual([]);
      if (map === worker) continue;
      expect(
        sources.filter((s) => /src\/(practice|exchange|devnet)\//.test(s)),
        map.path,
      ).toEqual([]);
    }
  });

  it(`keeps the app payload (app.asar and what is unpacked beside it) under ${MAX_PAYLOAD_BYTES / 1e6} MB`, () => {
    const asar = statSync(archive).size;
    const unpacked = filesIn(join(resources, 'app.asar.unpacked')).reduce((sum, f) => sum + f.size, 0);
    const payload = asar + unpacked;
    // Printed for the README and the log: the figures, and how long packing took.
    process.stdout.write(
      `[pack] app payload ${(payload / 1e6).toFixed(1)} MB (app.asar ${(asar / 1e6).toFixed(1)} MB + unpacked ${(unpacked / 1e6).toFixed(1)} MB), packed in ${packSeconds.toFixed(1)} s\n`,
    );
    expect(payload).toBeLessThan(MAX_PAYLOAD_BYTES);
    // Nothing else of ours sits in resources/ (no app/ folder next to the archive).
    expect(readdirSync(resources).sort()).toEqual(['app.asar', 'app.asar.unpacked']);
  });

  it('flips every fuse in the shipped binary as electron-builder.yml says', async () => {
    const wire = await getCurrentFuseWire(join(appDir, pkg.name));
    const names: Record<string, keyof typeof FuseV1Options> = {
      runAsNode: 'RunAsNode',
      enableCookieEncryption: 'EnableCookieEncryption',
      enableNodeOptionsEnvironmentVariable: 'EnableNodeOptionsEnvironmentVariable',
      enableNodeCliInspectArguments: 'EnableNodeCliInspectArguments',
      enableEmbeddedAsarIntegrityValidation: 'EnableEmbeddedAsarIntegrityValidation',
      onlyLoadAppFromAsar: 'OnlyLoadAppFromAsar',
      loadBrowserProcessSpecificV8Snapshot: 'LoadBrowserProcessSpecificV8Snapshot',
      grantFileProtocolExtraPrivileges: 'GrantFileProtocolExtraPrivileges',
    };
    expect(Object.keys(builderConfig.electronFuses).sort()).toEqual(Object.keys(names).sort());
    for (const [option, wanted] of Object.entries(builderConfig.electronFuses)) {
      const index = FuseV1Options[names[option]!];
      expect(wire[index], option).toBe(wanted ? ENABLE : DISABLE);
    }
    expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLE);
  });

  it("boots from the archive's own files, with only its production node_modules to resolve from", () => {
    const extracted = join(work, 'extracted');
    extractAll(archive, extracted);
    cpSync(join(resources, 'app.asar.unpacked'), extracted, { recursive: true });
    const r = mustBoot(join(extracted, 'out', 'main', 'index.js'), 'packaged', work);
    expect(r.errors).toEqual([]);
    expect(r.windows[0]?.loadedUrl).toBe('app://terminal/index.html');
    expect(r.windows[0]?.options.webPreferences['preload']).toBe(join(extracted, 'out', 'preload', 'index.cjs'));
    expect(r.protocolResponses['index']?.status).toBe(200);
    expect(r.calls['read']?.ok).toBe(true);
    // libsecp256k1's .wasm is read from inside the archive's node_modules/tiny-secp256k1.
    expect(r.wasmCrypto).toMatchObject({ ok: true });
  });

  it("starts the practice exchange's worker from the archive's own files, and it stops cleanly", async () => {
    const extracted = join(work, 'extracted-practice');
    extractAll(archive, extracted);
    // The worker needs nothing unpacked (no keychain), so it boots whether or not the binding was packed.
    const unpacked = join(resources, 'app.asar.unpacked');
    if (existsSync(unpacked)) cpSync(unpacked, extracted, { recursive: true });
    const run = startPracticeWorker(
      { dataDir: join(work, 'practice-journal'), fresh: true, bots: 1 },
      pathToFileURL(join(extracted, 'out', 'main', 'practice-worker.js')),
    );
    const ready = await run.ready;
    expect(new URL(ready.httpUrl).hostname).toBe('127.0.0.1');
    expect(ready.chainId).toBe(PRACTICE_CHAIN_ID.toString());
    await run.stop();
    expect(await run.exited).toBe(0);
    expect(run.events.filter((e) => e.type === 'fatal')).toEqual([]);
  });
});
