/**
 * Preload (sandboxed, bundled to CJS with only `electron` external). Exposes exactly one
 * frozen object, `window.terminal`; the window gets no ipcRenderer and no node.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createTerminalApi } from './terminal-api';

contextBridge.exposeInMainWorld('terminal', createTerminalApi(ipcRenderer));
