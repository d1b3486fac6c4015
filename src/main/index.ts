/**
 * Electron entry point. Thin on purpose: security switches, one window, the bridge.
 * Everything with logic lives in modules that run (and are tested) under plain node.
 */
import { app, ipcMain, Menu, protocol, session, BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  createAppCore,
  createUnavailableCore,
  DEVNET_ACCOUNTS_ENV,
  loadDevnetAccounts,
  type AppCore,
  type AppFacts,
  type UserInput,
} from './core';
import { attestedBy, devnetAtStart } from './core/devnet/devnet-deployment';
import { launchedOffline } from './core/offline-mode';
import { appMarkets } from './core/session/market-directory';
import { createPracticeMode, workerThreadSpawner } from './core/practice';
import { forwardEvents, registerCore } from './electron/bridge-ipc';
import { blockRequestsWhileOffline } from './electron/offline-requests';
import { electronDialogs } from './electron/dialogs';
import { createElectronKeyValueStore } from './electron/store';
import { createLogger, type Logger } from './log';
import { SettingsService } from './settings';
import { appUpdateService } from './updates';
import { openVault, type Vault } from './vault';
import { isOwnPage, isTrustedSender, resolveAppEntry, type AppEntry } from './window/app-entry';
import { appMenuTemplate } from './window/app-menu';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './window/app-protocol';
import { createMainWindow } from './window/create-window';
import { onPageGone } from './window/page-lifetime';
import { developmentCsp, PRODUCTION_CSP } from './window/csp';
import { hardenSession, hardenWebContents } from './window/policies';

// Every renderer is sandboxed, including any created by a dependency.
app.enableSandbox();
// The page's own origin, app://terminal (window/app-protocol.ts); privileges must be set before ready.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

function appEntry(): AppEntry {
  return resolveAppEntry({
    rendererDir: here('../renderer'),
    devServerUrl: process.env['ELECTRON_RENDERER_URL'],
    isPackaged: app.isPackaged,
  });
}

let mainWindow: BrowserWindow | null = null;
/** --offline or EXCHANGE_TERMINAL_OFFLINE=1: no connection at all, and the window cannot turn it off. */
const offlineAtLaunch = launchedOffline(process.argv, process.env);
/** Set once the core runs: real input restarts the idle auto-lock and lets panic go (bridge calls never do). */
let noteUserInput: (input: UserInput) => void = () => {};
/** Set once the core runs: whether the practice exchange's worker still runs, and how to stop it. */
let practiceRunning: () => boolean = () => false;
let stopPractice: () => Promise<void> = () => Promise.resolve();
/** Set once the core runs: the camera permission follows its QR scans (window/policies.ts). */
let cameraWanted: () => boolean = () => false;
/** Set once the core runs: a page that went away (reload, crash, close) leaves no book streams open. */
let windowGone: () => void = () => {};

async function openWindow(entry: AppEntry): Promise<void> {
  mainWindow = await createMainWindow({
    entry,
    preloadPath: here('../preload/index.cjs'),
    // Packaged builds carry their icon from electron-builder; in development use the source one.
    iconPath: app.isPackaged ? undefined : here('../../resources/icon.png'),
    onUserInput: (input) => noteUserInput(input),
  });
  onPageGone(mainWindow.webContents, () => windowGone());
  mainWindow.on('closed', () => (mainWindow = null));
}

