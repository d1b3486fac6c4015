/**
 * The updater end to end against a local update server (loopback, started here): the update service
 * with the real electron-updater (its AppImage installer) under the Electron double, downloading
 * through the pinned executor into a real update cache. A signed newer release downloads and is
 * reported ready, installs on restart, and on quit only when the person's setting says so (a quit the
 * window brought about by closing the last window installs nothing with it off); each of a tampered installer, a tampered manifest,
 * an unsigned manifest, another key, an older version, an oversized manifest or installer and a
 * redirect to another host is refused with a code and a sentence, and afterwards nothing is where an
 * installer would run it: no file in the pending cache, no release ready, and quitting installs
 * nothing (the installed AppImage is untouched).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../src/shared/bridge';
import { silentLogger } from '../../src/main/log';
import {
  createUpdateService,
  electronUpdaterEngine,
  updateCacheDir,
  UpdateOrigin,
  type UpdaterApp,
  type UpdateService,
} from '../../src/main/updates';
import { installElectronDouble, type ElectronDouble } from './electron-double';
import {
  installerScript,
  makeRelease,
  MANIFEST,
  startUpdateServer,
  testKey,
  type ReleaseFolder,
  type UpdateServer,
} from './update-server';

const RUNNING = '1.0.0';
const ours = testKey();
const stranger = testKey();
const wait = { timeout: 20_000, interval: 25 };

let server: UpdateServer;
let elsewhere: UpdateServer;
let electron: ElectronDouble;
let work: string;
let installed: string;
let marker: string;
let quitHandlers: ((code: number) => void)[];
let quits: number;
/** The person's setting "install a downloaded update when I quit" (off by default, as in the app). */
let installOnQuit: boolean;
let service: UpdateService | null;
let seen: UpdateStatus[];
const releases: ReleaseFolder[] = [];

beforeAll(async () => {
  electron = installElectronDouble();
  server = await startUpdateServer();
  elsewhere = await startUpdateServer();
});
afterAll(async () => {
  electron.restore();
  await server.close();
  await elsewhere.close();
  for (const r of releases) r.remove();
});

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'updater-test-'));
  // The copy of the app that is "installed": an AppImage the updater would replace.
  installed = join(work, 'apps', `Exchange-Terminal-${RUNNING}.AppImage`);
  mkdirSync(join(work, 'apps'));
  writeFileSync(installed, 'the running version', { mode: 0o755 });
  marker = join(work, 'installer-ran');
  process.env['APPIMAGE'] = installed;
  quitHandlers = [];
  quits = 0;
  installOnQuit = false;
  seen = [];
  server.requests.length = 0;
  elsewhere.requests.length = 0;
});
afterEach(() => {
  service?.dispose();
  service = null;
  delete process.env['APPIMAGE'];
  for (const name of [MANIFEST, `${MANIFEST}.sig`]) server.answer(name, null);
  rmSync(work, { recursive: true, force: true });
});

function release(version: string, options: { signers?: (typeof ours)[]; notes?: string } = {}): ReleaseFolder {
  const r = makeRelease({
    version,
    notes: options.notes ?? `Version ${version}: the order gate and bounded inputs.`,
    signers: options.signers ?? [ours],
    installer: installerScript(version, marker),
  });
  releases.push(r);
  return r;
}

