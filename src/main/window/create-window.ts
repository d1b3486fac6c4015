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
}

export async function createMainWindow(input: CreateWindowInput): Promise<BrowserWindow> {
  const window = new BrowserWindow(
    mainWindowOptions({ preloadPath: input.preloadPath, isPackaged: input.isPackaged, iconPath: input.iconPath }),
  );
  window.once('ready-to-show', () => window.show());
  if (input.entry.kind === 'dev') await window.loadURL(input.entry.url.href);
  else await window.loadFile(input.entry.filePath);
  if (input.openDevTools && !input.isPackaged) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
