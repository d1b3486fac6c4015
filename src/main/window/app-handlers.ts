/**
 * Handlers for the shell's own bridge methods. Other areas (vault, exchange, trading)
 * contribute their handlers to the same table when they are wired in.
 */
import type { BridgeHandlers } from './bridge-host';

export interface AppFacts {
  readonly version: string;
  readonly platform: string;
}

export function appHandlers(facts: AppFacts): BridgeHandlers {
  return {
    'app.info': () => ({ version: facts.version, platform: facts.platform }),
  };
}
