/**
 * The app's own update, as the window sees it: the status main reports (the `updates` event), the
 * one notice each change deserves, and the two things the window may ask for: the download of an
 * announced release (ask-first mode) and main's restart dialog. Installing is main's, after the
 * person's yes there.
 */
import { writable } from 'svelte/store';
import type { UpdateStatus } from '../../shared/bridge';
import type { BridgeClient } from './bridge';
import type { Toast } from './notices';

export const updateStatus = writable<UpdateStatus | null>(null);

/** A short line for the status bar, or null when there is nothing to say there. */
export function updateBadgeText(status: UpdateStatus | null): string | null {
  if (!status?.release && status?.state !== 'refused') return null;
  const version = status.release?.version ?? '';
  switch (status.state) {
    case 'available':
      return `Update ${version} available`;
    case 'downloading':
      return `Downloading update ${version}${status.percent === null ? '' : ` · ${Math.floor(status.percent)}%`}`;
    case 'ready':
      return `Update ${version} ready`;
    case 'refused':
      return version ? `Update ${version} refused` : 'Update refused';
    default:
      return null;
  }
}

/** What the status says in one sentence (the settings panel). */
export function updateStateSentence(status: UpdateStatus): string {
  const version = status.release?.version;
  switch (status.state) {
    case 'off':
    case 'refused':
    case 'failed':
      return status.problem?.message ?? 'The update did not complete.';
    case 'offline':
      return 'Offline mode is on: the app checks for no update and opens no connection.';
    case 'idle':
      return 'The app checks for updates shortly after it starts and every few hours.';
    case 'checking':
      return 'Checking for an update…';
    case 'up-to-date':
      return `This version (${status.currentVersion}) is the latest release.`;
    case 'available':
      return `Version ${version} is available. It is downloaded when you ask (Download).`;
    case 'downloading':
      return `Downloading version ${version}${status.percent === null ? '' : ` (${Math.floor(status.percent)}%)`}; it is checked against its signed manifest.`;
    case 'ready':
      return status.installOnQuit
        ? `Version ${version} is downloaded and checked. It installs when you quit the app, or now with Restart to update.`
        : `Version ${version} is downloaded and checked. It installs when you say yes in Restart to update; quitting the app does not install it.`;
  }
}

/** The notice a change of status deserves, or null (progress and routine checks say nothing). */
export function updateNotice(
  previous: UpdateStatus | null,
  next: UpdateStatus,
): { level: Toast['level']; message: string; status?: string } | null {
  if (previous?.state === next.state && previous.release?.version === next.release?.version) return null;
  const version = next.release?.version;
  switch (next.state) {
    case 'refused':
      return { level: 'warning', message: next.problem?.message ?? 'An update was refused.', status: 'UPDATE REFUSED' };
    case 'available':
      return { level: 'info', message: `Version ${version} is available: download it in Settings → Updates.` };
    case 'ready':
      return {
        level: 'info',
        message: next.installOnQuit
          ? `Version ${version} is ready: it installs when you quit, or now with Restart to update.`
          : `Version ${version} is ready: it installs after your yes in Restart to update.`,
      };
    default:
      return null;
  }
}

/** Loads the status and follows its event; each change that deserves one raises a notice. */
export function followUpdates(
  bridge: BridgeClient,
  notify: (level: Toast['level'], message: string, status?: string) => void,
): () => void {
  let last: UpdateStatus | null = null;
  const take = (next: UpdateStatus): void => {
    const notice = updateNotice(last, next);
    last = next;
    updateStatus.set(next);
    if (notice) notify(notice.level, notice.message, notice.status);
  };
  const off = bridge.on('updates', take);
  bridge.call('updates.status').then(
    (status) => {
      if (last === null) take(status);
    },
    () => undefined,
  );
  return off;
}
