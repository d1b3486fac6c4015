/**
 * Creates the app window from the pure options and policies. The only module under
 * src/main/window that loads electron at runtime.
 */
import { BrowserWindow } from 'electron';
import type { AppEntry } from './app-entry';
import { mainWindowOptions } from './options';

export interface CreateWindowInput {
  readonly entry: AppEntry;
  readonly preloadPath: string;
  readonly isPackaged: boolean;
  readonly iconPath?: string | undefined;
  readonly openDevTools: boolean;
  /** Real keyboard and mouse input, seen by main before the page: the idle auto-lock follows it. */
  readonly onUserInput?: () => void;
}

export async function createMainWindow(input: CreateWindowInput): Promise<BrowserWindow> {
  const window = new BrowserWindow(
    mainWindowOptions({ preloadPath: input.preloadPath, isPackaged: input.isPackaged, iconPath: input.iconPath }),
  );
  window.once('ready-to-show', () => window.show());
  const onUserInput = input.onUserInput;
  if (onUserInput) {
    window.webContents.on('before-input-event', () => onUserInput());
    window.webContents.on('before-mouse-event', () => onUserInput());
  }
  if (input.entry.kind === 'dev') await window.loadURL(input.entry.url.href);
  else await window.loadFile(input.entry.filePath);
  if (input.openDevTools && !input.isPackaged) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
