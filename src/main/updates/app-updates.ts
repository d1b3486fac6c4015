/**
 * The update service of the running app, as src/main/index.ts starts it: the address and keys baked
 * into this build, this platform's manifest, and electron-updater with an adapter over electron's
 * `app` (passed in, so this file loads no electron and runs under node in tests).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log';
import { electronUpdaterEngine, type UpdaterApp } from './electron-updater-engine';
import { BAKED_FEED_URL, BAKED_WINDOWS_PUBLISHERS, installerKindFor, manifestNameFor } from './release-channel';
import { TRUSTED_RELEASE_KEYS } from './trusted-keys';
import { createUpdateService, type UpdateService } from './update-service';

/** The part of electron's `app` the updater uses. */
export interface ElectronAppLike {
  readonly isPackaged: boolean;
  getVersion(): string;
  getName(): string;
  getPath(name: 'userData'): string;
  whenReady(): Promise<unknown>;
  relaunch(): void;
  quit(): void;
  once(event: 'quit', listener: (event: unknown, exitCode: number) => void): unknown;
}

export interface AppUpdatesOptions {
  readonly app: ElectronAppLike;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** process.resourcesPath inside Electron. */
  readonly resourcesPath: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
}

/** The per-user cache folder, as electron-updater chooses it. */
export function userCacheDir(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === 'win32') return env['LOCALAPPDATA'] ?? join(homedir(), 'AppData', 'Local');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches');
  return env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
}

export function appUpdateService(options: AppUpdatesOptions): UpdateService {
  const { app, platform, resourcesPath, env, logger } = options;
  const kind = app.isPackaged ? installerKindFor(platform, resourcesPath, env) : null;
  const updaterApp: UpdaterApp = {
    version: app.getVersion(),
    name: app.getName(),
    isPackaged: app.isPackaged,
    appUpdateConfigPath: join(resourcesPath ?? '', 'app-update.yml'),
    userDataPath: app.getPath('userData'),
    baseCachePath: userCacheDir(platform, env),
    whenReady: () => app.whenReady().then(() => undefined),
    relaunch: () => app.relaunch(),
    quit: () => app.quit(),
    onQuit: (handler) => void app.once('quit', (_event, exitCode) => handler(exitCode)),
  };
  return createUpdateService({
    feedUrl: BAKED_FEED_URL,
    trustedKeys: TRUSTED_RELEASE_KEYS,
    currentVersion: app.getVersion(),
    manifestName: manifestNameFor(platform, options.arch),
    engine: kind
      ? (origin, installOnQuit) =>
          electronUpdaterEngine({
            app: updaterApp,
            kind,
            origin,
            logger,
            windowsPublishers: BAKED_WINDOWS_PUBLISHERS,
            installOnQuit,
          })
      : null,
    logger,
  });
}
