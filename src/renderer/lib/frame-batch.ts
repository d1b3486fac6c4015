/**
 * Market data applied once per animation frame. A bridge event of the market (a book, the market
 * list, an oracle price) only records what it brings, latest per key; the frame applies them all in
 * one go, so a burst costs one store update and one render per frame, and the event that matters to
 * the trader now (the exchange's answer to their own order, applied at once by its listener) is never
 * handled behind a queue of market updates. Main already sends market data at most once per frame
 * (src/main/core/window-outbox.ts); this keeps the window's work to one frame's worth however the
 * events bunch up on the way.
 */
export interface FrameBatch {
  /** Runs `apply` in the next frame, replacing whatever waits under the same key. */
  put(key: string, apply: () => void): void;
  /** Drops what waits under `key` (its view is going away). */
  drop(key: string): void;
}

type Schedule = (run: () => void) => void;

/** The next animation frame where there is one (the window), else the next task (tests under node). */
const nextFrame: Schedule = (run) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => run());
  else setTimeout(run, 0);
};

export function createFrameBatch(schedule: Schedule = nextFrame): FrameBatch {
  const waiting = new Map<string, () => void>();
  let scheduled = false;
  const run = (): void => {
    scheduled = false;
    const due = [...waiting.values()];
    waiting.clear();
    for (const apply of due) {
      try {
        apply();
      } catch (error) {
        // One view's failure must not cost the others their update; it stays visible as uncaught.
        setTimeout(() => {
          throw error;
        });
      }
    }
  };
  return {
    put(key, apply) {
      waiting.set(key, apply);
      if (scheduled) return;
      scheduled = true;
      schedule(run);
    },
    drop(key) {
      waiting.delete(key);
    },
  };
}

/** The window's one frame batch of market data. */
export const perFrame = createFrameBatch();
