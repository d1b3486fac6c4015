/**
 * Reads one small file of the update folder (a manifest or its signature) over node's http/https:
 * bounded in size (the declared length first, then counted as bytes arrive) and time, following a
 * redirect only within the update address. A missing file is null, not an error: an unsigned
 * manifest is refused by the caller with its own sentence.
 */
import http from 'node:http';
import https from 'node:https';
import type { UpdateOrigin } from './update-origin';
import { UpdateProblem } from './update-problem';

export interface BoundedGet {
  readonly url: URL;
  readonly maxBytes: number;
  /** The refusal when the file is larger than maxBytes. */
  readonly tooLarge: () => UpdateProblem;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

const MAX_REDIRECTS = 3;
export const UPDATER_USER_AGENT = 'ExchangeTerminal-Updater';

function unreachable(origin: UpdateOrigin): UpdateProblem {
  return new UpdateProblem(
    'update.unreachable',
    `The update server at ${origin.base.host} could not be reached; the app tries again at its next check.`,
  );
}

export function getBounded(origin: UpdateOrigin, get: BoundedGet, redirects = 0): Promise<Buffer | null> {
  const { url, maxBytes } = get;
  if (!origin.contains(url)) return Promise.reject(origin.redirectRefusal(url.href));
  return new Promise<Buffer | null>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, value: Buffer | null = null): void => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(value);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      headers: { accept: '*/*', 'cache-control': 'no-cache', 'user-agent': UPDATER_USER_AGENT },
      timeout: get.timeoutMs ?? 30_000,
      ...(get.signal ? { signal: get.signal } : {}),
    });
    request.on('timeout', () => request.destroy(unreachable(origin)));
    request.on('error', (error) => finish(error instanceof UpdateProblem ? error : unreachable(origin)));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        let next: URL | null = null;
        try {
          next = new URL(location, url);
        } catch {
          next = null;
        }
        if (!next || !origin.contains(next)) return finish(origin.redirectRefusal(location));
        if (redirects >= MAX_REDIRECTS) return finish(unreachable(origin));
        getBounded(origin, { ...get, url: next }, redirects + 1).then(
          (value) => finish(null, value),
          (error: Error) => finish(error),
        );
        return;
      }
      if (status === 404 || status === 410) {
        response.resume();
        return finish(null, null);
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return finish(
          new UpdateProblem(
            'update.server',
            `The update server at ${origin.base.host} could not serve ${decodeURIComponent(url.pathname.split('/').pop() ?? '')}; the app tries again at its next check.`,
          ),
        );
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        request.destroy();
        return finish(get.tooLarge());
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) {
          request.destroy();
          finish(get.tooLarge());
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => finish(null, Buffer.concat(chunks)));
      response.on('error', () => finish(unreachable(origin)));
    });
    request.end();
  });
}
