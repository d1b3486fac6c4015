/**
 * The bridge contract: the only door between the window and the main process.
 *
 * One table of methods (validated arguments, typed results) and one table of events
 * (typed payloads). Everything else — the preload allowlist, main's IPC registration,
 * the renderer's typed client — is derived from these two tables, so adding a method
 * means adding one row here and one handler in main.
 *
 * Pure: no node, electron or DOM imports (zod only), so it runs in every process.
 */
import { z } from 'zod';

/** A method the window may call. `args` is a tuple schema: positional, nothing extra. */
export interface MethodSpec {
  readonly args: z.ZodTuple;
  readonly result: z.ZodType;
  /** One sentence for docs and error messages. */
  readonly summary: string;
}

/** An event main may push to the window. */
export interface EventSpec {
  readonly payload: z.ZodType;
  readonly summary: string;
}

export const appInfoSchema = z.object({
  version: z.string().min(1),
  platform: z.string().min(1),
});

export const noticeSchema = z.object({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string().min(1).max(500),
});

export const bridgeMethods = {
  'app.info': {
    args: z.tuple([]),
    result: appInfoSchema,
    summary: 'Application version and operating-system platform.',
  },
} as const satisfies Record<string, MethodSpec>;

export const bridgeEvents = {
  notice: {
    payload: noticeSchema,
    summary: 'A short message from the app core for the status bar.',
  },
} as const satisfies Record<string, EventSpec>;

export type BridgeMethods = typeof bridgeMethods;
export type BridgeEvents = typeof bridgeEvents;
export type BridgeMethod = keyof BridgeMethods;
export type BridgeEvent = keyof BridgeEvents;
export type BridgeArgs<M extends BridgeMethod> = z.infer<BridgeMethods[M]['args']>;
export type BridgeResult<M extends BridgeMethod> = z.infer<BridgeMethods[M]['result']>;
export type BridgePayload<E extends BridgeEvent> = z.infer<BridgeEvents[E]['payload']>;
export type AppInfo = z.infer<typeof appInfoSchema>;
export type Notice = z.infer<typeof noticeSchema>;

// Object.keys loses the key type; the tables are `as const`, so the cast is exact.
export const bridgeMethodNames = Object.freeze(Object.keys(bridgeMethods) as BridgeMethod[]);
export const bridgeEventNames = Object.freeze(Object.keys(bridgeEvents) as BridgeEvent[]);

const methodNameSet: ReadonlySet<string> = new Set(bridgeMethodNames);
const eventNameSet: ReadonlySet<string> = new Set(bridgeEventNames);

export function isBridgeMethod(name: unknown): name is BridgeMethod {
  return typeof name === 'string' && methodNameSet.has(name);
}

export function isBridgeEvent(name: unknown): name is BridgeEvent {
  return typeof name === 'string' && eventNameSet.has(name);
}

/** IPC channel names are namespaced so no other ipc traffic can collide with the bridge. */
export const INVOKE_CHANNEL_PREFIX = 'bridge:invoke:';
export const EVENT_CHANNEL_PREFIX = 'bridge:event:';

export function invokeChannel(method: BridgeMethod): string {
  return INVOKE_CHANNEL_PREFIX + method;
}

export function eventChannel(event: BridgeEvent): string {
  return EVENT_CHANNEL_PREFIX + event;
}

/**
 * Failures cross the bridge as data, not as thrown errors: Electron flattens a thrown
 * error into one string, and the window needs the machine code to react.
 */
export const bridgeErrorSchema = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_.]*$/),
  message: z.string(),
});
export type BridgeErrorData = z.infer<typeof bridgeErrorSchema>;

export type BridgeOutcome<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: BridgeErrorData };

/** Codes produced by the bridge itself; handlers add their own (e.g. `vault.locked`). */
export const BRIDGE_ERROR = {
  unknownMethod: 'bridge.unknown_method',
  invalidArgs: 'bridge.invalid_args',
  untrustedSender: 'bridge.untrusted_sender',
  invalidResult: 'bridge.invalid_result',
  internal: 'bridge.internal',
  unavailable: 'bridge.unavailable',
} as const;

/**
 * What the preload exposes as `window.terminal`. Deliberately untyped at this layer:
 * the window is not trusted, so the preload only checks names and main validates the rest.
 * The renderer wraps it in a typed client (src/renderer/lib/bridge.ts).
 */
export interface TerminalApi {
  invoke(method: string, args: readonly unknown[]): Promise<BridgeOutcome>;
  on(event: string, handler: (payload: unknown) => void): () => void;
}
