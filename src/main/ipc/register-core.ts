/**
 * Electron IPC for the app core: one ipcMain.handle per method of the bridge table, each with
 * the sender check of window/bridge-host, and every core event forwarded to the window.
 * Electron types only, so it runs under node with a fake ipcMain.
 */
import {
  BRIDGE_ERROR,
  bridgeEventNames,
  bridgeMethodNames,
  eventChannel,
  invokeChannel,
  type BridgeOutcome,
} from '../../shared/bridge';
import type { AppCore } from '../core';
import type { SenderFrame } from '../window/app-entry';
import { senderOf, type BridgeEventSink, type BridgeIpcMain } from '../window/bridge-host';

export function registerCore(
  ipc: BridgeIpcMain,
  core: Pick<AppCore, 'invoke'>,
  isTrusted: (sender: SenderFrame | null) => boolean,
): () => void {
  for (const method of bridgeMethodNames) {
    ipc.handle(invokeChannel(method), (event, args): Promise<BridgeOutcome> => {
      if (!isTrusted(senderOf(event))) {
        return Promise.resolve({ ok: false, error: { code: BRIDGE_ERROR.untrustedSender, message: 'This frame may not call the app core.' } });
      }
      return core.invoke(method, args);
    });
  }
  return () => {
    for (const method of bridgeMethodNames) ipc.removeHandler(invokeChannel(method));
  };
}

/**
 * Sends every core event to the current window (none while it is closed). Payloads were
 * validated by the core's event hub.
 */
export function forwardEvents(core: Pick<AppCore, 'on'>, target: () => BridgeEventSink | null): () => void {
  const offs = bridgeEventNames.map((event) =>
    core.on(event, (payload) => {
      target()?.send(eventChannel(event), payload);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
