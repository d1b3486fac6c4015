// Boots the BUILT main bundle (out/main/index.js) under plain Node with an Electron API double,
// the way Electron's own Node loads it (ESM), and prints what the app did as one line:
// `BOOT-REPORT {json}`. Run by test/built/boot.test.ts in a child process; exits non-zero when
// the bundle cannot load or the app does not reach its window.
//
//   node test/built/boot-driver.mjs <out/main/index.js> [packaged|dev|core-fails|practice-first|practice-restart]
//
// core-fails is packaged with a settings file no store can read, so the real core cannot start.
// practice-first and practice-restart are packaged, in the app data folder named by BOOT_USERDATA
// (kept between the two runs), with main's dialogs answered yes: the first run enters practice from
// a first run and trades, then quits as Electron does; the second finds what the first left.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [bundlePath, mode = 'packaged'] = process.argv.slice(2);
if (!bundlePath) {
  process.stderr.write('usage: boot-driver.mjs <out/main/index.js> [packaged|dev|core-fails]\n');
  process.exit(2);
}
const DEV_SERVER = 'http://localhost:5173/';

const report = {
  mode,
  loaded: false,
  errors: [],
  events: [],
  sandboxEnabled: false,
  privilegedSchemes: null,
  privilegedBeforeReady: null,
  singleInstanceLockRequested: false,
  appListeners: [],
  appListenersAfterStart: [],
  protocolHandlers: [],
  protocolResponses: {},
  windows: [],
  session: {},
  guards: {},
  menu: null,
  ipcHandleChannels: [],
  ipcOnChannels: [],
  calls: {},
  sent: [],
  wasmCrypto: null,
  inputListeners: [],
};

const practiceMode = mode === 'practice-first' || mode === 'practice-restart';
const keptUserData = practiceMode ? process.env.BOOT_USERDATA : undefined;
if (practiceMode && !keptUserData) {
  process.stderr.write('practice modes need BOOT_USERDATA (the app data folder kept between runs)\n');
  process.exit(2);
}
const userData = keptUserData ?? mkdtempSync(path.join(tmpdir(), 'boot-userdata-'));
// electron-store's file (src/main/electron/store.ts): unreadable JSON makes it throw.
if (mode === 'core-fails') writeFileSync(path.join(userData, 'exchange-terminal.json'), '{ not json');
process.on('uncaughtException', (error) => report.errors.push(`uncaught: ${error?.stack ?? error}`));
process.on('unhandledRejection', (error) => report.errors.push(`unhandled rejection: ${error?.stack ?? error}`));

// ── The double ──────────────────────────────────────────────────────────────────────────────
class Emitter {
  listeners = new Map();
  on(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(fn);
    return this;
  }
  once(name, fn) {
    const wrapped = (...args) => {
      this.off(name, wrapped);
      fn(...args);
    };
    return this.on(name, wrapped);
  }
  off(name, fn) {
    this.listeners.set(
      name,
      (this.listeners.get(name) ?? []).filter((f) => f !== fn),
    );
    return this;
  }
  emit(name, ...args) {
    for (const fn of [...(this.listeners.get(name) ?? [])]) fn(...args);
  }
}

let ready = false;
/** Resolved by the next app.quit() (the practice modes quit as Electron would, see below). */
let quitCalled = null;
let resolveReady;
const whenReady = new Promise((resolve) => (resolveReady = resolve));
let resolveWindowLoaded;
const windowLoaded = new Promise((resolve) => (resolveWindowLoaded = resolve));

const app = new Emitter();
Object.assign(app, {
  isPackaged: mode !== 'dev',
  enableSandbox: () => (report.sandboxEnabled = !ready),
  requestSingleInstanceLock: () => {
    report.singleInstanceLockRequested = true;
    return true;
  },
  whenReady: () => whenReady,
  isReady: () => ready,
  quit: () => {
    report.events.push('app.quit');
    quitCalled?.();
  },
  exit: (code) => report.events.push(`app.exit(${code})`),
  getPath: (name) => (name === 'userData' ? userData : path.join(userData, name)),
  getVersion: () => '0.0.0-boot',
  getName: () => 'Exchange Terminal',
});

