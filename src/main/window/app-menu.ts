/**
 * The application menu, our own instead of Electron's default (which offers Reload, Force
 * Reload and Toggle Developer Tools). Only what a person needs: quit, the edit commands so
 * text fields take undo, cut, copy, paste and select all from the keyboard, and the window
 * commands; on macOS the app menu. Pure (types only from electron): index.ts builds it.
 */
import type { MenuItemConstructorOptions } from 'electron';

export function appMenuTemplate(platform: NodeJS.Platform, appName: string): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  if (mac) {
    return [
      {
        label: appName,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      edit,
      // Electron fills it: Minimize, Zoom, Bring All to Front.
      { role: 'windowMenu' },
    ];
  }
  return [
    { label: 'File', submenu: [{ role: 'quit' }] },
    edit,
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}
