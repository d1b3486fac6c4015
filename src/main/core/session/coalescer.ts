/**
 * Rate-limits a stream of snapshots to at most `perSecond` emissions, always ending on the
 * latest value: the first update goes out at once, later ones within the interval are
 * folded into one trailing emission. Used for `book` events (30 a second per book), where
 * only the newest book matters.
 */
export interface Coalescer<T> {
  push(value: T): void;
  /** Drops a pending trailing emission. */
  dispose(): void;
}

export function createCoalescer<T>(
  emit: (value: T) => void,
  perSecond = 30,
  now: () => number = Date.now,
): Coalescer<T> {
  // Whole milliseconds, rounded up, so timer rounding can never squeeze in one more per second.
  const intervalMs = Math.ceil(1000 / perSecond);
  let lastEmit = -Infinity;
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    timer = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    lastEmit = now();
    emit(value);
  };

  return {
    push(value) {
      pending = { value };
      if (timer) return;
      const wait = lastEmit + intervalMs - now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
