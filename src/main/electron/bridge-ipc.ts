/**
 * Electron IPC for the app core, the one way main registers the bridge (the real core, or the
 * unavailable one when it cannot start): one ipcMain.handle per method of the bridge table, each
 * refusing any frame the window's trust check (passed in: window/app-entry.ts) does not accept,
 * and every core event forwarded to the window. Electron types only, so it runs under node with
 * a fake ipcMain.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { BRIDGE_ERROR, bridgeMethodNames, eventChannel, invokeChannel, type BridgeOutcome } from '../../shared/bridge';
import { windowOutbox, type AppCore } from '../core';
import { refusal } from '../core/bridge-runtime';
import type { SenderFrame } from '../window/app-entry';

/** The part of ipcMain the bridge needs (electron's IpcMain satisfies it). */
export interface BridgeIpcMain {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The part of WebContents used to push events (electron's WebContents satisfies it). */
export interface BridgeEventSink {
  send(channel: string, ...args: unknown[]): void;
}

/** The sender as the trust check sees it; null when the frame is already gone. */
function senderOf(event: IpcMainInvokeEvent): SenderFrame | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame === event.sender.mainFrame };
}

/**
 * Register every method of the table. The sender is checked before anything else. Returns a
 * function that removes the handlers again (tests, and a clean shutdown).
 */
export function registerCore(
  ipc: BridgeIpcMain,
  core: Pick<AppCore, 'invoke'>,
  isTrusted: (sender: SenderFrame | null) => boolean,
): () => void {
  for (const method of bridgeMethodNames) {
    ipc.handle(invokeChannel(method), (event, args): Promise<BridgeOutcome> => {
      if (!isTrusted(senderOf(event))) {
        return Promise.resolve(refusal(BRIDGE_ERROR.untrustedSender, 'This frame may not call the app.'));
      }
      return core.invoke(method, args);
    });
  }
  return () => {
    for (const method of bridgeMethodNames) ipc.removeHandler(invokeChannel(method));
  };
}

/**
 * Sends every core event to the current window (none while it is closed), in the order and pace of
 * the window outbox (core/window-outbox.ts): an order's answer at once, market data once per frame.
 * Payloads were validated by the core's event hub.
 */
export function forwardEvents(core: Pick<AppCore, 'on'>, target: () => BridgeEventSink | null): () => void {
  return windowOutbox(core, (batch) => {
    const sink = target();
    if (sink) for (const [event, payload] of batch) sink.send(eventChannel(event), payload);
  });
}
