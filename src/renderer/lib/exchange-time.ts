/**
 * The exchange's clock in the window: local time plus the offset main measures from the exchange's
 * answers (connection.clockOffsetMs). Epochs start and end by this clock, not by the local one.
 */
import { derived, get, type Readable } from 'svelte/store';
import { connectionView, now } from './terminal';

const offset = (): number => get(connectionView)?.clockOffsetMs ?? 0;

/** Exchange time now, in ms. */
export function exchangeTime(): number {
  return Date.now() + offset();
}

/** Exchange time, ticking with `now` (every second): for countdowns. */
export const exchangeNow: Readable<number> = derived(
  [now, connectionView],
  ([$now, $c]) => $now + ($c?.clockOffsetMs ?? 0),
);

/**
 * Calls `onReached` at the exchange-clock instant `at` (at once when already past), with a timer set
 * for that instant rather than the next one-second tick. Returns the function that cancels it.
 */
export function atExchangeTime(at: number, onReached: () => void, clock: () => number = exchangeTime): () => void {
  const ms = at - clock();
  if (ms <= 0) {
    onReached();
    return () => {};
  }
  const timer = setTimeout(onReached, ms);
  return () => clearTimeout(timer);
}
