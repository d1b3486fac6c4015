import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { isTrustedSender, resolveAppEntry, type AppEntry } from './app-entry';
import { developmentCsp, META_CSP, PRODUCTION_CSP, withCspHeader } from './csp';
import { mainWindowOptions } from './options';
import {
  denyPermissionCheck,
  denyPermissionRequest,
  denyWindowOpen,
  hardenSession,
  hardenWebContents,
} from './policies';

describe('main window options', () => {
  const options = mainWindowOptions({ preloadPath: '/app/out/preload/index.cjs', isPackaged: true });
  const web = options.webPreferences;

  it('locks the renderer down', () => {
    expect(web).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
  });

  it('ships without devtools when packaged and keeps them in development', () => {
    expect(web?.devTools).toBe(false);
    const dev = mainWindowOptions({ preloadPath: '/p.cjs', isPackaged: false });
    expect(dev.webPreferences?.devTools).toBe(true);
    expect(dev.webPreferences?.sandbox).toBe(true);
  });

  it('waits for the first paint before showing', () => {
    expect(options.show).toBe(false);
  });
});

describe('content security policy', () => {
  it('is exactly the agreed strict policy with no network access', () => {
    expect(PRODUCTION_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(PRODUCTION_CSP).not.toMatch(/unsafe-(inline|eval)|https?:|ws:|\*/);
  });

  it('leaves header-only directives out of the meta tag', () => {
    expect(META_CSP).not.toContain('frame-ancestors');
    expect(PRODUCTION_CSP.startsWith(META_CSP)).toBe(true);
  });

  it('relaxes only what the dev server needs, for its own origin', () => {
    const dev = developmentCsp('http://localhost:5173/');
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
    expect(dev).not.toContain('unsafe-eval');
    expect(dev).toContain("object-src 'none'");
  });

  it('replaces any CSP header the response already had, whatever its case', () => {
    const headers = withCspHeader({ 'content-security-policy': ['default-src *'], 'Content-Type': 'text/html' }, 'x');
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': ['x'] });
    expect(withCspHeader(undefined, 'y')).toEqual({ 'Content-Security-Policy': ['y'] });
  });
});

/** A stand-in WebContents that records listeners so the test can fire events. */
function fakeContents() {
  const listeners = new Map<string, (event: { preventDefault(): void }) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on(name: string, listener: (event: { preventDefault(): void }) => void) {
      listeners.set(name, listener);
      return contents;
    },
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      openHandler = handler;
    },
  };
  const fire = (name: string): boolean => {
    const preventDefault = vi.fn();
    const listener = listeners.get(name);
    if (!listener) throw new Error(`no listener for ${name}`);
    listener({ preventDefault });
    return preventDefault.mock.calls.length === 1;
  };
  return { contents: contents as unknown as WebContents, fire, open: (url: string) => openHandler?.({ url }) };
}

describe('navigation and window policies', () => {
  it('refuses every navigation, redirect, webview and window.open', () => {
    const { contents, fire, open } = fakeContents();
    hardenWebContents(contents);
    expect(fire('will-navigate')).toBe(true);
    expect(fire('will-frame-navigate')).toBe(true);
    expect(fire('will-redirect')).toBe(true);
    expect(fire('will-attach-webview')).toBe(true);
    expect(open('https://example.com/phish')).toEqual({ action: 'deny' });
    expect(denyWindowOpen()).toEqual({ action: 'deny' });
  });

  it('denies every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      denyPermissionRequest(null, permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    }
    expect(denyPermissionCheck()).toBe(false);
  });

  it('installs the permission handlers and the CSP header on the session', () => {
    let onHeaders: ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: (listener: typeof onHeaders) => (onHeaders = listener) },
    };
    hardenSession(session as unknown as Session, PRODUCTION_CSP);
    expect(session.setPermissionRequestHandler).toHaveBeenCalledWith(denyPermissionRequest);
    expect(session.setPermissionCheckHandler).toHaveBeenCalledWith(denyPermissionCheck);
    const callback = vi.fn();
    onHeaders?.({ responseHeaders: { 'Content-Security-Policy': ["default-src *"] } }, callback);
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { 'Content-Security-Policy': [PRODUCTION_CSP] } });
  });
});

describe('app entry and sender trust', () => {
  const rendererIndexPath = '/opt/Exchange Terminal/resources/app/out/renderer/index.html';
  const fileEntry = resolveAppEntry({ rendererIndexPath, devServerUrl: undefined, isPackaged: true });

  it('loads the built page when packaged, even if a dev server URL is set', () => {
    const entry = resolveAppEntry({ rendererIndexPath, devServerUrl: 'http://localhost:5173', isPackaged: true });
    expect(entry.kind).toBe('file');
    expect(entry.url.href).toBe('file:///opt/Exchange%20Terminal/resources/app/out/renderer/index.html');
  });

  it('uses the dev server only when unpackaged and on loopback http', () => {
    expect(resolveAppEntry({ rendererIndexPath, devServerUrl: 'http://localhost:5173/', isPackaged: false }).kind).toBe('dev');
    expect(resolveAppEntry({ rendererIndexPath, devServerUrl: 'http://evil.example:5173/', isPackaged: false }).kind).toBe('file');
  });

  it('trusts only the top-level frame showing our page', () => {
    const ok = (url: string, isMainFrame = true): boolean => isTrustedSender({ url, isMainFrame }, fileEntry);
    expect(ok('file:///opt/Exchange%20Terminal/resources/app/out/renderer/index.html')).toBe(true);
    expect(ok('file:///opt/Exchange%20Terminal/resources/app/out/renderer/index.html#/trade')).toBe(true);
    expect(ok('file:///opt/Exchange%20Terminal/resources/app/out/renderer/index.html', false)).toBe(false);
    expect(ok('file:///tmp/index.html')).toBe(false);
    expect(ok('file://host/opt/Exchange%20Terminal/resources/app/out/renderer/index.html')).toBe(false);
    expect(ok('https://example.com/index.html')).toBe(false);
    expect(ok('not a url')).toBe(false);
    expect(isTrustedSender(null, fileEntry)).toBe(false);
  });

  it('trusts the dev server origin in development only', () => {
    const dev: AppEntry = { kind: 'dev', url: new URL('http://localhost:5173/') };
    expect(isTrustedSender({ url: 'http://localhost:5173/', isMainFrame: true }, dev)).toBe(true);
    expect(isTrustedSender({ url: 'http://localhost:5174/', isMainFrame: true }, dev)).toBe(false);
  });
});
