/** Dialogs owned by main, with electron's dialog module (electron runtime file: see eslint.config.js). */
import { dialog, type BrowserWindow } from 'electron';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { Dialogs } from '../core';

/** Bigger files are not anything the terminal opens (signed requests, keystores). */
const MAX_OPEN_BYTES = 1_000_000;

export function electronDialogs(parent: () => BrowserWindow | null): Dialogs {
  return {
    async confirm({ title, message, detail, confirmLabel }) {
      const options = {
        type: 'warning' as const,
        title,
        message,
        detail,
        buttons: ['Cancel', confirmLabel],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      };
      const window = parent();
      const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
      return response === 1;
    },
    async saveFile({ title, defaultName, content }) {
      const options = { title, defaultPath: defaultName, filters: [{ name: 'JSON', extensions: ['json'] }] };
      const window = parent();
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      if (result.canceled || !result.filePath) return null;
      // Owner-only: exported keystores and signed requests are nobody else's business.
      await writeFile(result.filePath, content, { encoding: 'utf8', mode: 0o600 });
      return result.filePath;
    },
    async openFile({ title }) {
      const options = { title, properties: ['openFile' as const], filters: [{ name: 'JSON', extensions: ['json'] }] };
      const window = parent();
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      const path = result.filePaths[0];
      if (result.canceled || !path) return null;
      if ((await stat(path)).size > MAX_OPEN_BYTES) return null;
      return readFile(path, 'utf8');
    },
  };
}
