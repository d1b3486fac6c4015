/**
 * Handler tables outside the app core: the shell's own facts, and a complete table built from
 * a few handlers (bridge tests, and the degraded table main registers when the core cannot
 * start, so the window still gets a coded answer for every method).
 */
import { BRIDGE_ERROR, bridgeMethodNames } from '../../shared/bridge';
import { BridgeFailure, type BridgeHandlers } from './bridge-host';

export interface AppFacts {
  readonly version: string;
  readonly platform: string;
}

export function appInfoHandlers(facts: AppFacts): Pick<BridgeHandlers, 'app.info'> {
  return { 'app.info': () => ({ version: facts.version, platform: facts.platform }) };
}

/** Every method of the table: the given handlers, and bridge.unavailable with `sentence` for the rest. */
export function handlerTable(
  some: Partial<BridgeHandlers>,
  sentence = 'The app core is not available.',
): BridgeHandlers {
  const table: Record<string, unknown> = {};
  for (const method of bridgeMethodNames) {
    table[method] =
      some[method] ??
      (() => {
        throw new BridgeFailure(BRIDGE_ERROR.unavailable, sentence);
      });
  }
  // Keys are exactly the method table's, so the shape matches BridgeHandlers.
  return table as unknown as BridgeHandlers;
}

/** The shell alone: app.info answers, everything else is unavailable. */
export function appHandlers(facts: AppFacts, sentence?: string): BridgeHandlers {
  return handlerTable(appInfoHandlers(facts), sentence);
}
