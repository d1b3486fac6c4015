// HTTP core of the exchange client (docs/protocol/endpoints.md#base-url, #request-bodies): base-URL resolution, JSON,
// timeouts, caller abort, optional API key and HMAC body signature, keep-alive sockets. node:http keeps the path from a
// call to bytes on the socket short (see bench/order-latency.bench.ts).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { readBoundedBody } from './bounded-body';
import {
  ExchangeAbortError,
  ExchangeHttpError,
  ExchangeResponseTooLargeError,
  ExchangeTimeoutError,
  ExchangeTransportError,
  ExchangeValidationError,
} from '../errors';
import { cleanExchangeText, refusalSentence } from '../exchange-words';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The most of one response body main will hold (the exchange is untrusted). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const MAX_CACHED_URLS = 256;

export interface HttpCoreOptions {
  /** API base, with or without a trailing slash and path prefix (e.g. `https://host/api`). */
  baseUrl: string;
  /**
   * Default per-request timeout, covering the whole response body. Default 30 s
   * (docs/protocol/trading-client.md#reference-defaults).
   */
  timeoutMs?: number;
  /** Sent as X-API-KEY on every request when set (docs/protocol/endpoints.md#request-bodies). */
  apiKey?: string;
  /**
   * When set, POST bodies carry X-SIGNATURE = hex(HMAC-SHA256(secret, raw body))
   * (docs/protocol/endpoints.md#request-bodies).
   */
  apiSecret?: string;
  /** Called for every answered request (clock offset estimation). */
  onResponse?: (info: ResponseTiming) => void;
  /** Largest response body read, declared or counted as it arrives. Default 4 MiB. */
  maxResponseBytes?: number;
}

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ResponseTiming {
  /** Local ms when the request was issued / the response head arrived. */
  sentAt: number;
  receivedAt: number;
  /** The HTTP Date header, if any. */
  date: string | undefined;
  /** The parsed JSON body (may hold `ts` fields). */
  body: unknown;
}

export interface HttpResponse {
  status: number;
  body: unknown;
}

/** `base` normalised to end in "/" (docs/protocol/endpoints.md#base-url) so relative paths append to any prefix. */
export function normaliseBaseUrl(base: string): URL {
  const u = new URL(base);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  u.search = '';
  u.hash = '';
  return u;
}

/**
 * Resolve `path` ("/orders", "orders", "book/1/2?depth=5") below the base, never above it and never
 * on another host: a path that would leave the base (a scheme, "..", an encoded dot or slash) is
 * refused, so no value that reaches a path can make main contact a URL the user did not confirm.
 */
export function resolveUrl(base: URL, path: string): URL {
  const url = new URL(path.replace(/^\/+/, ''), base);
  const pathOnly = path.split('?')[0] ?? '';
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || /%2[ef]|%5c|\\/i.test(pathOnly)) {
    throw new ExchangeValidationError(
      'INVALID_PATH',
      "That request would leave the exchange's base URL, so it was not sent.",
    );
  }
  return url;
}

const SCREAMING = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{3,}$/;
/** A code longer than this is not a code we act on (the server controls it). */
const MAX_CODE_CHARS = 64;

/**
 * docs/protocol/choices.md#http-errors-and-rate-limits: act on the status plus any SCREAMING_CASE token in
 * error/code/message. The sentence is ours for a known code, with the exchange's own words quoted and labelled as its
 * own.
 */
