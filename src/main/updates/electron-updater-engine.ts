/**
 * electron-updater, the ecosystem's updater, doing what it is good at: the platform's installer kind
 * (NSIS on Windows, Squirrel.Mac, AppImage or deb/rpm/pacman on Linux), the update cache, the SHA-512
 * check, quitAndInstall and the silent install as the app quits (only when the person's setting says
 * so), the Authenticode publisher check on Windows and the code signature check of Squirrel.Mac. It is handed only releases whose manifest a trusted release key
 * signed (signed-manifest.ts), through a provider that serves that verified manifest and resolves its
 * files under the baked update address, and it downloads through the pinned executor
 * (pinned-download.ts). electron-updater loads electron only lazily, so this runs under plain node
 * with an app adapter (tests pass their own); it is imported the first time something is downloaded.
 */
import type * as ElectronUpdater from 'electron-updater';
import type { AppUpdater, BaseUpdater, UpdateInfo } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import type { ProviderRuntimeOptions } from 'electron-updater/out/providers/Provider';
import { join } from 'node:path';
import type { Logger } from '../log';
import { PinnedDownloadExecutor } from './pinned-download';
import type { VerifiedRelease } from './signed-manifest';
import type { UpdateOrigin } from './update-origin';
import { NOTHING_INSTALLED, UpdateProblem } from './update-problem';

/** What electron-updater needs of the app (its AppAdapter); index.ts builds it from electron's app. */
export interface UpdaterApp {
  readonly version: string;
  readonly name: string;
  readonly isPackaged: boolean;
  readonly appUpdateConfigPath: string;
  readonly userDataPath: string;
  /** The per-user cache folder; the update cache is a folder of it named UPDATE_CACHE_DIR. */
  readonly baseCachePath: string;
  whenReady(): Promise<void>;
  relaunch(): void;
  quit(): void;
  onQuit(handler: (exitCode: number) => void): void;
}

/** Which of electron-updater's installers this copy of the app was installed with. */
export type InstallerKind = 'nsis' | 'mac' | 'appimage' | 'deb' | 'rpm' | 'pacman';

export const UPDATE_CACHE_DIR = 'exchange-terminal-updater';

export interface UpdateEngine {
  /** Download the release's installer and check it; resolves once it is ready to install. */
  download(release: VerifiedRelease, onPercent: (percent: number) => void): Promise<void>;
  /** Quit, install the downloaded release and start the new version. False when nothing can be installed. */
  installAndRestart(): boolean;
  /**
   * Whether quitting the app can install a downloaded release here (when the person's setting says so).
   * Not on macOS: Squirrel.Mac installs whatever it was handed on any quit, so it is handed a release
   * only after the person's yes in main's restart dialog.
   */
  readonly canInstallOnQuit: boolean;
  /** Stop a download in progress. */
  abort(): void;
}

export interface ElectronUpdaterEngineOptions {
  readonly app: UpdaterApp;
  readonly kind: InstallerKind;
  readonly origin: UpdateOrigin;
  readonly logger: Logger;
  /** Windows: the Authenticode publisher names a downloaded installer must be signed by (none: not checked). */
  readonly windowsPublishers?: readonly string[];
  /**
   * Asked as the app quits normally with a release downloaded: install it now? The update service
   * answers from the person's setting (off unless they turned it on in main's dialog), never from who
   * or what made the app quit: the window closing the last window is a quit like any other.
   */
  readonly installOnQuit: () => boolean;
}

type ElectronUpdaterModule = typeof ElectronUpdater;

/** electron-updater's "error" codes that mean the platform refused the installer's own signature. */
const PLATFORM_SIGNATURE_CODES = new Set(['ERR_UPDATER_INVALID_SIGNATURE']);

function logAdapter(logger: Logger): { info(m?: unknown): void; warn(m?: unknown): void; error(m?: unknown): void } {
  const text = (m: unknown): string => (m instanceof Error ? m.message : String(m)).slice(0, 500);
  return {
    info: (m) => logger.info('updates.engine', { message: text(m) }),
    warn: (m) => logger.warn('updates.engine', { message: text(m) }),
    error: (m) => logger.error('updates.engine', { message: text(m) }),
  };
}

/** The release as electron-updater reads a manifest: only the verified fields, nothing it could act on beyond them. */
function updateInfo(release: VerifiedRelease): UpdateInfo {
  const [first] = release.files;
  return {
    version: release.version.text,
    files: release.files.map((f) => ({ url: f.url, sha512: f.sha512, size: f.size })),
    path: first!.url,
    sha512: first!.sha512,
    releaseDate: release.releaseDate ?? '',
    releaseNotes: release.notes,
  };
}

