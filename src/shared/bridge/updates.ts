/**
 * Updates on the bridge (src/main/updates): the window sees where the app's own update stands and may
 * ask main to download an announced release (ask-first mode) or to show its restart dialog. It can
 * name no URL, no file and no key: where updates come from and which key must sign them are baked
 * into the build, and installing happens only after the person's yes in main's restart dialog, or when
 * they quit the app with a release downloaded and the setting "install when I quit" on, which only
 * main's dialog turns on (settings.setInstallUpdatesOnQuit).
 */
import { z } from 'zod';
import { SettingsSchema } from '../settings-schema';
import { confirmed } from './keys';
import { unixMs } from './primitives';

/** Download a verified release as soon as it is announced, or wait until the person asks for it. */
export const updateDownloads = z.enum(['automatic', 'ask']);
export type UpdateDownloads = z.infer<typeof updateDownloads>;

export const updateState = z.enum([
  /** This build does not update itself (no update address baked in, or not an installed copy). */
  'off',
  /** Offline mode: nothing is checked and no socket is opened. */
  'offline',
  /** Not checked yet in this run. */
  'idle',
  'checking',
  'up-to-date',
  /** A newer release is signed and announced; in ask-first mode it waits for the person. */
  'available',
  'downloading',
  /** Downloaded and checked against the signed manifest: installs on "Restart to update" (or on quit, see installOnQuit). */
  'ready',
  /** The update server answered something this app will not install (see `problem`). */
  'refused',
  /** The check or download did not complete (network, disk); the next check tries again. */
  'failed',
]);
export type UpdateState = z.infer<typeof updateState>;

/** A release as its signed manifest announces it; `notes` are the release's own words, never ours. */
export const updateRelease = z.object({
  version: z.string().max(64),
  releaseDate: z.string().max(40).nullable(),
  notes: z.string().max(4000),
  /** Fingerprint of the release key that signed the manifest, as the README and key file print it. */
  keyFingerprint: z.string().max(64),
});
export type UpdateRelease = z.infer<typeof updateRelease>;

export const updateStatus = z.object({
  state: updateState,
  downloads: updateDownloads,
  /** Quitting the app installs a ready release: the person's setting is on and this platform can. */
  installOnQuit: z.boolean(),
  currentVersion: z.string().max(64),
  release: updateRelease.nullable(),
  /** 0..100 while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** Why the state is off, refused or failed: a code and a sentence. */
  problem: z.object({ code: z.string(), message: z.string() }).nullable(),
  checkedAt: unixMs.nullable(),
});
export type UpdateStatus = z.infer<typeof updateStatus>;

/** The updates.* rows of the bridge contract (src/shared/bridge.ts spreads them in). */
export const updateMethods = {
  'updates.status': {
    args: z.tuple([]),
    result: updateStatus,
    summary: 'Where the app’s own update stands: off, checking, available, downloading, ready, refused or failed.',
  },
  'updates.download': {
    args: z.tuple([]),
    result: updateStatus,
    summary:
      'Download the release the signed manifest announced (ask-first mode); it is checked against that manifest and installs nothing.',
  },
  'updates.restart': {
    args: z.tuple([]),
    result: confirmed(updateStatus),
    summary:
      'Ask main to show its restart dialog (version, release notes, signing key); the app installs and restarts only after the person’s yes.',
  },
  'settings.setInstallUpdatesOnQuit': {
    args: z.tuple([z.boolean()]),
    result: confirmed(SettingsSchema),
    summary:
      'Turn off at once, or on (quitting the app then installs a downloaded update) after the person agrees in a dialog owned by main.',
  },
} as const;
