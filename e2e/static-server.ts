/**
 * A tiny static server for the built renderer, on 127.0.0.1 and an ephemeral port, sending
 * the same CSP header main sends. Started and stopped by the tests themselves.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { APP_CONTENT_TYPES } from '../src/main/window/app-protocol';
import { PRODUCTION_CSP } from '../src/main/window/csp';

// The types app:// serves, plus source maps (which only DevTools fetch).
const CONTENT_TYPES: Readonly<Record<string, string>> = { ...APP_CONTENT_TYPES, '.map': 'application/json' };

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveDirectory(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = resolve(join(base, pathname === '/' ? 'index.html' : pathname));
    const headers = { 'Content-Security-Policy': PRODUCTION_CSP, 'X-Content-Type-Options': 'nosniff' };
    if (request.method !== 'GET' || (file !== base && !file.startsWith(base + sep))) {
      response.writeHead(404, headers).end();
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) {
          response.writeHead(404, headers).end();
          return;
        }
        response.writeHead(200, {
          ...headers,
          'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        });
        createReadStream(file).pipe(response);
      },
      () => response.writeHead(404, headers).end(),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
