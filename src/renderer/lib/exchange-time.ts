/**
 * The exchange's clock in the window, the one every countdown, the status-bar clock and the ticket
 * read: local time plus the offset main measures from the exchange's own timestamps
 * (connection.clockOffsetMs, with its uncertainty). Epochs start and end by this clock.
 *
 * It ticks on the exchange clock's own tenths of a second, so an epoch ending at a whole second is
 * seen as ended by the first tick at or after that instant, never by a one-second timer that may be
 * up to a second behind.
 */
import { derived, readable, type Readable } from 'svelte/store';
import { formatCountdown } from './format';
import { connectionView } from './terminal';

/** What the window knows of the exchange's clock. */
export interface ClockEstimate {
  /** Exchange time minus local time, ms (0 before the first sample). */
  readonly offsetMs: number;
  /** Half-width of the estimate's uncertainty, ms; null before the first sample. */
  readonly uncertaintyMs: number | null;
}

/** The tick: countdowns show tenths in their last ten seconds. */
export const TICK_MS = 100;

interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A store of exchange time (ms) that changes at every `tickMs` boundary of the exchange clock, and at
 * once when the offset changes. A timer that fires early is re-armed for the rest, so the value at a
 * boundary is never read before it.
 */
export function tickingExchangeClock(
  estimate: Readable<ClockEstimate>,
  local: () => number = Date.now,
  timers: Timers = browserTimers,
  tickMs = TICK_MS,
): Readable<number> {
  return readable(local(), (set) => {
    let offset = 0;
    let handle: unknown = null;
    const arm = (): void => {
      const t = local() + offset;
      set(t);
      const next = t - (t % tickMs) + tickMs;
      if (handle !== null) timers.clear(handle);
      handle = timers.set(fire(next), next - t);
    };
    const fire = (target: number) => (): void => {
      handle = null;
      const t = local() + offset;
      if (t < target) handle = timers.set(fire(target), target - t);
      else arm();
    };
    const off = estimate.subscribe((e) => {
      offset = e.offsetMs;
      arm();
    });
    return () => {
      off();
      if (handle !== null) timers.clear(handle);
    };
  });
}

/** The estimate main pushes with every `connection` event. */
export const clockEstimate: Readable<ClockEstimate> = derived(connectionView, ($c) => ({
  offsetMs: $c?.clockOffsetMs ?? 0,
  uncertaintyMs: $c?.clockUncertaintyMs ?? null,
}));

/** Exchange time in ms, ticking every tenth of a second of the exchange clock. */
export const exchangeNow: Readable<number> = tickingExchangeClock(clockEstimate);

/** Where an epoch stands by the exchange clock. */
export type EpochPhase = 'live' | 'ended' | 'resolved';

export function epochPhase(market: { expiration: number; resolved: boolean }, exchangeMs: number): EpochPhase {
  if (market.resolved) return 'resolved';
  return exchangeMs >= market.expiration ? 'ended' : 'live';
}

/**
 * Why nothing may be traded on this epoch of the market, or null while it trades: an earlier epoch
 * picked in the header, or the live one past its end by the exchange clock (before the roll arrives).
 * One sentence for the ticket, Close position and the hotkeys alike.
 */
export function epochEndedReason(
  market: { epoch: string; expiration: number; resolved: boolean },
  epoch: string,
  exchangeMs: number,
): string | null {
  if (epoch !== market.epoch) return 'This epoch is no longer trading.';
  return epochPhase(market, exchangeMs) === 'live' ? null : 'This epoch has ended; the next one opens shortly.';
}

/** What a countdown to the market's expiry shows: the time left, "ended" or "resolved". */
export function countdownText(market: { expiration: number; resolved: boolean }, exchangeMs: number): string {
  const phase = epochPhase(market, exchangeMs);
  return phase === 'live' ? formatCountdown(market.expiration - exchangeMs) : phase;
}

/** "HH:MM:SS" of exchange time in UTC (epochs are in UTC), for the status bar. */
export function utcClockText(exchangeMs: number): string {
  return new Date(exchangeMs).toISOString().slice(11, 19);
}

/** "±12 ms" (or "not measured yet"): how far the exchange clock may be from what is shown. */
export function clockUncertaintyText(estimate: ClockEstimate): string {
  return estimate.uncertaintyMs === null
    ? 'not measured yet'
    : `±${Math.max(1, Math.round(estimate.uncertaintyMs))} ms`;
}
