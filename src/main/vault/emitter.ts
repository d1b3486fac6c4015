/** A minimal typed event emitter: `on` returns the function that unsubscribes. */
export class Emitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      // A failing listener must not stop the others or the vault operation that emitted.
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch {
        /* listeners own their errors */
      }
    }
  }
}
