/**
 * Where the window's page comes from, and which frames count as "our page" for the
 * bridge's sender check. Pure: no electron import.
 */
import { APP_INDEX_URL } from './app-protocol';

export type AppEntry =
  /** The built renderer folder served as app://terminal/ (app-protocol.ts). */
  | { readonly kind: 'app'; readonly rendererDir: string; readonly url: URL }
  /** `electron-vite dev`: the dev server on loopback http, with hot reload and DevTools. */
  | { readonly kind: 'dev'; readonly url: URL };

export interface AppEntryInput {
  /** Absolute path of the built renderer folder (out/renderer, holding index.html). */
  readonly rendererDir: string;
  /** ELECTRON_RENDERER_URL, set by `electron-vite dev`. */
  readonly devServerUrl: string | undefined;
  readonly isPackaged: boolean;
}

export function resolveAppEntry(input: AppEntryInput): AppEntry {
  // A packaged app never trusts an environment variable to decide what page to load.
  if (!input.isPackaged && input.devServerUrl) {
    const url = new URL(input.devServerUrl);
    if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { kind: 'dev', url };
  }
  return { kind: 'app', rendererDir: input.rendererDir, url: new URL(APP_INDEX_URL) };
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** DevTools exist only with the dev server: never in a packaged app, never under `npm start`. */
export function devToolsAllowed(entry: AppEntry): boolean {
  return entry.kind === 'dev';
}

export interface SenderFrame {
  readonly url: string;
  /** True when the frame is the top-level frame of its window. */
  readonly isMainFrame: boolean;
}

/** Only the top-level frame showing our own page may use the bridge. */
export function isTrustedSender(frame: SenderFrame | null | undefined, entry: AppEntry): boolean {
  if (!frame?.isMainFrame) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  if (entry.kind === 'dev') return url.origin === entry.url.origin;
  // Exactly our scheme, host and page: no credentials, no port, no other file of the folder.
  return (
    url.protocol === entry.url.protocol &&
    url.host === entry.url.host &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === entry.url.pathname
  );
}

/**
 * A URL or bare origin of our own page, for permission requests: app://terminal (any path of it;
 * Chromium passes origins without a path), or exactly the dev server's origin.
 */
export function isOwnPage(urlOrOrigin: string, entry: AppEntry): boolean {
  let url: URL;
  try {
    url = new URL(urlOrOrigin);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (entry.kind === 'dev') return url.origin === entry.url.origin;
  return url.protocol === entry.url.protocol && url.host === entry.url.host;
}