/** The real core: electron-store, keychain vault (or its encrypted file) and logs under userData. */
async function startCore(logger: Logger, facts: AppFacts): Promise<{ core: AppCore; vault: Vault }> {
  const userData = app.getPath('userData');
  const store = createElectronKeyValueStore();
  // No deployment by default: the devnet entry exists only while a devnet answers (devnet-deployment.ts).
  const settings = new SettingsService({ store, defaultDeployments: [] });
  // Stored settings set aside or trimmed at load (too large, unreadable): the log says what and why.
  if (settings.loadIssue) {
    logger.warn('settings.load_issue', { code: settings.loadIssue.code, message: settings.loadIssue.message });
  }
  const offline = offlineAtLaunch || settings.getSettings().offlineMode;
  const running = await devnetAtStart(settings, process.env[DEVNET_ACCOUNTS_ENV] ?? null, offline);
  const vault = await openVault({ store, filePath: join(userData, 'keys.vault') });
  const devnet = running ? loadDevnetAccounts() : { accounts: [], problem: null };
  // Practice: the exchange, oracle and bots in a worker of their own, journal in userData/practice.
  const practice = createPracticeMode({
    spawn: workerThreadSpawner(here('./practice-worker.js')),
    appDataDir: userData,
    settings,
    vault,
    logger,
  });
  practiceRunning = () => ['starting', 'ready'].includes(practice.host.status().state);
  stopPractice = () => practice.host.stop();
  if (devnet.problem) logger.warn('devnet.accounts', { problem: devnet.problem });
  const core = createAppCore({
    vault,
    settings,
    store,
    pinning: practice.pinning,
    practice,
    dialogs: electronDialogs(() => mainWindow),
    logger,
    app: facts,
    devnetAccounts: devnet.accounts,
    launchedOffline: offlineAtLaunch,
    kitStore: store,
    // Kits' signatures are checked on a thread of their own (built from src/main/core/airgap/kit-worker.ts).
    kitWorker: () => new Worker(here('./kit-worker.js')),
    // Updates from the address and release keys baked into this build (src/main/updates).
    updates: appUpdateService({
      app,
      platform: process.platform,
      arch: process.arch,
      resourcesPath: process.resourcesPath,
      env: process.env,
      logger,
    }),
    // The devnet's devnet.json (passed by `npm start`) lists its markets; other deployments list theirs in settings.
    trading: {
      markets: appMarkets(running ? (process.env[DEVNET_ACCOUNTS_ENV] ?? null) : null),
      attestedFacts: attestedBy(running),
    },
  });
  return { core, vault };
}

/**
 * The core the bridge serves: the real one, or, when it cannot start, one that answers every method
 * but app.info with the sentence below, so the window still opens and says why.
 */
async function startCoreOrExplain(logger: Logger): Promise<{ core: AppCore; vault: Vault | null }> {
  const facts: AppFacts = { version: app.getVersion(), platform: process.platform };
  try {
    return await startCore(logger, facts);
  } catch (error) {
    logger.error('core.start_failed', { error: error instanceof Error ? error.message : 'non-error thrown' });
    return { core: createUnavailableCore(facts, 'The app could not start; see the log for why.'), vault: null };
  }
}

/** Once per process: session policies, bridge handlers, first window. */
async function start(): Promise<void> {
  const entry = appEntry();
  const csp = entry.kind === 'dev' ? developmentCsp(entry.url.href) : PRODUCTION_CSP;
  hardenSession(session.defaultSession, csp, {
    cameraWanted: () => cameraWanted(),
    isOwnPage: (url) => isOwnPage(url, entry),
  });
  if (entry.kind === 'app') protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: entry.rendererDir, csp }));
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, app.getName())));
  const logger = createLogger({ dir: join(app.getPath('userData'), 'logs') });
  const isTrusted = (sender: Parameters<typeof isTrustedSender>[0]): boolean => isTrustedSender(sender, entry);
  const { core, vault } = await startCoreOrExplain(logger);
  blockRequestsWhileOffline(session.defaultSession, () => offlineAtLaunch || core.isOffline(), entry);
  registerCore(ipcMain, core, isTrusted);
  noteUserInput = (input) => core.noteUserInput(input);
  cameraWanted = () => core.cameraWanted();
  windowGone = () => core.windowGone();
  forwardEvents(core, () => mainWindow?.webContents ?? null);
  app.on('will-quit', (event) => {
    // The practice exchange closes its journal (and its bots cancel their quotes) before the app ends.
    if (practiceRunning()) {
      event.preventDefault();
      void stopPractice().finally(() => app.quit());
      return;
    }
    core.dispose();
    vault?.dispose();
  });
  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open.
    if (BrowserWindow.getAllWindows().length === 0) openWindow(entry).catch(fail);
  });
  await openWindow(entry);
}

function fail(error: unknown): void {
  process.stderr.write(
    `Exchange Terminal failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  app.exit(1);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.whenReady().then(start).catch(fail);
}
