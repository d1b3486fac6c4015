// The Electron API as the built main bundle imports it, backed by the double the boot driver
// builds (globalThis.__electronDouble). Named exports are static: a name the bundle imports
// that is missing here fails the load, like a missing export of the real module would.
const double = globalThis.__electronDouble;
if (!double) throw new Error('electron-double.mjs loaded outside the boot driver');

export const app = double.app;
export const BrowserWindow = double.BrowserWindow;
export const ipcMain = double.ipcMain;
export const session = double.session;
export const protocol = double.protocol;
export const dialog = double.dialog;
export const Menu = double.Menu;
export const shell = double.shell;
export default double;
