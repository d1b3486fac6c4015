/**
 * Runs a task often while the person is at the window and not at all when they are not: at once on
 * a press, then every `periodMs` until `activeMs` after the last input. The session renews the order
 * gate's figures this way (session.ts personActive), so a hotkey finds them made and an idle app does
 * not wake main tens of times a second for them. A throw from the task is dropped: what it prepares,
 * the gate computes itself when it finds it missing.
 */
export interface WhileActiveOptions {
  periodMs: number;
  activeMs: number;
  run(): void;
  now(): number;
  /** Resolves after `ms`; the session's timers, so its stop() ends the loop. */
  sleep(ms: number): Promise<void>;
  stopped(): boolean;
}

export class WhileActive {
  readonly #o: WhileActiveOptions;
  #until = 0;
  #looping = false;

  constructor(options: WhileActiveOptions) {
    this.#o = options;
  }

  /** Whether the loop runs now (for tests and the status of a session). */
  get running(): boolean {
    return this.#looping;
  }

  /** Input seen: `press` is a key, button or touch going down; other input (moves) only keeps it going. */
  note(press: boolean): void {
    if (this.#o.stopped()) return;
    this.#until = this.#o.now() + this.#o.activeMs;
    if (press) this.#runQuietly();
    if (!this.#looping) void this.#loop();
  }

  async #loop(): Promise<void> {
    this.#looping = true;
    try {
      while (!this.#o.stopped() && this.#o.now() < this.#until) {
        await this.#o.sleep(this.#o.periodMs);
        if (!this.#o.stopped()) this.#runQuietly();
      }
    } finally {
      this.#looping = false;
    }
  }

  #runQuietly(): void {
    try {
      this.#o.run();
    } catch {
      // See above: the gate computes what it needs itself.
    }
  }
}