export function electronUpdaterEngine(options: ElectronUpdaterEngineOptions): UpdateEngine {
  const { app, kind, origin, logger } = options;
  let current: VerifiedRelease | null = null;
  const executor = new PinnedDownloadExecutor(origin, () => current?.files ?? []);
  let updater: AppUpdater | null = null;
  /** A release downloaded and checked: the installer's path (Squirrel.Mac keeps its own, so there only true). */
  let downloaded = false;
  /** installAndRestart was called: the quit that follows is that install's, not another. */
  let restarting = false;

  async function create(): Promise<AppUpdater> {
    const mod: ElectronUpdaterModule = await import('electron-updater');
    // The manifest this provider serves was fetched and verified already: it opens no connection.
    class VerifiedReleaseProvider extends mod.Provider<UpdateInfo> {
      constructor(_options: unknown, _updater: unknown, runtime: ProviderRuntimeOptions) {
        super(runtime);
      }
      override getLatestVersion(): Promise<UpdateInfo> {
        if (!current) return Promise.reject(new Error('no verified release'));
        return Promise.resolve(updateInfo(current));
      }
      override resolveFiles(info: UpdateInfo): { url: URL; info: UpdateInfo['files'][number] }[] {
        return info.files.map((file) => ({ url: origin.file(file.url), info: file }));
      }
    }
    const adapter: AppAdapter = app;
    const made: AppUpdater =
      kind === 'nsis'
        ? new mod.NsisUpdater(undefined, adapter)
        : kind === 'mac'
          ? new mod.MacUpdater(undefined, adapter)
          : kind === 'deb'
            ? new mod.DebUpdater(undefined, adapter)
            : kind === 'rpm'
              ? new mod.RpmUpdater(undefined, adapter)
              : kind === 'pacman'
                ? new mod.PacmanUpdater(undefined, adapter)
                : new mod.AppImageUpdater(undefined, adapter);
    made.logger = logAdapter(logger);
    made.autoDownload = false;
    // Never electron-updater's own install on quit (nor, on macOS, a release handed to Squirrel.Mac
    // before the person's yes, which it would install on any quit): whether a quit installs is
    // decided below, from the person's setting only.
    made.autoInstallOnAppQuit = false;
    made.allowDowngrade = false;
    made.allowPrerelease = false;
    // Block maps are not signed: every byte comes in one download checked against the signed SHA-512.
    made.disableDifferentialDownload = true;
    made.disableWebInstaller = true;
    // electron-updater's internals, set where its API has no option (pinned to 6.8 in package.json):
    // our executor instead of Chromium's net; the cache folder and Windows publishers from the build,
    // not from app-update.yml beside the archive; no per-install id sent to the update server.
    const internals = made as unknown as Record<string, unknown>;
    internals['httpExecutor'] = executor;
    internals['configOnDisk'] = {
      value: Promise.resolve({
        updaterCacheDirName: UPDATE_CACHE_DIR,
        ...(options.windowsPublishers && options.windowsPublishers.length > 0
          ? { publisherName: [...options.windowsPublishers] }
          : {}),
      }),
    };
    internals['stagingUserIdPromise'] = { value: Promise.resolve('00000000-0000-0000-0000-000000000000') };
    made.setFeedURL({ provider: 'custom', updateProvider: VerifiedReleaseProvider } as never);
    // Errors are reported through the promises below; the event only feeds the log.
    made.on('error', (error) => logger.warn('updates.engine_error', { message: error.message.slice(0, 300) }));
    app.onQuit((exitCode) => quitting(made, exitCode));
    return made;
  }

  /** The app quits: install the downloaded release silently (no restart) only if the person's setting says so. */
  function quitting(made: AppUpdater, exitCode: number): void {
    if (!downloaded || restarting) return;
    const why =
      exitCode !== 0 ? 'exit_code' : kind === 'mac' ? 'platform' : !options.installOnQuit() ? 'setting_off' : null;
    if (why) {
      logger.info('updates.not_installed_on_quit', { why });
      return;
    }
    logger.info('updates.install_on_quit');
    (made as BaseUpdater).install(true, false);
  }

  function problemOf(error: unknown): UpdateProblem {
    if (error instanceof UpdateProblem) return error;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && PLATFORM_SIGNATURE_CODES.has(code)) {
      return new UpdateProblem(
        'update.platform_signature',
        `The downloaded installer is not signed by this app's publisher (the operating system's own signature check), so it was deleted. ${NOTHING_INSTALLED}`,
      );
    }
    return new UpdateProblem(
      'update.download_failed',
      'The update could not be downloaded and checked; the app tries again at its next check.',
    );
  }

  return {
    async download(release, onPercent) {
      current = release;
      downloaded = false;
      try {
        updater ??= await create();
        const onProgress = (p: { percent: number }): void => onPercent(Math.max(0, Math.min(100, p.percent)));
        updater.on('download-progress', onProgress);
        try {
          const check = await updater.checkForUpdates();
          if (!check?.isUpdateAvailable) {
            throw new UpdateProblem(
              'update.off',
              'This copy of the app cannot install updates (it is not an installed copy electron-updater can replace).',
            );
          }
          const [file] = await updater.downloadUpdate();
          // Squirrel.Mac is handed the file only on installAndRestart, so electron-updater names none there.
          downloaded = file !== undefined || kind === 'mac';
        } finally {
          updater.off('download-progress', onProgress);
        }
      } catch (error) {
        throw problemOf(error);
      }
    },
    installAndRestart() {
      if (!updater || !downloaded) return false;
      restarting = true;
      // Silent where the platform asks (Windows), then start the new version.
      updater.quitAndInstall(true, true);
      return true;
    },
    canInstallOnQuit: kind !== 'mac',
    abort() {
      executor.abortAll();
    },
  };
}

/** The update cache folder electron-updater uses under a base cache path (tests look inside it). */
export function updateCacheDir(baseCachePath: string): string {
  return join(baseCachePath, UPDATE_CACHE_DIR);
}
