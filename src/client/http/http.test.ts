import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeAbortError, ExchangeHttpError, ExchangeTimeoutError, ExchangeTransportError } from '../errors';
import { HttpCore, errorCodeOf, normaliseBaseUrl, parseRetryAfter, resolveUrl } from './http';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url!.includes('slow')) return; // never answers
      if (req.url!.includes('fail'))
        return void res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":"ENTRY_PROCESSED","message":"Already processed."}');
      if (req.url!.includes('text')) return void res.writeHead(500).end('Internal enqueue error');
      res
        .writeHead(req.url!.includes('accepted') ? 202 : 200, { 'content-type': 'application/json' })
        .end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('base URL', () => {
  it('appends a trailing slash and resolves paths below the prefix', () => {
    const b = normaliseBaseUrl('https://host/api');
    expect(b.href).toBe('https://host/api/');
    expect(resolveUrl(b, '/orders').href).toBe('https://host/api/orders');
    expect(resolveUrl(b, 'book/1/2?depth=5').href).toBe('https://host/api/book/1/2?depth=5');
    expect(resolveUrl(normaliseBaseUrl('http://localhost:3000/'), 'health').href).toBe('http://localhost:3000/health');
    // Nothing a value can put in a path leaves the base: another host, "..", encoded dots or slashes.
    for (const escape of [
      'https://evil.example/x',
      'http:evil.example',
      '../admin',
      'book/../../admin',
      'asset/%2e%2e/%2e%2e/x',
      'asset/1%2F..%2Fx',
      'a\\..\\..\\x',
      'balance/%5c..',
    ]) {
      expect(() => resolveUrl(b, escape), escape).toThrow(/would leave the exchange's base URL/);
    }
    // Leading slashes are dropped, so a protocol-relative path stays below the base.
    expect(resolveUrl(b, '//evil.example/x').href).toBe('https://host/api/evil.example/x');
  });
});

describe('error codes (docs/protocol/choices.md#http-errors-and-rate-limits)', () => {
  it("prefers a SCREAMING_CASE token; our sentence for a known code, the exchange's words quoted", () => {
    expect(errorCodeOf(401, { error: 'ORDER_HASH_MISMATCH', message: 'Digest differs.' })).toEqual({
      code: 'ORDER_HASH_MISMATCH',
      sentence:
        'The exchange computed a different digest for this request than the one signed. The exchange said: "Digest differs."',
    });
    expect(errorCodeOf(400, { error: 'Invalid auth parameters' })).toEqual({
      code: 'Invalid auth parameters',
      sentence:
        'The exchange refused the authentication fields of the request. The exchange said: "Invalid auth parameters".',
    });
    expect(errorCodeOf(500, 'Internal enqueue error').code).toBe('Internal enqueue error');
    expect(errorCodeOf(502, '')).toEqual({ code: 'HTTP_502', sentence: 'The exchange failed (HTTP 502).' });
    expect(errorCodeOf(404, { error: 'boom', code: 'NOT_FOUND' })).toEqual({
      code: 'NOT_FOUND',
      sentence: 'The exchange refused the request (NOT_FOUND). The exchange said: "boom".',
    });
    expect(errorCodeOf(400, { error: 'SOMETHING_NEW' }).sentence).toBe(
      'The exchange refused the request (SOMETHING_NEW).',
    );
  });

  it("never lets the exchange's text pass as ours: cleaned, cut and bounded as a code", () => {
    const long = 'x'.repeat(5000);
    const r = errorCodeOf(400, { message: `${long}\u202e` });
    expect(r.code).toBe('HTTP_400');
    expect(r.sentence).toBe(`The exchange refused the request (HTTP 400). The exchange said: "${'x'.repeat(200)}…"`);
    expect(errorCodeOf(400, { error: `${'A_'.repeat(100)}B` }).code).toBe('HTTP_400');
  });

  it("gives a bare 429 the RATE_LIMITED code and a sentence, keeping the exchange's own quoted", () => {
    expect(errorCodeOf(429, '')).toEqual({
      code: 'RATE_LIMITED',
      sentence: 'The exchange is limiting how often this can be done; try again in a moment.',
    });
    expect(errorCodeOf(429, 'Too many requests')).toEqual({
      code: 'RATE_LIMITED',
      sentence:
        'The exchange is limiting how often this can be done; try again in a moment. The exchange said: "Too many requests".',
    });
    expect(errorCodeOf(429, { error: 'SLOW_DOWN', message: 'Easy.' })).toEqual({
      code: 'SLOW_DOWN',
      sentence: 'The exchange refused the request (SLOW_DOWN). The exchange said: "Easy."',
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:59:00 GMT', now)).toBe(0); // already past
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('HttpCore', () => {
  it('accepts any 2xx and sends API key and HMAC of the exact body', async () => {
    const core = new HttpCore({ baseUrl: `${base}/api`, apiKey: 'k1', apiSecret: 's3cret' });
    const body = '{"order":{"typ":"2"}}';
    const r = await core.post('/accepted', body);
    expect(r).toEqual({ status: 202, body: { ok: true } });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/api/accepted');
    expect(last.headers['x-api-key']).toBe('k1');
    expect(last.headers['x-signature']).toBe(createHmac('sha256', 's3cret').update(body).digest('hex'));
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.body).toBe(body);
    await core.get('ok');
    expect(seen.at(-1)!.headers['x-signature']).toBeUndefined();
    expect(seen.at(-1)!.headers['x-api-key']).toBe('k1');
    core.close();
  });

  it('turns non-2xx into coded errors carrying status and body', async () => {
    const core = new HttpCore({ baseUrl: base });
    const e = await core.post('fail', '{}').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExchangeHttpError);
    expect(e).toMatchObject({
      status: 404,
      code: 'ENTRY_PROCESSED',
      sentence: 'The exchange has already processed this exact request. The exchange said: "Already processed."',
      body: { error: 'ENTRY_PROCESSED' },
    });
    await expect(core.get('text')).rejects.toMatchObject({ status: 500, body: 'Internal enqueue error' });
    core.close();
  });

  it('times out (default overridable per call) and honours the caller signal', async () => {
    const core = new HttpCore({ baseUrl: base, timeoutMs: 60_000 });
    await expect(core.get('slow', { timeoutMs: 50 })).rejects.toBeInstanceOf(ExchangeTimeoutError);
    const ac = new AbortController();
    const p = core.get('slow', { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(ExchangeAbortError);
    await expect(core.get('ok', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ExchangeAbortError);
    core.close();
  });

  it('reports transport failures', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const core = new HttpCore({ baseUrl: `http://127.0.0.1:${port}` });
    await expect(core.get('x')).rejects.toBeInstanceOf(ExchangeTransportError);
    core.close();
  });

  it('reports response timing for the clock', async () => {
    const timings: number[] = [];
    const core = new HttpCore({ baseUrl: base, onResponse: (t) => timings.push(t.receivedAt - t.sentAt) });
    await core.get('ok');
    expect(timings).toHaveLength(1);
    expect(timings[0]).toBeGreaterThanOrEqual(0);
    core.close();
  });
});
