/**
 * What this build knows about its updates, fixed when it was built: the update folder (baked in by
 * `npm run release` through electron-vite's MAIN_VITE_* variables; an ordinary build has none and
 * never checks), the Windows publisher names, which manifest this platform reads (electron-builder's
 * names) and which installer replaced this copy (none when it runs from a build folder).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstallerKind } from './electron-updater-engine';

/** The update folder baked into this build, or null. */
export const BAKED_FEED_URL: string | null = import.meta.env?.MAIN_VITE_UPDATE_FEED_URL || null;

/** Authenticode publishers a Windows update must be signed by (empty: the check is not made). */
export const BAKED_WINDOWS_PUBLISHERS: readonly string[] = (import.meta.env?.MAIN_VITE_WINDOWS_PUBLISHERS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s.length > 0);

/** electron-builder's manifest name for a platform and architecture. */
export function manifestNameFor(platform: string, arch: string): string {
  if (platform === 'win32') return 'latest.yml';
  if (platform === 'darwin') return 'latest-mac.yml';
  return arch === 'x64' ? 'latest-linux.yml' : `latest-linux-${arch}.yml`;
}

/**
 * The installer that put this copy here, as electron-updater tells them apart: NSIS and Squirrel.Mac
 * by platform; on Linux the `package-type` file electron-builder writes for deb/rpm/pacman, else an
 * AppImage (the AppImage runtime sets APPIMAGE). Null for anything else: an unpacked folder, a snap.
 */
export function installerKindFor(
  platform: string,
  resourcesPath: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): InstallerKind | null {
  if (platform === 'win32') return 'nsis';
  if (platform === 'darwin') return 'mac';
  if (platform !== 'linux') return null;
  if (resourcesPath) {
    const identity = join(resourcesPath, 'package-type');
    if (existsSync(identity)) {
      const type = readFileSync(identity, 'utf8').trim();
      if (type === 'deb' || type === 'rpm' || type === 'pacman') return type;
    }
  }
  return env['APPIMAGE'] && !env['SNAP'] ? 'appimage' : null;
}