function app(): UpdaterApp {
  return {
    version: RUNNING,
    name: 'Exchange Terminal',
    isPackaged: true,
    appUpdateConfigPath: join(work, 'app-update.yml'),
    userDataPath: join(work, 'userData'),
    baseCachePath: join(work, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => void quits++,
    onQuit: (handler) => void quitHandlers.push(handler),
  };
}

function startService(downloads: 'automatic' | 'ask' = 'automatic'): UpdateService {
  service = createUpdateService({
    feedUrl: server.url,
    trustedKeys: [ours.key],
    currentVersion: RUNNING,
    manifestName: MANIFEST,
    engine: (origin, onQuit) =>
      electronUpdaterEngine({ app: app(), kind: 'appimage', origin, logger: silentLogger, installOnQuit: onQuit }),
    logger: silentLogger,
    // The test decides when to check.
    firstCheckMs: 3_600_000,
  });
  service.onChange((s) => seen.push(s));
  service.start({ offline: () => false, downloads: () => downloads, installOnQuit: () => installOnQuit });
  return service;
}

function pendingFiles(): string[] {
  const dir = join(updateCacheDir(join(work, 'cache')), 'pending');
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function settled(s: UpdateService): Promise<UpdateStatus> {
  await vi.waitFor(
    () => expect(['ready', 'refused', 'failed', 'up-to-date', 'available']).toContain(s.status().state),
    wait,
  );
  return s.status();
}

/** Nothing an installer would run: no release ready, nothing pending, and quitting installs nothing (setting on). */
function expectNothingToInstall(s: UpdateService): void {
  expect(s.ready()).toBeNull();
  expect(pendingFiles().filter((f) => /AppImage/i.test(f))).toEqual([]);
  expect(s.install()).toBe(false);
  installOnQuit = true;
  for (const handler of quitHandlers) handler(0);
  expect(readFileSync(installed, 'utf8')).toBe('the running version');
  expect(existsSync(marker)).toBe(false);
  expect(quits).toBe(0);
}

function expectRefused(status: UpdateStatus, code: string): void {
  expect(status.state).toBe('refused');
  expect(status.problem?.code).toBe(code);
  expect(status.problem?.message).toMatch(/^[A-Z].{20,}\. Nothing was installed\.$/s);
}

describe('a signed newer release', () => {
  it('downloads through the pinned executor, is checked and reported ready with its version, notes and key', async () => {
    const r = release('1.1.0', { notes: 'Fixes the order gate.\nBounded inputs.' });
    server.serve(r);
    const s = startService();
    expect(s.status().state).toBe('idle');
    await s.check();
    const status = await settled(s);
    expect(status).toMatchObject({
      state: 'ready',
      currentVersion: RUNNING,
      release: {
        version: '1.1.0',
        notes: 'Fixes the order gate.\nBounded inputs.',
        keyFingerprint: ours.key.fingerprint,
        releaseDate: '2026-11-20T10:00:00.000Z',
      },
      problem: null,
    });
    expect(seen.map((x) => x.state)).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
    expect(seen.some((x) => x.state === 'downloading' && x.percent === 100)).toBe(true);
    // Exactly the manifest, its signature and the installer the manifest names, from the update address.
    expect(server.requests).toEqual([MANIFEST, `${MANIFEST}.sig`, r.installerName]);
    const pending = pendingFiles();
    expect(pending).toContain(r.installerName);
    expect(
      readFileSync(join(updateCacheDir(join(work, 'cache')), 'pending', r.installerName)).equals(r.installer),
    ).toBe(true);
    // electron-updater used the adapter and the pinned executor, never Chromium's net or electron's app.
    expect(electron.forbidden).toEqual([]);
    expect(s.ready()?.version.text).toBe('1.1.0');
  });

  it('installs on "Restart to update": the new version replaces the AppImage, starts, and the app quits', async () => {
    server.serve(release('1.1.0'));
    const s = startService();
    await s.check();
    expect((await settled(s)).state).toBe('ready');
    const announced = vi.fn();
    electron.autoUpdater.on('before-quit-for-update', announced);
    expect(s.install()).toBe(true);
    await vi.waitFor(() => expect(quits).toBe(1), wait);
    expect(announced).toHaveBeenCalledTimes(1);
    expect(existsSync(installed)).toBe(false);
    expect(existsSync(join(work, 'apps', 'Exchange-Terminal-1.1.0.AppImage'))).toBe(true);
    await vi.waitFor(() => expect(readFileSync(marker, 'utf8').trim()).toBe('ran 1.1.0'), wait);
    electron.autoUpdater.off('before-quit-for-update', announced);
  });

  it('with the setting off (the default), a quit the window brought about installs nothing; the restart’s yes still does', async () => {
    server.serve(release('1.1.0'));
    const s = startService();
    await s.check();
    expect((await settled(s)).state).toBe('ready');
    expect(s.status().installOnQuit).toBe(false);
    // The window runs window.close(): the last window closes, window-all-closed quits the app
    // (src/main/index.ts), and electron's quit event comes with exit code 0, as for any quit.
    expect(quitHandlers).toHaveLength(1);
    quitHandlers[0]!(0);
    expect(readFileSync(installed, 'utf8')).toBe('the running version');
    expect(existsSync(join(work, 'apps', 'Exchange-Terminal-1.1.0.AppImage'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(quits).toBe(0);
    // electron-updater's own install on quit is off: it registered no quit handler of its own.
    expect(quitHandlers).toHaveLength(1);
    // The release stays downloaded, and the person's yes in main's restart dialog installs it.
    expect(s.ready()?.version.text).toBe('1.1.0');
    expect(s.install()).toBe(true);
    await vi.waitFor(() => expect(quits).toBe(1), wait);
    await vi.waitFor(() => expect(readFileSync(marker, 'utf8').trim()).toBe('ran 1.1.0'), wait);
    // The quit that restart makes does not install a second time.
    quitHandlers[0]!(0);
    expect(readFileSync(marker, 'utf8').trim()).toBe('ran 1.1.0');
  });

  it('installs on quit once the setting is on (read as the app quits), not when the app exits with an error', async () => {
    server.serve(release('1.1.0'));
    const s = startService();
    await s.check();
    expect((await settled(s)).state).toBe('ready');
    // Turned on after the download (in the app: only after main's dialog), it counts at the quit.
    installOnQuit = true;
    expect(s.status().installOnQuit).toBe(true);
    expect(quitHandlers).toHaveLength(1);
    quitHandlers[0]!(1);
    expect(readFileSync(installed, 'utf8')).toBe('the running version');
    quitHandlers[0]!(0);
    expect(readFileSync(marker, 'utf8').trim()).toBe('ran 1.1.0');
    expect(readFileSync(join(work, 'apps', 'Exchange-Terminal-1.1.0.AppImage'), 'utf8')).toContain('ran 1.1.0');
    // Installing on quit does not start the new version: the person quit.
    expect(quits).toBe(0);
  });

  it('on macOS never installs on quit: Squirrel.Mac is handed a release only after the restart’s yes', () => {
    const mac = electronUpdaterEngine({
      app: app(),
      kind: 'mac',
      origin: UpdateOrigin.parse(server.url)!,
      logger: silentLogger,
      installOnQuit: () => true,
    });
    expect(mac.canInstallOnQuit).toBe(false);
    expect(mac.installAndRestart()).toBe(false);
    expect(
      electronUpdaterEngine({
        app: app(),
        kind: 'appimage',
        origin: UpdateOrigin.parse(server.url)!,
        logger: silentLogger,
        installOnQuit: () => true,
      }).canInstallOnQuit,
    ).toBe(true);
  });

  it('waits for the person in ask-first mode: nothing is downloaded until updates.download', async () => {
    const r = release('1.2.0');
    server.serve(r);
    const s = startService('ask');
    await s.check();
    expect(s.status()).toMatchObject({ state: 'available', downloads: 'ask', release: { version: '1.2.0' } });
    expect(server.requests).toEqual([MANIFEST, `${MANIFEST}.sig`]);
    expect(pendingFiles()).toEqual([]);
    expect(s.download().state).toBe('downloading');
    expect((await settled(s)).state).toBe('ready');
    expect(server.requests.at(-1)).toBe(r.installerName);
  });

  it('reports up to date when the signed version is the running one, and downloads nothing', async () => {
    server.serve(release(RUNNING));
    const s = startService();
    expect((await s.check()).state).toBe('up-to-date');
    expect(server.requests).toEqual([MANIFEST, `${MANIFEST}.sig`]);
  });
});

describe('refused before anything is downloaded', () => {
  const cases: [string, string, () => void][] = [
    [
      'a tampered manifest',
      'update.bad_signature',
      () => {
        const r = release('1.1.0');
        server.serve(r);
        server.answer(MANIFEST, { kind: 'body', body: Buffer.from(r.manifest.toString().replace('1.1.0', '1.1.1')) });
      },
    ],
    [
      'an unsigned manifest',
      'update.unsigned',
      () => {
        server.serve(release('1.1.0'));
        server.answer(`${MANIFEST}.sig`, { kind: 'missing' });
      },
    ],
    [
      'a manifest signed by another key',
      'update.unknown_key',
      () => server.serve(release('1.1.0', { signers: [stranger] })),
    ],
    ['an older version (downgrade)', 'update.downgrade', () => server.serve(release('0.9.0'))],
    [
      'an oversized manifest',
      'update.manifest_too_large',
      () => {
        server.serve(release('1.1.0'));
        server.answer(MANIFEST, { kind: 'stream', bytes: 10 * 1024 * 1024 });
      },
    ],
    [
      'a redirect of the manifest to another host',
      'update.redirect',
      () => {
        server.serve(release('1.1.0'));
        elsewhere.serve(release('1.1.0'));
        server.answer(MANIFEST, {
          kind: 'redirect',
          location: `http://localhost:${elsewhere.port}/exchange-terminal/stable/${MANIFEST}`,
        });
      },
    ],
  ];
  for (const [what, code, arrange] of cases) {
    it(`${what}: ${code}`, async () => {
      arrange();
      const s = startService();
      await s.check();
      const status = await settled(s);
      expectRefused(status, code);
      expect(
        server.requests.filter((p) => p.endsWith('.AppImage')),
        'an installer was requested',
      ).toEqual([]);
      expect(elsewhere.requests).toEqual([]);
      expectNothingToInstall(s);
    });
  }
});

describe('refused while downloading, and the download deleted', () => {
  const cases: [string, string, (r: ReleaseFolder) => void][] = [
    [
      'a tampered installer (same size, other bytes)',
      'update.checksum',
      (r) =>
        server.answer(r.installerName, {
          kind: 'body',
          body: Buffer.from(r.installer.toString().replace('ran', 'own')),
        }),
    ],
    [
      'an installer larger than signed',
      'update.file_too_large',
      (r) => server.answer(r.installerName, { kind: 'stream', bytes: 5 * 1024 * 1024 }),
    ],
    [
      'a redirect of the installer to another host',
      'update.redirect',
      (r) => {
        elsewhere.serve(r);
        server.answer(r.installerName, {
          kind: 'redirect',
          location: `http://localhost:${elsewhere.port}/exchange-terminal/stable/${r.installerName}`,
        });
      },
    ],
  ];
  for (const [what, code, arrange] of cases) {
    it(`${what}: ${code}`, async () => {
      const r = release('1.1.0');
      server.serve(r);
      arrange(r);
      const s = startService();
      await s.check();
      const status = await settled(s);
      expectRefused(status, code);
      expect(status.release?.version).toBe('1.1.0');
      expect(elsewhere.requests).toEqual([]);
      expectNothingToInstall(s);
      server.answer(r.installerName, null);
    });
  }

  it('a later good release still installs after a refused one (the refusal is not sticky)', async () => {
    const bad = release('1.1.0');
    server.serve(bad);
    server.answer(bad.installerName, { kind: 'body', body: Buffer.alloc(bad.installer.length, 0x20) });
    const s = startService();
    await s.check();
    expectRefused(await settled(s), 'update.checksum');
    server.answer(bad.installerName, null);
    server.serve(release('1.1.1'));
    await s.check();
    await vi.waitFor(() => expect(s.status().state).toBe('ready'), wait);
    expect(s.status().release?.version).toBe('1.1.1');
  });
});

describe('a server that cannot be reached', () => {
  it('fails with a sentence and leaves nothing to install; the next check tries again', async () => {
    const s = createUpdateService({
      feedUrl: `http://127.0.0.1:${elsewhere.port + 0}/nothing-here/`,
      trustedKeys: [ours.key],
      currentVersion: RUNNING,
      manifestName: MANIFEST,
      engine: (origin, onQuit) =>
        electronUpdaterEngine({ app: app(), kind: 'appimage', origin, logger: silentLogger, installOnQuit: onQuit }),
      logger: silentLogger,
      firstCheckMs: 3_600_000,
    });
    service = s;
    s.start({ offline: () => false, downloads: () => 'automatic', installOnQuit: () => installOnQuit });
    const status = await s.check();
    expect(status.state).toBe('failed');
    expect(status.problem?.code).toBe('update.server');
    expect(status.problem?.message).toMatch(/tries again at its next check\.$/);
    expectNothingToInstall(s);
  });
});
