import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { devToolsAllowed, isTrustedSender, resolveAppEntry, type AppEntry } from './app-entry';
import { appMenuTemplate } from './app-menu';
import { developmentCsp, META_CSP, PRODUCTION_CSP, withCspHeader } from './csp';
import { mainWindowOptions } from './options';
import {
  NO_MEDIA,
  denyWindowOpen,
  hardenSession,
  hardenWebContents,
  permissionCheckHandler,
  permissionRequestHandler,
} from './policies';

describe('main window options', () => {
  const options = mainWindowOptions({ preloadPath: '/app/out/preload/index.cjs', devTools: false });
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

  it('has devtools only with the dev server: never packaged, never under `npm start`', () => {
    expect(web?.devTools).toBe(false);
    const rendererDir = '/repo/out/renderer';
    const packaged = resolveAppEntry({ rendererDir, devServerUrl: 'http://localhost:5173/', isPackaged: true });
    const npmStart = resolveAppEntry({ rendererDir, devServerUrl: undefined, isPackaged: false });
    const devServer = resolveAppEntry({ rendererDir, devServerUrl: 'http://localhost:5173/', isPackaged: false });
    expect([packaged, npmStart, devServer].map(devToolsAllowed)).toEqual([false, false, true]);
    const dev = mainWindowOptions({ preloadPath: '/p.cjs', devTools: devToolsAllowed(devServer) });
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

  it('denies every permission request and check while no camera scan is open', () => {
    // The camera's one exception is tested in permissions.test.ts; with no scan open nothing is granted.
    const open = { cameraWanted: () => false, isOwnPage: () => true };
    for (const policy of [NO_MEDIA, open]) {
      for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
        const callback = vi.fn();
        permissionRequestHandler(policy)(null, permission, callback, {
          requestingUrl: 'app://terminal/index.html',
          isMainFrame: true,
          mediaTypes: ['video'],
        });
        expect(callback).toHaveBeenCalledExactlyOnceWith(false);
        expect(
          permissionCheckHandler(policy)(null, permission, 'app://terminal', { isMainFrame: true, mediaType: 'video' }),
        ).toBe(false);
      }
    }
  });

  it('installs the permission handlers and the CSP header on the session', () => {
    let onHeaders:
      ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: (listener: typeof onHeaders) => (onHeaders = listener) },
    };
    hardenSession(session as unknown as Session, PRODUCTION_CSP);
    expect(session.setPermissionRequestHandler).toHaveBeenCalledTimes(1);
    expect(session.setPermissionCheckHandler).toHaveBeenCalledTimes(1);
    // Without a media policy (before the core runs) the installed handlers grant nothing, the camera included.
    const request = session.setPermissionRequestHandler.mock.calls[0]![0] as ReturnType<
      typeof permissionRequestHandler
    >;
    const check = session.setPermissionCheckHandler.mock.calls[0]![0] as ReturnType<typeof permissionCheckHandler>;
    const granted = vi.fn();
    request(null, 'media', granted, {
      requestingUrl: 'app://terminal/index.html',
      isMainFrame: true,
      mediaTypes: ['video'],
    });
    expect(granted).toHaveBeenCalledExactlyOnceWith(false);
    expect(check(null, 'media', 'app://terminal', { isMainFrame: true, mediaType: 'video' })).toBe(false);
    const callback = vi.fn();
    onHeaders?.({ responseHeaders: { 'Content-Security-Policy': ['default-src *'] } }, callback);
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { 'Content-Security-Policy': [PRODUCTION_CSP] } });
  });
});