export function errorCodeOf(status: number, body: unknown): { code: string; sentence: string } {
  const fields: string[] = [];
  if (typeof body === 'string' && body.trim() !== '') fields.push(body.trim());
  if (typeof body === 'object' && body !== null) {
    for (const k of ['error', 'code', 'message', 'status', 'reason'] as const) {
      const v = (body as Record<string, unknown>)[k];
      if (typeof v === 'string' && v.trim() !== '') fields.push(v.trim());
    }
  }
  const token = fields.find((f) => f.length <= MAX_CODE_CHARS && SCREAMING.test(f));
  const serverText = fields.find((f) => !SCREAMING.test(f));
  // A documented sentence-code ("Invalid auth parameters") stays the code; a bare 429 still gets one
  // code the retry logic and UI know.
  const sentenceCode =
    serverText !== undefined && serverText.length <= MAX_CODE_CHARS ? cleanExchangeText(serverText) : undefined;
  const code = token ?? (status === 429 ? 'RATE_LIMITED' : sentenceCode || `HTTP_${status}`);
  return { code, sentence: refusalSentence({ token, serverText, status }) };
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110, section 10.2.3), in ms from `nowMs`; else undefined. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Only a written date ("Sun, 22 Nov 2026 10:00:05 GMT"): V8 also reads "-1" as a year.
  const at = /[A-Za-z]/.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export class HttpCore {
  readonly baseUrl: URL;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly #apiKey: string | undefined;
  readonly #apiSecret: string | undefined;
  readonly #onResponse: ((info: ResponseTiming) => void) | undefined;
  readonly #agent: http.Agent;
  readonly #request: typeof http.request;
  /** Paths already resolved and checked: an order's POST skips URL parsing and the escape checks. */
  readonly #urls = new Map<string, URL>();

  constructor(opts: HttpCoreOptions) {
    this.baseUrl = normaliseBaseUrl(opts.baseUrl);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.#apiKey = opts.apiKey;
    this.#apiSecret = opts.apiSecret;
    this.#onResponse = opts.onResponse;
    const secure = this.baseUrl.protocol === 'https:';
    this.#agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.#request = secure ? https.request : http.request;
  }

  get(path: string, opts?: CallOptions): Promise<HttpResponse> {
    return this.send('GET', path, undefined, opts);
  }

  /** POST `bodyText` exactly as given (the HMAC covers these bytes). */
  post(path: string, bodyText: string, opts?: CallOptions): Promise<HttpResponse> {
    return this.send('POST', path, bodyText, opts);
  }

  /**
   * Send one request. Resolves with any 2xx; rejects with ExchangeHttpError (carrying the body)
   * for other statuses, or a transport / timeout / abort error.
   */
  send(
    method: 'GET' | 'POST',
    path: string,
    bodyText: string | undefined,
    opts: CallOptions = {},
  ): Promise<HttpResponse> {
    const url = this.#resolve(path);
    const shownPath = url.pathname;
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#apiKey !== undefined) headers['x-api-key'] = this.#apiKey;
    if (bodyText !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(bodyText));
      if (this.#apiSecret !== undefined)
        headers['x-signature'] = createHmac('sha256', this.#apiSecret).update(bodyText).digest('hex');
    }
    const signal = opts.signal;
    return new Promise<HttpResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ExchangeAbortError(method, shownPath, signal.reason));
        return;
      }
      let settled = false;
      const sentAt = Date.now();
      const req = this.#request(url, { method, headers, agent: this.#agent });
      const finish = (err: Error | undefined, res?: HttpResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) {
          req.destroy();
          reject(err);
        } else resolve(res!);
      };
      const onAbort = () => finish(new ExchangeAbortError(method, shownPath, signal?.reason));
      const timer = setTimeout(() => finish(new ExchangeTimeoutError(method, shownPath, timeoutMs)), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => finish(new ExchangeTransportError(method, shownPath, e)));
      req.on('response', (res) => {
        const receivedAt = Date.now();
        const limit = this.maxResponseBytes;
        res.on('error', (e) => finish(new ExchangeTransportError(method, shownPath, e)));
        readBoundedBody(res, limit, {
          settled: () => settled,
          tooLarge: () => finish(new ExchangeResponseTooLargeError(method, shownPath, limit)),
          body: (bytes) => {
            const text = bytes.toString('utf8');
            let body: unknown = text;
            if (text !== '') {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            const status = res.statusCode ?? 0;
            this.#onResponse?.({ sentAt, receivedAt, date: res.headers.date, body });
            if (status >= 200 && status < 300) finish(undefined, { status, body });
            else {
              const { code, sentence } = errorCodeOf(status, body);
              const header: string | string[] | undefined = res.headers['retry-after'];
              const retryAfterMs =
                status === 429 || status === 503
                  ? parseRetryAfter(typeof header === 'string' ? header : header?.[0], receivedAt)
                  : undefined;
              finish(new ExchangeHttpError(status, code, sentence, body, method, shownPath, retryAfterMs));
            }
          },
        });
      });
      req.end(bodyText);
    });
  }

  #resolve(path: string): URL {
    let url = this.#urls.get(path);
    if (url === undefined) {
      url = resolveUrl(this.baseUrl, path);
      // Paths with ids and queries vary without end: keep the cache bounded.
      if (this.#urls.size >= MAX_CACHED_URLS) this.#urls.clear();
      this.#urls.set(path, url);
    }
    return url;
  }

  /** Close idle keep-alive sockets. */
  close(): void {
    this.#agent.destroy();
  }
}
