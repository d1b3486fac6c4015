/**
 * An update service for tests of the core and of the window (hostile window, offline mode, e2e): a
 * local update server (loopback) serving a release signed by a key made here, checked by the real
 * update service over real sockets. By default a recording engine downloads the installer through
 * the real pinned executor (checked against the signed SHA-512) into a temp folder and counts the
 * installs it is asked for (by the restart, or as the app quits: `quit()`), installing nothing;
 * `engine: 'electron-updater'` uses the real electron-updater (AppImage) there instead.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../src/main/log';
import { silentLogger } from '../../src/main/log';
import {
  createUpdateService,
  electronUpdaterEngine,
  type UpdateEngine,
  type UpdateService,
} from '../../src/main/updates';
import { PinnedDownloadExecutor } from '../../src/main/updates/pinned-download';
import type { ReleaseFile } from '../../src/main/updates/signed-manifest';
import type { UpdateOrigin } from '../../src/main/updates/update-origin';
import {
  makeRelease,
  MANIFEST,
  startUpdateServer,
  testKey,
  type ReleaseFolder,
  type TestKey,
  type UpdateServer,
} from './update-server';

export interface UpdatesFixtureOptions {
  /** The version the server offers (default 0.2.0); null serves nothing. */
  readonly version?: string | null;
  readonly notes?: string;
  /** The running app's version (default 0.1.0). */
  readonly running?: string;
  /** Serve the installer with other bytes than signed (a refused download). */
  readonly tamperInstaller?: boolean;
  readonly engine?: 'recording' | 'electron-updater';
  /** Delay of the first check (default: at once). */
  readonly firstCheckMs?: number;
  readonly logger?: Logger;
}

export interface UpdatesFixture {
  readonly service: UpdateService;
  readonly server: UpdateServer;
  readonly key: TestKey;
  readonly release: ReleaseFolder | null;
  /** How many times the engine was asked to install: to install and restart, or as the app quit. */
  installs(): number;
  /**
   * The app quits normally (electron's quit event, exit code 0), however that came about: the last
   * window closing (a window can close itself) or the person quitting. The recording engine installs
   * then exactly when the service says so; true when it did (always false with electron-updater).
   */
  quit(): boolean;
  close(): Promise<void>;
}

export const DEFAULT_NOTES =
  'Security fixes: orders over the free balance are refused before signing.\nBounded inputs on every exchange answer.\nThe ladder keeps its rows while the book moves.';

export async function startUpdatesFixture(options: UpdatesFixtureOptions = {}): Promise<UpdatesFixture> {
  const key = testKey();
  const server = await startUpdateServer();
  const version = options.version === undefined ? '0.2.0' : options.version;
  const release =
    version === null ? null : makeRelease({ version, notes: options.notes ?? DEFAULT_NOTES, signers: [key] });
  if (release) {
    server.serve(release);
    if (options.tamperInstaller)
      server.answer(release.installerName, { kind: 'body', body: Buffer.alloc(release.installer.length, 0x21) });
  }
  let installs = 0;
  let onQuit: () => boolean = () => false;
  const dir = mkdtempSync(join(tmpdir(), 'updates-fixture-'));
  const recording = (origin: UpdateOrigin, installOnQuit: () => boolean): UpdateEngine => {
    let files: readonly ReleaseFile[] = [];
    const executor = new PinnedDownloadExecutor(origin, () => files);
    onQuit = () => {
      if (!installOnQuit()) return false;
      installs++;
      return true;
    };
    return {
      download: async (release, onPercent) => {
        files = release.files;
        const file = release.files[0]!;
        await executor.download(origin.file(file.url), join(dir, file.url), {
          sha512: file.sha512,
          onProgress: (p) => onPercent(p.percent),
        });
      },
      installAndRestart: () => {
        installs++;
        return true;
      },
      canInstallOnQuit: true,
      abort: () => executor.abortAll(),
    };
  };
  const running = options.running ?? '0.1.0';
  const logger = options.logger ?? silentLogger;
  const service = createUpdateService({
    feedUrl: server.url,
    trustedKeys: [key.key],
    currentVersion: running,
    manifestName: MANIFEST,
    engine:
      options.engine === 'electron-updater'
        ? (origin, installOnQuit) => {
            const installed = join(dir, 'apps', `Exchange-Terminal-${running}.AppImage`);
            mkdirSync(join(dir, 'apps'), { recursive: true });
            writeFileSync(installed, 'the running version', { mode: 0o755 });
            process.env['APPIMAGE'] = installed;
            return electronUpdaterEngine({
              app: {
                version: running,
                name: 'Exchange Terminal',
                isPackaged: true,
                appUpdateConfigPath: join(dir, 'app-update.yml'),
                userDataPath: join(dir, 'userData'),
                baseCachePath: join(dir, 'cache'),
                whenReady: () => Promise.resolve(),
                relaunch: () => undefined,
                quit: () => undefined,
                onQuit: () => undefined,
              },
              kind: 'appimage',
              origin,
              logger,
              installOnQuit,
            });
          }
        : (origin, installOnQuit) => recording(origin, installOnQuit),
    logger,
    firstCheckMs: options.firstCheckMs ?? 0,
  });
  return {
    service,
    server,
    key,
    release,
    installs: () => installs,
    quit: () => onQuit(),
    close: async () => {
      service.dispose();
      await server.close();
      release?.remove();
      rmSync(dir, { recursive: true, force: true });
      if (options.engine === 'electron-updater') delete process.env['APPIMAGE'];
    },
  };
}
