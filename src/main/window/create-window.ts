/**
 * Creates the app window from the pure options and policies. The only module under
 * src/main/window that loads electron at runtime.
 */
import { BrowserWindow } from 'electron';
import { devToolsAllowed, type AppEntry } from './app-entry';
import { mainWindowOptions } from './options';

export interface CreateWindowInput {
  readonly entry: AppEntry;
  readonly preloadPath: string;
  readonly iconPath?: string | undefined;
  /** Real keyboard and mouse input, seen by main before the page: the idle auto-lock follows it. */
  readonly onUserInput?: () => void;
}

export async function createMainWindow(input: CreateWindowInput): Promise<BrowserWindow> {
  const devTools = devToolsAllowed(input.entry);
  const window = new BrowserWindow(
    mainWindowOptions({ preloadPath: input.preloadPath, devTools, iconPath: input.iconPath }),
  );
  window.once('ready-to-show', () => window.show());
  const onUserInput = input.onUserInput;
  if (onUserInput) {
    window.webContents.on('before-input-event', () => onUserInput());
    window.webContents.on('before-mouse-event', () => onUserInput());
  }
  // app://terminal/index.html (served by app-protocol.ts) or, in development, the dev server.
  await window.loadURL(input.entry.url.href);
  if (devTools) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
