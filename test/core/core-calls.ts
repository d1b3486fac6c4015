/**
 * Calls into a test core that fail loudly (the bridge answers failures as data, so a test would
 * otherwise have to unwrap every outcome), and typed access to the events the core emitted.
 */
import type { TestCore } from '../support/test-core';
import type { BridgeEvent } from '../../src/shared/bridge';

export interface RecordedEvent {
  event: BridgeEvent;
  payload: unknown;
}

export function coreCalls(core: () => TestCore, events: () => readonly RecordedEvent[]) {
  return {
    /** The method's value; throws with the core's code and sentence when it fails. */
    ok: async <T = unknown>(method: string, ...args: unknown[]): Promise<T> => {
      const outcome = await core().core.invoke(method, args);
      if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${outcome.error.message}`);
      return outcome.value as T;
    },
    /** The failure the method answered with; throws when it succeeds. */
    err: async (method: string, ...args: unknown[]): Promise<{ code: string; message: string }> => {
      const outcome = await core().core.invoke(method, args);
      if (outcome.ok) throw new Error(`${method} unexpectedly succeeded`);
      return outcome.error;
    },
    /** The payloads of every `event` emitted so far. */
    of: <T>(event: BridgeEvent): T[] =>
      events()
        .filter((e) => e.event === event)
        .map((e) => e.payload as T),
  };
}