const frame = (url) => ({ url });

class WebContents extends Emitter {
  constructor() {
    super();
    this.mainFrame = frame('');
    this.windowOpenHandler = null;
    this.devToolsOpened = false;
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  openDevTools() {
    this.devToolsOpened = true;
  }
  send(channel, payload) {
    report.sent.push(channel);
    void payload;
  }
}

const windows = [];
class BrowserWindow extends Emitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.loadedUrl = null;
    windows.push(this);
    // Electron emits this for every WebContents it creates.
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return [...windows];
  }
  async loadURL(url) {
    this.loadedUrl = url;
    this.webContents.mainFrame = frame(url);
    resolveWindowLoaded(this);
  }
  async loadFile(file) {
    this.loadedUrl = `loadFile:${file}`;
    resolveWindowLoaded(this);
  }
  show() {}
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {}
}

const ipcHandlers = new Map();
const ipcMain = {
  handle: (channel, fn) => ipcHandlers.set(channel, fn),
  removeHandler: (channel) => ipcHandlers.delete(channel),
  on: (channel) => report.ipcOnChannels.push(channel),
};

const sessionState = { permissionRequest: null, permissionCheck: null, headers: null, beforeRequest: null };
const defaultSession = {
  setPermissionRequestHandler: (fn) => (sessionState.permissionRequest = fn),
  setPermissionCheckHandler: (fn) => (sessionState.permissionCheck = fn),
  webRequest: {
    onHeadersReceived: (fn) => (sessionState.headers = fn),
    // Offline mode cancels every request that leaves the app (electron/offline-requests.ts).
    onBeforeRequest: (fn) => (sessionState.beforeRequest = fn),
  },
};

const protocolHandlers = new Map();
const protocol = {
  registerSchemesAsPrivileged: (schemes) => {
    report.privilegedSchemes = schemes;
    report.privilegedBeforeReady = !ready;
  },
  handle: (scheme, handler) => {
    if (!ready) report.errors.push('protocol.handle called before ready');
    protocolHandlers.set(scheme, handler);
  },
};

let appMenu = null;
const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => (appMenu = menu),
};

// main's dialogs: "Cancel" every time (nothing in this run should need a yes), except in the practice
// modes, where the person says yes (button 1, the confirm label) and the titles are recorded.
const dialogTitles = [];
const dialog = {
  showMessageBox: async (...args) => {
    dialogTitles.push(args.at(-1)?.title ?? '');
    return { response: practiceMode ? 1 : 0, checkboxChecked: false };
  },
  showSaveDialog: async () => ({ canceled: true }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
};
const shell = { openPath: async () => '', openExternal: async () => {} };

globalThis.__electronDouble = {
  app,
  BrowserWindow,
  ipcMain,
  session: { defaultSession },
  protocol,
  dialog,
  Menu,
  shell,
};

// `import 'electron'` (ESM, as the bundle does) and `require('electron')` (CJS, should a
// bundled dependency do so) both reach the double.
register('./electron-hooks.mjs', import.meta.url);
const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'electron') return globalThis.__electronDouble;
  return originalLoad.call(this, request, parent, isMain);
};

// ── Boot ─────────────────────────────────────────────────────────────────────────────────
function finish(code) {
  process.stdout.write(`BOOT-REPORT ${JSON.stringify(report)}\n`);
  if (!keptUserData) rmSync(userData, { recursive: true, force: true });
  process.exit(code);
}

if (mode === 'dev') process.env.ELECTRON_RENDERER_URL = DEV_SERVER;
else delete process.env.ELECTRON_RENDERER_URL;
// A fresh install: no devnet accounts file handed over by `npm start`.
delete process.env.EXCHANGE_TERMINAL_DEVNET_ACCOUNTS;

try {
  await import(pathToFileURL(path.resolve(bundlePath)).href);
  report.loaded = true;
} catch (error) {
  report.errors.push(`load: ${error?.stack ?? error}`);
  finish(1);
}
report.appListeners = [...app.listeners.keys()].sort();

