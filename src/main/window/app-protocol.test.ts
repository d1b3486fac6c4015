import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, createAppProtocolHandler, resolveAppRequest } from './app-protocol';
import { PRODUCTION_CSP } from './csp';

// A renderer folder like out/renderer, a secret next to it, and symlinks pointing out and in.
const base = mkdtempSync(join(tmpdir(), 'app-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
writeFileSync(join(root, 'favicon.svg'), '<svg/>');
writeFileSync(join(root, 'notes.txt'), 'not a type the build emits');
writeFileSync(join(base, 'secret.json'), '{"privateKey":"0x…"}');
mkdirSync(join(base, 'renderer-evil'));
writeFileSync(join(base, 'renderer-evil', 'x.js'), 'evil');
symlinkSync(join(base, 'secret.json'), join(root, 'assets', 'link-out.json'));
symlinkSync(join(root, 'index.html'), join(root, 'assets', 'link-in.html'));
symlinkSync(base, join(root, 'up'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const handler = createAppProtocolHandler({ root, csp: PRODUCTION_CSP });
const get = (url: string, method = 'GET'): Promise<Response> => handler(new Request(url, { method }));

describe('app:// scheme', () => {
  it('is registered standard and secure, nothing more', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true } });
    expect(APP_INDEX_URL).toBe('app://terminal/index.html');
  });

  it('serves the built files with their type, the CSP header and nosniff', async () => {
    for (const [url, type, body] of [
      ['app://terminal/index.html', 'text/html; charset=utf-8', '<!doctype html><title>t</title>'],
      ['app://terminal/', 'text/html; charset=utf-8', '<!doctype html><title>t</title>'],
      ['app://terminal/assets/index-abc.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
      ['app://terminal/assets/index-abc.css?v=1#x', 'text/css; charset=utf-8', 'body{}'],
      ['app://terminal/favicon.svg', 'image/svg+xml', '<svg/>'],
    ] as const) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-security-policy')).toBe(PRODUCTION_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toBe(body);
    }
  });

  it("keeps the CSP's 'self' to this scheme: no other scheme or host is served", () => {
    for (const url of [
      'file:///etc/passwd',
      'https://terminal/index.html',
      'app://evil/index.html',
      'app://terminal.evil/index.html',
      'app://user:pw@terminal/index.html',
      'app://terminal:8080/index.html',
      'not a url',
    ]) {
      const target = resolveAppRequest(url, root);
      expect(target.ok, url).toBe(false);
    }
  });

  it('refuses path traversal, raw or percent-encoded, backslashes and NUL', async () => {
    for (const url of [
      'app://terminal/../secret.json',
      'app://terminal/assets/../../secret.json',
      'app://terminal/%2e%2e/secret.json',
      'app://terminal/..%2fsecret.json',
      'app://terminal/assets/..%2F..%2Fsecret.json',
      'app://terminal/%2E%2E%2Fsecret.json',
      'app://terminal/..%5csecret.json',
      'app://terminal/assets\\..\\..\\secret.json',
      'app://terminal/index.html%00.js',
      'app://terminal/%E0%A4%A.js',
      `app://terminal/${encodeURIComponent(join(base, 'secret.json'))}`,
      'app://terminal/../renderer-evil/x.js',
      'app://terminal/%2e%2e/renderer-evil/x.js',
    ]) {
      const response = await get(url);
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text(), url).not.toContain('privateKey');
      expect(await get(url).then((r) => r.text())).not.toBe('evil');
    }
  });

  it('refuses symlinks, also those that stay inside the folder, directories and unknown types', async () => {
    expect(resolveAppRequest('app://terminal/assets/link-out.json', root)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppRequest('app://terminal/assets/link-in.html', root)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppRequest('app://terminal/up/secret.json', root)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppRequest('app://terminal/assets', root)).toMatchObject({ ok: false });
    expect(resolveAppRequest('app://terminal/notes.txt', root)).toMatchObject({ ok: false, status: 404 });
    expect(resolveAppRequest('app://terminal/missing.js', root)).toMatchObject({ ok: false, status: 404 });
    expect((await get('app://terminal/assets/link-out.json')).status).toBe(403);
  });

  it('answers GET and HEAD only, and refusals carry the CSP header too', async () => {
    const post = await get('app://terminal/index.html', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('content-security-policy')).toBe(PRODUCTION_CSP);
    const head = await get('app://terminal/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const refused = await get('app://terminal/../secret.json');
    expect(refused.headers.get('content-security-policy')).toBe(PRODUCTION_CSP);
  });

  it('serves nothing when the renderer folder is missing', () => {
    expect(resolveAppRequest('app://terminal/index.html', join(base, 'nope'))).toMatchObject({
      ok: false,
      status: 404,
    });
  });
});
