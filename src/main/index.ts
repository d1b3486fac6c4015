/**
 * Electron entry point. Thin on purpose: security switches, one window, the bridge.
 * Everything with logic lives in modules that run (and are tested) under plain node.
 */
import { app, ipcMain, session, BrowserWindow } from 'electron';
import { fileURLToPath } from 'node:url';
import { isTrustedSender, resolveAppEntry, type AppEntry } from './window/app-entry';
import { appHandlers } from './window/app-handlers';
import { registerBridge } from './window/bridge-host';
import { createMainWindow } from './window/create-window';
import { developmentCsp, PRODUCTION_CSP } from './window/csp';
import { hardenSession, hardenWebContents } from './window/policies';

// Every renderer is sandboxed, including any created by a dependency.
app.enableSandbox();

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

function appEntry(): AppEntry {
  return resolveAppEntry({
    rendererIndexPath: here('../renderer/index.html'),
    devServerUrl: process.env['ELECTRON_RENDERER_URL'],
    isPackaged: app.isPackaged,
  });
}

async function openWindow(entry: AppEntry): Promise<void> {
  await createMainWindow({
    entry,
    preloadPath: here('../preload/index.cjs'),
    isPackaged: app.isPackaged,
    // Packaged builds carry their icon from electron-builder; in development use the source one.
    iconPath: app.isPackaged ? undefined : here('../../resources/icon.png'),
    openDevTools: entry.kind === 'dev',
  });
}

/** Once per process: session policies, bridge handlers, first window. */
async function start(): Promise<void> {
  const entry = appEntry();
  hardenSession(session.defaultSession, entry.kind === 'dev' ? developmentCsp(entry.url.href) : PRODUCTION_CSP);
  registerBridge(
    ipcMain,
    appHandlers({ version: app.getVersion(), platform: process.platform }),
    (sender) => isTrustedSender(sender, entry),
    // Until src/main/log is wired in: stderr, message only (never the error object's fields).
    (method, error) => process.stderr.write(`[bridge] ${method} failed: ${error instanceof Error ? error.message : 'non-error thrown'}\n`),
  );
  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open.
    if (BrowserWindow.getAllWindows().length === 0) openWindow(entry).catch(fail);
  });
  await openWindow(entry);
}

function fail(error: unknown): void {
  process.stderr.write(`Exchange Terminal failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
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
