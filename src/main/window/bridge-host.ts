/**
 * Main-process side of the bridge: one ipcMain.handle per row of the method table, each
 * with a sender check and zod validation of arguments and results. Generic over the
 * table: nothing here names a channel.
 */
import type { IpcMainInvokeEvent } from 'electron';
import {
  BRIDGE_ERROR,
  bridgeEvents,
  bridgeMethodNames,
  bridgeMethods,
  eventChannel,
  invokeChannel,
  isBridgeMethod,
  type BridgeArgs,
  type BridgeErrorData,
  type BridgeEvent,
  type BridgeMethod,
  type BridgeOutcome,
  type BridgePayload,
  type BridgeResult,
} from '../../shared/bridge';
import type { SenderFrame } from './app-entry';

export type BridgeHandler<M extends BridgeMethod> = (
  ...args: BridgeArgs<M>
) => BridgeResult<M> | Promise<BridgeResult<M>>;

/** One handler per method; the compiler refuses a table row without a handler. */
export type BridgeHandlers = { readonly [M in BridgeMethod]: BridgeHandler<M> };

/** An error a handler throws on purpose, carrying a code the window can act on. */
export class BridgeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}

export type InternalErrorSink = (method: string, error: unknown) => void;

function failure(code: string, message: string): BridgeOutcome<never> {
  return { ok: false, error: { code, message } };
}

function codedError(error: unknown): BridgeErrorData | null {
  if (error instanceof BridgeFailure) return { code: error.code, message: error.message };
  return null;
}

/**
 * Validate and run one call. Never throws: every path returns an outcome. Unexpected
 * errors are reported to `onInternalError` (for the log) and reach the window only as a
 * generic sentence, so no internal detail (paths, key material) leaks into the window.
 */
export async function dispatchBridgeCall(
  handlers: BridgeHandlers,
  method: unknown,
  rawArgs: unknown,
  onInternalError: InternalErrorSink = () => {},
): Promise<BridgeOutcome> {
  if (!isBridgeMethod(method)) {
    return failure(BRIDGE_ERROR.unknownMethod, 'The app core has no such method.');
  }
  const spec = bridgeMethods[method];
  const args = spec.args.safeParse(rawArgs);
  if (!args.success) {
    const issue = args.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (argument ${issue.path.join('.')})` : '';
    return failure(BRIDGE_ERROR.invalidArgs, `Invalid arguments for ${method}${where}: ${issue?.message ?? 'rejected'}.`);
  }
  let value: unknown;
  try {
    // The handler table is keyed by the same method, so its arguments match the parsed tuple.
    const handler = handlers[method] as (...a: unknown[]) => unknown;
    value = await handler(...(args.data as unknown[]));
  } catch (error) {
    const coded = codedError(error);
    if (coded) return { ok: false, error: coded };
    onInternalError(method, error);
    return failure(BRIDGE_ERROR.internal, `The app core failed while handling ${method}.`);
  }
  const result = spec.result.safeParse(value);
  if (!result.success) {
    onInternalError(method, result.error);
    return failure(BRIDGE_ERROR.invalidResult, `The app core returned a malformed result for ${method}.`);
  }
  return { ok: true, value: result.data };
}

/** The part of ipcMain the bridge needs (electron's IpcMain satisfies it). */
export interface BridgeIpcMain {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The sender as the trust check sees it; null when the frame is already gone. */
export function senderOf(event: IpcMainInvokeEvent): SenderFrame | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame === event.sender.mainFrame };
}

/**
 * Register every method of the table. Returns a function that removes the handlers
 * again (tests, and a clean shutdown).
 */
export function registerBridge(
  ipc: BridgeIpcMain,
  handlers: BridgeHandlers,
  isTrusted: (sender: SenderFrame | null) => boolean,
  onInternalError?: InternalErrorSink,
): () => void {
  for (const method of bridgeMethodNames) {
    ipc.handle(invokeChannel(method), async (event, args) => {
      if (!isTrusted(senderOf(event))) {
        return failure(BRIDGE_ERROR.untrustedSender, 'This frame may not call the app core.');
      }
      return dispatchBridgeCall(handlers, method, args, onInternalError);
    });
  }
  return () => {
    for (const method of bridgeMethodNames) ipc.removeHandler(invokeChannel(method));
  };
}

/** The part of WebContents used to push events (electron's WebContents satisfies it). */
export interface BridgeEventSink {
  send(channel: string, ...args: unknown[]): void;
}

/** Push an event to the window; the payload is validated so a bug never reaches the UI. */
export function sendBridgeEvent<E extends BridgeEvent>(target: BridgeEventSink, event: E, payload: BridgePayload<E>): void {
  const parsed: unknown = bridgeEvents[event].payload.parse(payload);
  target.send(eventChannel(event), parsed);
}
