/**
 * The BUILT main bundle boots: out/main/index.js is loaded by plain Node (ESM, as Electron's own
 * Node loads it) with an Electron API double in place of `electron` (boot-driver.mjs), and what
 * the app did is checked here: the window's webPreferences, the session's handlers, the guards,
 * the CSP, the menu, the single-instance lock, the app:// scheme, every bridge channel, and one
 * read and one trade call through the registered IPC handlers from our page and from others.
 *
 * Needs `electron-vite build` first: runs in the `built` step of `npm test`, after `build`.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_ERROR, bridgeMethodNames, invokeChannel } from '../../src/shared/bridge';
import { appMenuTemplate } from '../../src/main/window/app-menu';
import { boot, mustBoot, type BootReport } from './boot-run';
import { developmentCsp, PRODUCTION_CSP } from '../../src/main/window/csp';

// What Electron loads: package.json's "main".
const MAIN = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { main: string }).main;
const BUNDLE = resolve(MAIN);
const SCRATCH = resolve('test-results/boot');

beforeAll(() => {
  if (!existsSync(BUNDLE)) {
    throw new Error(
      `${MAIN} (package.json "main", what Electron loads) does not exist: build first (npm test does), or the build no longer writes it.`,
    );
  }
  mkdirSync(SCRATCH, { recursive: true });
  // The broken variants are written beside a copy of the bundle's shared chunks, which it imports.
  const chunks = resolve(dirname(BUNDLE), 'chunks');
  if (existsSync(chunks)) cpSync(chunks, resolve(SCRATCH, 'chunks'), { recursive: true });
});
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

describe('the built app, packaged', () => {
  let r: BootReport;
  beforeAll(() => {
    r = mustBoot(BUNDLE, 'packaged');
  });

  it('loads with no error, uncaught exception or unhandled rejection', () => {
    expect(r.loaded).toBe(true);
    expect(r.errors).toEqual([]);
  });

  it('loads its WebAssembly signer and keccak from the built files, with no native build', () => {
    expect(r.wasmCrypto).toMatchObject({ ok: true });
  });

  it('sandboxes every renderer and takes the single-instance lock before anything else', () => {
    expect(r.sandboxEnabled).toBe(true);
    expect(r.singleInstanceLockRequested).toBe(true);
    expect(r.appListeners).toEqual(
      expect.arrayContaining(['second-instance', 'web-contents-created', 'window-all-closed']),
    );
    expect(r.appListenersAfterStart).toEqual(expect.arrayContaining(['activate', 'will-quit']));
  });

  it('opens one locked-down window on app://terminal with the shipped preload, and no DevTools', () => {
    expect(r.windows).toHaveLength(1);
    const [window] = r.windows;
    expect(window?.loadedUrl).toBe('app://terminal/index.html');
    expect(window?.devToolsOpened).toBe(false);
    const web = window?.options.webPreferences ?? {};
    expect(web).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      devTools: false,
    });
    expect(web['preload']).toBe(resolve('out/preload/index.cjs'));
    expect(existsSync(String(web['preload']))).toBe(true);
  });

  it('registers app:// as standard and secure before ready, and serves only the built page from it with the CSP', () => {
    expect(r.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true } }]);
    expect(r.privilegedBeforeReady).toBe(true);
    expect(r.protocolHandlers).toEqual(['app']);
    const { index, traversal, otherHost } = r.protocolResponses;
    expect(index).toEqual({
      status: 200,
      csp: PRODUCTION_CSP,
      type: 'text/html; charset=utf-8',
      startsWith: '<!doctype html>',
    });
    expect(traversal?.status).toBe(403);
    expect(otherHost?.status).toBe(403);
    expect([traversal?.csp, otherHost?.csp]).toEqual([PRODUCTION_CSP, PRODUCTION_CSP]);
  });

  it('refuses every permission and puts the production CSP on http responses', () => {
    expect(r.session.permissionRequests.every(([, granted]) => granted === false)).toBe(true);
    expect(r.session.permissionRequests).toHaveLength(5);
    expect(r.session.permissionCheck).toBe(false);
    expect(r.session.cspHeader).toEqual({ 'Content-Security-Policy': [PRODUCTION_CSP] });
  });

  it('refuses navigation, redirects, webviews and window.open on the window it created', () => {
    expect(r.guards).toEqual({
      'will-navigate': true,
      'will-frame-navigate': true,
      'will-redirect': true,
      'will-attach-webview': true,
      windowOpen: [{ action: 'deny' }, { action: 'deny' }, { action: 'deny' }],
    });
  });

  it("sets our own menu, not Electron's default", () => {
    expect(r.menu).toEqual(JSON.parse(JSON.stringify(appMenuTemplate(process.platform, 'Exchange Terminal'))));
  });

  it('registers exactly one IPC handler per bridge method', () => {
    expect(r.ipcHandleChannels).toEqual(bridgeMethodNames.map(invokeChannel).sort());
  });

  it('answers a read and a trade call from our page through the registered handlers', () => {
    const { read, quote, trade, badArgs } = r.calls;
    expect(read?.ok).toBe(true);
    expect(Array.isArray((read?.value as { deployments?: unknown } | undefined)?.deployments)).toBe(true);
    expect(quote).toEqual({
      ok: true,
      value: { price: '500000', size: '1000000', cost: '500000', payoutIfRight: '1000000', maxLoss: '500000' },
    });
    // The core's order handler itself answers (its code, not the bridge's): the call got through.
    expect(trade?.ok).toBe(false);
    expect(trade?.error?.code).not.toMatch(/^bridge\./);
    expect(trade?.error?.message).toContain('150');
    expect(badArgs?.error?.code).toBe(BRIDGE_ERROR.invalidArgs);
  });

  it('lets panic past its presence check only after a press on the window, once per press', () => {
    expect(r.inputListeners).toEqual(['before-input-event', 'before-mouse-event', 'input-event']);
    const needsPerson = { ok: false, error: { code: 'kit.needs_person', message: expect.any(String) as string } };
    for (const name of ['panicBare', 'panicAfterMove', 'panicSameClick'])
      expect(r.calls[name], name).toEqual(needsPerson);
    expect(r.calls['panicBare']?.error?.message).toContain('press the Panic button or its hotkey');
    // Past the check, the handler goes on and stops where this run has no deployment to send to.
    for (const name of ['panicAfterClick', 'panicAfterKey', 'panicAfterTouch'])
      expect(r.calls[name]?.error?.code, name).toBe('connection.no_deployment');
  });

  it('does not update itself when built without an update address (only npm run release bakes one in)', () => {
    expect(r.calls['updates']).toMatchObject({
      ok: true,
      value: {
        state: 'off',
        currentVersion: '0.0.0-boot',
        problem: {
          code: 'update.off',
          message:
            'This build does not update itself: it was built without an update address (builds made by npm run release have one).',
        },
      },
    });
  });

  it('refuses the same calls from another origin, a subframe and a frame that is gone', () => {
    for (const name of ['foreignRead', 'foreignTrade', 'subframeTrade', 'goneFrame']) {
      expect(r.calls[name], name).toEqual({
        ok: false,
        error: { code: BRIDGE_ERROR.untrustedSender, message: expect.any(String) as string },
      });
    }
  });
});

describe('the built app with the dev server', () => {
  it('loads the dev server URL with DevTools, the development CSP, and no app:// handler', () => {
    const r = mustBoot(BUNDLE, 'dev');
    expect(r.errors).toEqual([]);
    expect(r.windows[0]?.loadedUrl).toBe('http://localhost:5173/');
    expect(r.windows[0]?.devToolsOpened).toBe(true);
    expect(r.windows[0]?.options.webPreferences['devTools']).toBe(true);
    expect(r.protocolHandlers).toEqual([]);
    expect(r.session.cspHeader).toEqual({ 'Content-Security-Policy': [developmentCsp('http://localhost:5173/')] });
  });
});

describe('the built app when its core cannot start', () => {
  it('still opens the window and registers every bridge channel the same way, each answering with the sentence', () => {
    const r = mustBoot(BUNDLE, 'core-fails');
    expect(r.errors).toEqual([]);
    expect(r.windows[0]?.loadedUrl).toBe('app://terminal/index.html');
    expect(r.ipcHandleChannels).toEqual(bridgeMethodNames.map(invokeChannel).sort());
    expect(r.calls['info']).toEqual({ ok: true, value: { version: '0.0.0-boot', platform: process.platform } });
    for (const name of ['read', 'trade']) {
      expect(r.calls[name], name).toEqual({
        ok: false,
        error: { code: BRIDGE_ERROR.unavailable, message: 'The app could not start; see the log for why.' },
      });
    }
    // The sender check is the same registration's: a foreign frame is refused before the core is asked.
    expect(r.calls['foreignRead']?.error?.code).toBe(BRIDGE_ERROR.untrustedSender);
    expect(r.appListenersAfterStart).toEqual(expect.arrayContaining(['activate', 'will-quit']));
  });
});

describe('the boot check fails when the bundle cannot load', () => {
  const built = (): string => readFileSync(BUNDLE, 'utf8');
  const variant = (name: string, source: string): string => {
    const file = resolve(SCRATCH, name);
    writeFileSync(file, source);
    return file;
  };

  it('a missing file', () => {
    const run = boot(resolve(SCRATCH, 'no-such-bundle.js'));
    expect(run.status).not.toBe(0);
    expect(run.report?.loaded).toBe(false);
    expect(run.report?.errors.join('\n')).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
  });

  it('a wrong external (a package that is not installed)', () => {
    const run = boot(variant('wrong-external.mjs', `import 'a-package-that-is-not-installed';\n${built()}`));
    expect(run.status).not.toBe(0);
    expect(run.report?.errors.join('\n')).toMatch(/ERR_MODULE_NOT_FOUND|Cannot find package/);
  });

  it('an ESM/CJS mistake (require in an ES module)', () => {
    const run = boot(variant('cjs-in-esm.mjs', `const { app: _app } = require('electron');\n${built()}`));
    expect(run.status).not.toBe(0);
    expect(run.report?.errors.join('\n')).toMatch(/require is not defined/);
  });

  it('an Electron name the bundle imports but Electron does not export', () => {
    const source = built().replace(
      /import (\w+), \{ ([^}]*)\} from "electron"/,
      'import $1, { NotAnElectronApi, $2} from "electron"',
    );
    expect(source).toContain('NotAnElectronApi');
    const run = boot(variant('missing-export.mjs', source));
    expect(run.status).not.toBe(0);
    expect(run.report?.errors.join('\n')).toMatch(/does not provide an export named 'NotAnElectronApi'/);
  });
});
