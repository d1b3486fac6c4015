/**
 * Builds the one object the preload exposes as `window.terminal`. Pure: takes the ipc
 * functions it needs, so the allowlist is tested under node without electron.
 *
 * The allowlist is derived from the bridge tables; nothing here names a channel.
 */
import {
  BRIDGE_ERROR,
  bridgeEventNames,
  bridgeMethodNames,
  eventChannel,
  invokeChannel,
  isBridgeEvent,
  isBridgeMethod,
  type BridgeOutcome,
  type TerminalApi,
} from '../shared/bridge';
import { oversizedArgsSentence } from '../shared/bridge/arg-budget';

/** The slice of ipcRenderer the API uses (electron's ipcRenderer satisfies it). */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** Channel names the window can reach, for tests and audits. */
export function allowedChannels(): { invoke: readonly string[]; events: readonly string[] } {
  return {
    invoke: bridgeMethodNames.map(invokeChannel),
    events: bridgeEventNames.map(eventChannel),
  };
}

export function createTerminalApi(ipc: PreloadIpc): TerminalApi {
  const api: TerminalApi = {
    invoke(method: string, args: readonly unknown[]): Promise<BridgeOutcome> {
      if (!isBridgeMethod(method)) {
        return Promise.resolve({
          ok: false,
          error: { code: BRIDGE_ERROR.unknownMethod, message: `Unknown bridge method: ${String(method)}.` },
        });
      }
      // Copy into a plain array: the window could pass a proxy or an object with getters.
      const plainArgs: unknown[] = Array.isArray(args) ? Array.from(args as unknown[]) : [];
      // Refused here too, so main never even receives (and deserializes) an oversized call; main checks again.
      const oversized = oversizedArgsSentence(plainArgs);
      if (oversized !== null) {
        return Promise.resolve({ ok: false, error: { code: BRIDGE_ERROR.tooLarge, message: oversized } });
      }
      return ipc.invoke(invokeChannel(method), plainArgs) as Promise<BridgeOutcome>;
    },
    on(event: string, handler: (payload: unknown) => void): () => void {
      if (!isBridgeEvent(event)) throw new TypeError(`Unknown bridge event: ${String(event)}.`);
      if (typeof handler !== 'function') throw new TypeError('Bridge event handler must be a function.');
      const channel = eventChannel(event);
      // Drop the IpcRendererEvent: it carries `sender`, which must never reach the window.
      const listener = (_event: unknown, payload: unknown): void => handler(payload);
      ipc.on(channel, listener);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(channel, listener);
      };
    },
  };
  return Object.freeze(api);
}
