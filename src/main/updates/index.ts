/** The app's own updates (README, Updates): checked, verified against the release keys, installed on the person's yes. */
export { createUpdateService, CHECK_EVERY_MS, FIRST_CHECK_MS } from './update-service';
export type { UpdateEnvironment, UpdateService, UpdateServiceOptions } from './update-service';
export { electronUpdaterEngine, updateCacheDir, UPDATE_CACHE_DIR } from './electron-updater-engine';
export type { InstallerKind, UpdateEngine, UpdaterApp } from './electron-updater-engine';
export { UpdateProblem } from './update-problem';
export type { UpdateProblemCode } from './update-problem';
export { UpdateOrigin } from './update-origin';
export { TRUSTED_RELEASE_KEYS } from './trusted-keys';
export { BAKED_FEED_URL, BAKED_WINDOWS_PUBLISHERS, installerKindFor, manifestNameFor } from './release-channel';
export type { ReleaseKey } from './release-key';
export type { VerifiedRelease } from './signed-manifest';
export { appUpdateService } from './app-updates';
