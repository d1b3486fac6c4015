/**
 * The window's page is served from `app://terminal/`, a privileged custom scheme, instead of
 * `file://`: the page then has an origin of its own, so the CSP's `'self'` means this app's
 * built files and nothing else on the disk, and file:// needs no extra privileges (the fuse
 * that grants them is off in electron-builder.yml).
 *
 * Pure: no electron import. index.ts registers the scheme before `ready` and hands
 * `createAppProtocolHandler` to `protocol.handle`; tests call the handler with plain Requests.
 */
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'terminal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * For `protocol.registerSchemesAsPrivileged`, before `ready`. `standard` gives the scheme
 * origins and relative URLs (so `'self'` and `./assets/…` work), `secure` makes it a secure
 * context like https. Nothing else: no fetch, CORS, service workers or streaming.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true },
} as const;

/** Content types of what the renderer build emits; anything else is refused. */
export const APP_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export type AppRequestTarget =
  | { readonly ok: true; readonly filePath: string; readonly contentType: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

function refuse(status: 400 | 403 | 404, reason: string): AppRequestTarget {
  return { ok: false, status, reason };
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Which file under `root` (the built renderer folder) a request URL names, or why it is
 * refused: another scheme or host, credentials or a port, `..` segments (raw or
 * percent-encoded), backslashes or NUL bytes, a path that leaves the folder, a symlink that
 * points out of it, a directory, or a type the build does not emit.
 */
export function resolveAppRequest(rawUrl: string, root: string): AppRequestTarget {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse(400, 'not a URL');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST) return refuse(403, 'another origin');
  if (url.username || url.password || url.port) return refuse(403, 'credentials or port');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return refuse(400, 'malformed percent-encoding');
  }
  if (path.includes('\\') || path.includes('\0')) return refuse(400, 'backslash or NUL in path');
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return refuse(403, 'dot segment');
  const relativePath = segments.length === 0 ? 'index.html' : segments.join('/');
  const contentType = APP_CONTENT_TYPES[extname(relativePath).toLowerCase()];
  if (!contentType) return refuse(404, 'not a type the app serves');

  const rootReal = safeRealpath(resolve(root));
  if (!rootReal) return refuse(404, 'renderer folder missing');
  const candidate = resolve(rootReal, relativePath);
  if (!isInside(candidate, rootReal)) return refuse(403, 'outside the renderer folder');
  const real = safeRealpath(candidate);
  if (!real) return refuse(404, 'no such file');
  // A symlink (at any depth) whose target is elsewhere is refused, even inside the folder:
  // the build emits none, so one is a sign of tampering.
  if (real !== candidate || !isInside(real, rootReal)) return refuse(403, 'symlink');
  if (!statSync(real).isFile()) return refuse(404, 'not a file');
  return { ok: true, filePath: real, contentType };
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export interface AppProtocolOptions {
  /** The built renderer folder (out/renderer). */
  readonly root: string;
  /** The Content-Security-Policy header sent with every response. */
  readonly csp: string;
}

/** Headers on every answer, files and refusals alike. */
function baseHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

/** The `protocol.handle` handler: GET (and HEAD) of files under `root`, with the CSP header. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = baseHeaders(options.csp);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { ...headers, Allow: 'GET, HEAD' } });
    }
    const target = resolveAppRequest(request.url, options.root);
    if (!target.ok) return new Response(null, { status: target.status, headers });
    let body: Buffer;
    try {
      body = await readFile(target.filePath);
    } catch {
      return new Response(null, { status: 404, headers });
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...headers, 'Content-Type': target.contentType, 'Content-Length': String(body.length) },
    });
  };
}
