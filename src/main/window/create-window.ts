/**
 * Creates the app window from the pure options and policies. The only module under
 * src/main/window that loads electron at runtime.
 */
import { BrowserWindow } from 'electron';
import type { UserInput } from '../core/user-presence';
import { devToolsAllowed, type AppEntry } from './app-entry';
import { mainWindowOptions } from './options';

export interface CreateWindowInput {
  readonly entry: AppEntry;
  readonly preloadPath: string;
  readonly iconPath?: string | undefined;
  /**
   * Real keyboard, mouse and touch input, seen by main before the page: the idle auto-lock follows
   * it, and panic needs a press (src/main/core/user-presence.ts). The page's script cannot cause it.
   */
  readonly onUserInput?: (input: UserInput) => void;
}

export async function createMainWindow(input: CreateWindowInput): Promise<BrowserWindow> {
  const devTools = devToolsAllowed(input.entry);
  const window = new BrowserWindow(
    mainWindowOptions({ preloadPath: input.preloadPath, devTools, iconPath: input.iconPath }),
  );
  window.once('ready-to-show', () => window.show());
  const onUserInput = input.onUserInput;
  if (onUserInput) {
    window.webContents.on('before-input-event', (_event, key) =>
      onUserInput({ device: 'key', type: key.type, repeat: key.isAutoRepeat }),
    );
    window.webContents.on('before-mouse-event', (_event, mouse) => onUserInput({ device: 'mouse', type: mouse.type }));
    // Touches only: keys and the mouse come by the two events above, each once.
    window.webContents.on('input-event', (_event, input) => {
      if (input.type.startsWith('touch')) onUserInput({ device: 'touch', type: input.type });
    });
  }
  // app://terminal/index.html (served by app-protocol.ts) or, in development, the dev server.
  await window.loadURL(input.entry.url.href);
  if (devTools) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
