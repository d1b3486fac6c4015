/**
 * Typed client for the bridge, derived from the contract table in src/shared/bridge.ts.
 * Imports types only: the window never needs the schemas (main validates), so zod stays
 * out of the renderer bundle.
 */
import type {
  BridgeArgs,
  BridgeErrorData,
  BridgeEvent,
  BridgeMethod,
  BridgePayload,
  BridgeResult,
  TerminalApi,
} from '../../shared/bridge';

/** A failed bridge call: `code` is machine-readable, `message` is a sentence for people. */
export class BridgeCallError extends Error {
  readonly code: string;
  constructor({ code, message }: BridgeErrorData) {
    super(message);
    this.name = 'BridgeCallError';
    this.code = code;
  }
}

export interface BridgeClient {
  call<M extends BridgeMethod>(method: M, ...args: BridgeArgs<M>): Promise<BridgeResult<M>>;
  on<E extends BridgeEvent>(event: E, handler: (payload: BridgePayload<E>) => void): () => void;
}

export function createBridgeClient(api: TerminalApi): BridgeClient {
  return {
    async call(method, ...args) {
      const outcome = await api.invoke(method, args);
      if (!outcome.ok) throw new BridgeCallError(outcome.error);
      // Main validated the result against the same table before sending it.
      return outcome.value as BridgeResult<typeof method>;
    },
    on(event, handler) {
      return api.on(event, (payload) => handler(payload as BridgePayload<typeof event>));
    },
  };
}

/**
 * The client for this window, or null when the page runs outside the desktop app
 * (a plain browser, a test page): the UI then shows "not connected to the app core".
 */
export function connectBridge(source: { terminal?: TerminalApi | undefined } = window): BridgeClient | null {
  const api = source.terminal;
  if (!api || typeof api.invoke !== 'function' || typeof api.on !== 'function') return null;
  return createBridgeClient(api);
}
