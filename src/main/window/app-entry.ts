/**
 * Where the window's page comes from, and which frames count as "our page" for the
 * bridge's sender check. Pure: no electron import.
 */

export type AppEntry =
  | { readonly kind: 'file'; readonly filePath: string; readonly url: URL }
  | { readonly kind: 'dev'; readonly url: URL };

export interface AppEntryInput {
  /** Absolute path of the built out/renderer/index.html. */
  readonly rendererIndexPath: string;
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
  return { kind: 'file', filePath: input.rendererIndexPath, url: fileUrl(input.rendererIndexPath) };
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

function fileUrl(path: string): URL {
  const normalized = path.replace(/\\/g, '/');
  return new URL(`file://${normalized.startsWith('/') ? '' : '/'}${encodeURI(normalized)}`);
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
  return url.protocol === 'file:' && url.host === '' && url.pathname === entry.url.pathname;
}