describe('app entry and sender trust', () => {
  const rendererDir = '/opt/Exchange Terminal/resources/app.asar/out/renderer';
  const appEntry = resolveAppEntry({ rendererDir, devServerUrl: undefined, isPackaged: true });

  it('serves the built page from app://terminal when packaged, even if a dev server URL is set', () => {
    const entry = resolveAppEntry({ rendererDir, devServerUrl: 'http://localhost:5173', isPackaged: true });
    expect(entry).toEqual({ kind: 'app', rendererDir, url: new URL('app://terminal/index.html') });
    expect(appEntry.url.href).toBe('app://terminal/index.html');
  });

  it('serves app://terminal under `npm start` too (unpackaged, no dev server)', () => {
    expect(resolveAppEntry({ rendererDir, devServerUrl: undefined, isPackaged: false }).url.href).toBe(
      'app://terminal/index.html',
    );
    expect(resolveAppEntry({ rendererDir, devServerUrl: '', isPackaged: false }).kind).toBe('app');
  });

  it('uses the dev server only when unpackaged and on loopback http', () => {
    expect(resolveAppEntry({ rendererDir, devServerUrl: 'http://localhost:5173/', isPackaged: false }).kind).toBe(
      'dev',
    );
    expect(resolveAppEntry({ rendererDir, devServerUrl: 'http://127.0.0.1:5173/', isPackaged: false }).kind).toBe(
      'dev',
    );
    expect(resolveAppEntry({ rendererDir, devServerUrl: 'http://evil.example:5173/', isPackaged: false }).kind).toBe(
      'app',
    );
    expect(resolveAppEntry({ rendererDir, devServerUrl: 'https://localhost:5173/', isPackaged: false }).kind).toBe(
      'app',
    );
    expect(resolveAppEntry({ rendererDir, devServerUrl: 'file:///tmp/index.html', isPackaged: false }).kind).toBe(
      'app',
    );
  });

  it('trusts only the top-level frame showing our page on app://terminal', () => {
    const ok = (url: string, isMainFrame = true): boolean => isTrustedSender({ url, isMainFrame }, appEntry);
    expect(ok('app://terminal/index.html')).toBe(true);
    expect(ok('app://terminal/index.html#/trade')).toBe(true);
    expect(ok('app://terminal/index.html', false)).toBe(false);
    // Another page of the folder, another host, credentials, a port, or the old file:// page.
    expect(ok('app://terminal/assets/evil.html')).toBe(false);
    expect(ok('app://evil/index.html')).toBe(false);
    expect(ok('app://user:pw@terminal/index.html')).toBe(false);
    expect(ok('app://terminal:8080/index.html')).toBe(false);
    expect(ok('file:///opt/Exchange%20Terminal/resources/app.asar/out/renderer/index.html')).toBe(false);
    expect(ok('file:///tmp/index.html')).toBe(false);
    expect(ok('https://terminal/index.html')).toBe(false);
    expect(ok('not a url')).toBe(false);
    expect(isTrustedSender(null, appEntry)).toBe(false);
  });

  it('trusts the dev server origin in development only', () => {
    const dev: AppEntry = { kind: 'dev', url: new URL('http://localhost:5173/') };
    expect(isTrustedSender({ url: 'http://localhost:5173/', isMainFrame: true }, dev)).toBe(true);
    expect(isTrustedSender({ url: 'http://localhost:5174/', isMainFrame: true }, dev)).toBe(false);
    expect(isTrustedSender({ url: 'app://terminal/index.html', isMainFrame: true }, dev)).toBe(false);
  });
});

describe('application menu', () => {
  type Item = { role?: string; label?: string; submenu?: unknown };
  const roles = (items: readonly Item[]): string[] =>
    items.flatMap((item) => [
      ...(item.role ? [item.role] : []),
      ...(Array.isArray(item.submenu) ? roles(item.submenu as Item[]) : []),
    ]);

  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    it(`on ${platform}: quit, the edit commands text fields need, the window menu, and nothing to debug with`, () => {
      const menu = appMenuTemplate(platform, 'Exchange Terminal') as Item[];
      const all = roles(menu);
      for (const role of ['quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']) expect(all).toContain(role);
      for (const role of ['toggleDevTools', 'reload', 'forceReload', 'viewMenu']) expect(all).not.toContain(role);
      expect(menu.map((m) => m.label ?? m.role)).toEqual(
        platform === 'darwin' ? ['Exchange Terminal', 'Edit', 'windowMenu'] : ['File', 'Edit', 'Window'],
      );
    });
  }
});
