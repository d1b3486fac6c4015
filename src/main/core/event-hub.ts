/**
 * The core's outgoing events: typed by the bridge's event table and validated before any
 * listener sees them, so a bug in main never reaches the window as a malformed payload.
 */
import { bridgeEvents, type BridgeEvent, type BridgePayload } from '../../shared/bridge';
import { coreProbe } from './probe';

export type EventListener<E extends BridgeEvent> = (payload: BridgePayload<E>) => void;

export interface EventHub {
  emit<E extends BridgeEvent>(event: E, payload: BridgePayload<E>): void;
  on<E extends BridgeEvent>(event: E, listener: EventListener<E>): () => void;
  clear(): void;
}

export function createEventHub(onListenerError: (event: BridgeEvent, error: unknown) => void = () => {}): EventHub {
  const listeners = new Map<BridgeEvent, Set<(payload: unknown) => void>>();
  return {
    emit(event, payload) {
      coreProbe.onEmit?.(event);
      const set = listeners.get(event);
      if (!set || set.size === 0) return;
      const parsed: unknown = bridgeEvents[event].payload.parse(payload);
      for (const listener of [...set]) {
        try {
          listener(parsed);
        } catch (error) {
          onListenerError(event, error);
        }
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => set.delete(entry);
    },
    clear() {
      listeners.clear();
    },
  };
}
