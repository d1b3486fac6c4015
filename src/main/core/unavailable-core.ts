/**
 * The core main registers when the real one cannot start (no keychain, unreadable settings…):
 * the window still opens, learns the app's version, and gets `sentence` as a coded
 * bridge.unavailable answer to every other method, through the same IPC registration.
 */
import type { AppCore } from './app-core';
import { dispatchBridgeCall, handlerTable } from './bridge-runtime';
import type { AppFacts } from './context';

export function createUnavailableCore(app: AppFacts, sentence: string): AppCore {
  const handlers = handlerTable({ 'app.info': () => ({ version: app.version, platform: app.platform }) }, sentence);
  return {
    invoke: (method, args) => dispatchBridgeCall(handlers, method, args),
    // Nothing runs, so nothing is ever emitted, and there is no lock to restart.
    on: () => () => {},
    noteUserInput: () => {},
    cameraWanted: () => false,
    windowGone: () => {},
    // It opens no connection; the shell still blocks the window's requests when launched offline.
    isOffline: () => false,
    dispose: () => {},
  };
}