ready = true;
resolveReady();
const timeout = setTimeout(() => {
  report.errors.push('the app did not load its window within 60 s');
  finish(1);
}, 60_000);
const window = await windowLoaded;
clearTimeout(timeout);
// Let start() finish what follows the window (nothing should, but an error would show here).
await new Promise((resolve) => setImmediate(resolve));

// Window, devtools, guards.
const contents = window.webContents;
report.windows = windows.map((w) => ({
  options: w.options,
  loadedUrl: w.loadedUrl,
  devToolsOpened: w.webContents.devToolsOpened,
}));
for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
  let prevented = 0;
  for (const fn of contents.listeners.get(name) ?? [])
    fn({ preventDefault: () => (prevented += 1), url: 'https://evil.example/' });
  report.guards[name] = prevented > 0;
}
report.guards.windowOpen = ['https://evil.example/', 'app://terminal/index.html', 'file:///etc/passwd'].map(
  (url) => contents.windowOpenHandler?.({ url }) ?? null,
);

// Session: permissions and the CSP header on http responses (the dev server's).
const granted = [];
for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
  sessionState.permissionRequest?.(contents, permission, (ok) => granted.push([permission, ok]));
}
report.session = {
  permissionRequests: granted,
  permissionCheck: sessionState.permissionCheck
    ? sessionState.permissionCheck(contents, 'media', 'https://evil.example')
    : null,
  cspHeader: await new Promise((resolve) => {
    if (!sessionState.headers) return resolve(null);
    sessionState.headers({ responseHeaders: { 'content-security-policy': ['default-src *'] } }, (r) =>
      resolve(r.responseHeaders),
    );
  }),
};

// The app:// handler: the page, a traversal and another host.
report.protocolHandlers = [...protocolHandlers.keys()];
const serve = protocolHandlers.get('app');
if (serve) {
  for (const [name, url] of [
    ['index', 'app://terminal/index.html'],
    ['traversal', 'app://terminal/..%2f..%2fpackage.json'],
    ['otherHost', 'app://evil/index.html'],
  ]) {
    const response = await serve(new Request(url));
    report.protocolResponses[name] = {
      status: response.status,
      csp: response.headers.get('content-security-policy'),
      type: response.headers.get('content-type'),
      startsWith: (await response.text()).slice(0, 15),
    };
  }
}

report.menu = appMenu?.template ?? null;
report.ipcHandleChannels = [...ipcHandlers.keys()].sort();

