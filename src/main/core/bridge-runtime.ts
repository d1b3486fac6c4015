/**
 * The bridge runtime of the app core: handler types, the coded failure a handler throws, and the
 * dispatcher that validates arguments and results against the method table. Independent of the
 * transport: Electron's IPC (src/main/electron/bridge-ipc.ts) and the e2e harness both reach it
 * through AppCore.invoke.
 */
import {
  BRIDGE_ERROR,
  bridgeMethodNames,
  bridgeMethods,
  isBridgeMethod,
  type BridgeArgs,
  type BridgeErrorData,
  type BridgeMethod,
  type BridgeOutcome,
  type BridgeResult,
} from '../../shared/bridge';
import { oversizedArgsSentence } from '../../shared/bridge/arg-budget';
import { argumentLabel, fieldSentence } from '../../shared/field-words';

export type BridgeHandler<M extends BridgeMethod> = (
  ...args: BridgeArgs<M>
) => BridgeResult<M> | Promise<BridgeResult<M>>;

/** One handler per method; the compiler refuses a table row without a handler. */
export type BridgeHandlers = { readonly [M in BridgeMethod]: BridgeHandler<M> };

/** The handlers of one area, e.g. AreaHandlers<'keys'> is every `keys.*` method. */
export type AreaHandlers<P extends string> = {
  readonly [M in BridgeMethod as M extends `${P}.${string}` ? M : never]: BridgeHandler<M>;
};

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

/** Handlers throw this for a method that cannot run in this core (no exchange connection, no core). */
export function unavailable(sentence: string): BridgeFailure {
  return new BridgeFailure(BRIDGE_ERROR.unavailable, sentence);
}

export type InternalErrorSink = (method: string, error: unknown) => void;

/** A refusal as the window receives it: a code and a sentence. */
export function refusal(code: string, message: string): BridgeOutcome<never> {
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
    return refusal(BRIDGE_ERROR.unknownMethod, 'The app has no such method.');
  }
  const spec = bridgeMethods[method];
  // Measured before parsing: zod visits every item of a record or array before it checks a maximum.
  const oversized = oversizedArgsSentence(rawArgs);
  if (oversized !== null) return refusal(BRIDGE_ERROR.tooLarge, oversized);
  const args = spec.args.safeParse(rawArgs);
  if (!args.success) {
    // Worded for people: the field as the screen names it, never the method or the argument's path.
    const issue = args.error.issues[0];
    const sentence = issue ? fieldSentence(argumentLabel(method, issue.path), issue.message) : 'It was refused.';
    return refusal(BRIDGE_ERROR.invalidArgs, `Not accepted: ${sentence} Nothing was changed.`);
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
    return refusal(BRIDGE_ERROR.internal, 'The app failed while doing this; its log has the details.');
  }
  const result = spec.result.safeParse(value);
  if (!result.success) {
    onInternalError(method, result.error);
    return refusal(
      BRIDGE_ERROR.invalidResult,
      'The app gave an answer the window cannot read; its log has the details.',
    );
  }
  return { ok: true, value: result.data };
}

/** Every method of the table: the given handlers, and bridge.unavailable with `sentence` for the rest. */
export function handlerTable(some: Partial<BridgeHandlers>, sentence = 'The app is not available.'): BridgeHandlers {
  const table: Record<string, unknown> = {};
  for (const method of bridgeMethodNames) {
    table[method] =
      some[method] ??
      (() => {
        throw unavailable(sentence);
      });
  }
  // Keys are exactly the method table's, so the shape matches BridgeHandlers.
  return table as unknown as BridgeHandlers;
}
