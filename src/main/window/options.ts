/**
 * The BrowserWindow options for the app window. Pure (types only from electron) so the
 * security-relevant flags are checked by a unit test under plain node.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsInput {
  readonly preloadPath: string;
  /** Only with the dev server (app-entry.ts devToolsAllowed); never packaged, never `npm start`. */
  readonly devTools: boolean;
  readonly iconPath?: string | undefined;
}

/** Background painted before the first frame, matching the dark theme's --bg. */
export const WINDOW_BACKGROUND = '#0b0e13';

export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Exchange Terminal',
    width: 1360,
    height: 860,
    minWidth: 1024,
    minHeight: 640,
    show: false, // shown on ready-to-show: no white flash
    backgroundColor: WINDOW_BACKGROUND,
    autoHideMenuBar: true,
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
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
      safeDialogs: true,
      // A wallet ships without devtools: an open console is a direct line into the window.
      devTools: input.devTools,
    },
  };
}
