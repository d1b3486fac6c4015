/** The session's timers: sleeps and repeating tasks that one stop() clears, so nothing runs after it. */
export class SessionTimers {
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #stopped = false;

  get stopped(): boolean {
    return this.#stopped;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.add(t);
    });
  }

  /** Runs `fn` every `ms` after the previous run ended (never two at once), until stop(). */
  every(ms: number, fn: () => Promise<void>): void {
    const tick = (): void => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        void fn()
          .catch(() => {})
          .finally(() => !this.#stopped && tick());
      }, ms);
      this.#timers.add(t);
    };
    tick();
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
}
