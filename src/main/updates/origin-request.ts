/**
 * One GET to the update address over node's http/https, following a redirect only within that
 * address (at most three), with an idle timeout. Both the manifest reader and the download executor
 * go through it, so the rule "nothing outside the update address" is written once. The caller reads
 * the final response and settles the request through `finish`; a network failure, a timeout or too
 * many redirects settle it with the caller's own problem.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import type { UpdateOrigin } from './update-origin';
import { UpdateProblem } from './update-problem';

export const UPDATER_USER_AGENT = 'ExchangeTerminal-Updater';
const MAX_REDIRECTS = 3;

export interface OriginGet {
  readonly url: URL;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The refusal for a network failure, a timeout or too many redirects. */
  readonly failed: () => UpdateProblem;
}

/** Settles the request once; later calls are ignored. */
export type Finish<T> = (error: Error | null, value?: T) => void;

/** The final (non-redirect) response, for the caller to read and settle. */
export type ResponseReader<T> = (response: IncomingMessage, request: ClientRequest, finish: Finish<T>) => void;

export function getWithinOrigin<T>(
  origin: UpdateOrigin,
  get: OriginGet,
  read: ResponseReader<T>,
  redirects = 0,
): Promise<T> {
  const { url } = get;
  if (!origin.contains(url)) return Promise.reject(origin.redirectRefusal(url.href));
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish: Finish<T> = (error, value) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(value as T);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      headers: { accept: '*/*', 'cache-control': 'no-cache', 'user-agent': UPDATER_USER_AGENT },
      timeout: get.timeoutMs,
      ...(get.signal ? { signal: get.signal } : {}),
    });
    request.on('timeout', () => request.destroy(get.failed()));
    request.on('error', (error) => finish(error instanceof UpdateProblem ? error : get.failed()));
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
        if (redirects >= MAX_REDIRECTS) return finish(get.failed());
        getWithinOrigin(origin, { ...get, url: next }, read, redirects + 1).then(
          (value) => finish(null, value),
          (error: Error) => finish(error),
        );
        return;
      }
      read(response, request, finish);
    });
    request.end();
  });
}

/** A declared Content-Length above the limit (absent or unparsable: not declared). */
export function declaresMoreThan(response: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(response.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}