// One read and one trade call through the registered handlers, as the window would make them,
// then the same from frames that are not our page.
const pageUrl = window.loadedUrl;
const trusted = { senderFrame: contents.mainFrame, sender: contents };
const subframe = { senderFrame: frame(pageUrl), sender: contents };
const foreign = { senderFrame: frame('https://evil.example/'), sender: { mainFrame: frame('https://evil.example/') } };
const gone = { senderFrame: null, sender: contents };
const invoke = (event, method, args) => {
  const handler = ipcHandlers.get(`bridge:invoke:${method}`);
  return handler ? handler(event, args) : Promise.resolve({ missing: method });
};
if (practiceMode) {
  const { runPractice } = await import('./practice-steps.mjs');
  try {
    report.practice = await runPractice(mode, (method, args = []) => invoke(trusted, method, args), dialogTitles);
  } catch (error) {
    report.errors.push(`practice: ${error?.stack ?? error}`);
  }
  // Quit as Electron does: will-quit may be prevented (main stops the practice worker first) and
  // app.quit() called again once it is done.
  const quitting = (async () => {
    for (let round = 0; round < 3; round++) {
      const called = new Promise((resolve) => (quitCalled = resolve));
      let prevented = false;
      app.emit('before-quit', {});
      app.emit('will-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) return true;
      await called;
    }
    return false;
  })();
  const quitTimer = setTimeout(() => {
    report.errors.push('the app did not quit within 30 s');
    finish(1);
  }, 30_000);
  report.practiceQuit = await quitting;
  clearTimeout(quitTimer);
  finish(report.errors.length === 0 ? 0 : 1);
}
const ticket = { assetId: '1', epoch: '1', side: 'buy', price: '50', size: '1', timeInForce: 'GTC', signAs: 'master' };
// The trade call carries a price no market can have: the core's order handler refuses it in its
// own words before it would wait for a connection (this run has no exchange to connect to).
const impossible = { ...ticket, price: '150' };
const calls = [
  ['info', trusted, 'app.info', []],
  ['read', trusted, 'settings.get', []],
  ['quote', trusted, 'orders.quote', [ticket]],
  ['trade', trusted, 'orders.place', [impossible]],
  ['badArgs', trusted, 'orders.place', [{ ...ticket, extra: 'field' }]],
  ['foreignRead', foreign, 'settings.get', []],
  ['foreignTrade', foreign, 'orders.place', [ticket]],
  ['subframeTrade', subframe, 'orders.place', [ticket]],
  ['goneFrame', gone, 'settings.get', []],
  ['updates', trusted, 'updates.status', []],
];
for (const [name, event, method, args] of calls) {
  report.calls[name] = await invoke(event, method, args);
}

// Panic needs the person: a bare call is refused; after a press main saw on the window's
// webContents (as Electron emits it), the call gets past that check (and fails on what follows:
// this run has no deployment); the same press does not allow a second one.
report.inputListeners = ['before-input-event', 'before-mouse-event', 'input-event'].filter(
  (name) => (contents.listeners.get(name) ?? []).length > 0,
);
const inputEvent = { preventDefault: () => {} };
report.calls.panicBare = await invoke(trusted, 'kit.panic', [null]);
contents.emit('before-mouse-event', inputEvent, { type: 'mouseMove', x: 10, y: 10 });
report.calls.panicAfterMove = await invoke(trusted, 'kit.panic', [null]);
contents.emit('before-mouse-event', inputEvent, { type: 'mouseDown', x: 10, y: 10, button: 'left', clickCount: 1 });
report.calls.panicAfterClick = await invoke(trusted, 'kit.panic', [null]);
report.calls.panicSameClick = await invoke(trusted, 'kit.panic', [null]);
contents.emit('before-input-event', inputEvent, { type: 'keyDown', key: 'P', code: 'KeyP', isAutoRepeat: false });
report.calls.panicAfterKey = await invoke(trusted, 'kit.panic', [null]);
contents.emit('input-event', inputEvent, { type: 'touchStart' });
report.calls.panicAfterTouch = await invoke(trusted, 'kit.panic', [null]);

// The WebAssembly crypto chunk main loads after the first unlock (libsecp256k1 and keccak): it
// must load from the built files (packed: from the archive's own production node_modules, with no
// native build and no network) and pass its self-tests against noble.
// Shared chunks sit next to the bundle or in its chunks/ folder (main and the practice worker share them).
const bundleDir = path.dirname(path.resolve(bundlePath));
const wasmChunk = [bundleDir, path.join(bundleDir, 'chunks')]
  .flatMap((dir) => {
    try {
      return readdirSync(dir).map((f) => path.join(dir, f));
    } catch {
      return [];
    }
  })
  .find((f) => /^wasm-crypto-[\w-]+\.js$/.test(path.basename(f)));
try {
  if (!wasmChunk) throw new Error(`no wasm-crypto chunk next to ${bundlePath}`);
  const started = performance.now();
  await (await import(pathToFileURL(wasmChunk).href)).useWasmCrypto();
  report.wasmCrypto = { ok: true, ms: Math.round(performance.now() - started) };
} catch (error) {
  report.wasmCrypto = { ok: false, error: String(error?.message ?? error) };
}

// Quit as Electron would, so the core and the vault dispose.
report.appListenersAfterStart = [...app.listeners.keys()].sort();
app.emit('before-quit', {});
app.emit('will-quit', {});
app.emit('window-all-closed');
await new Promise((resolve) => setImmediate(resolve));
finish(report.errors.length === 0 ? 0 : 1);
