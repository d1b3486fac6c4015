/**
 * Offline mode in the window's session: while it is on, every request the page (or anything else in
 * the session) makes is cancelled unless it stays inside the app: app://, data: and blob: URLs, and in
 * development the local dev server the page itself comes from. The core opens no connection either
 * (src/main/core/offline-mode.ts); this covers what the renderer could try on its own.
 */
import type { Session } from 'electron';
import type { AppEntry } from '../window/app-entry';
import { APP_SCHEME } from '../window/app-protocol';

const LOCAL_SCHEMES = new Set([`${APP_SCHEME}:`, 'data:', 'blob:', 'devtools:']);

/** Whether a request may go out while offline mode is on. */
export function allowedOffline(url: string, entry: AppEntry): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (LOCAL_SCHEMES.has(parsed.protocol)) return true;
  return entry.kind === 'dev' && parsed.origin === entry.url.origin;
}

type RequestSession = Pick<Session, 'webRequest'>;

export function blockRequestsWhileOffline(session: RequestSession, isOffline: () => boolean, entry: AppEntry): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: isOffline() && !allowedOffline(details.url, entry) });
  });
}
