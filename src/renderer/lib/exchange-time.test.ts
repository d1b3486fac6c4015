import { get, writable } from 'svelte/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clockUncertaintyText,
  countdownText,
  epochEndedReason,
  epochPhase,
  tickingExchangeClock,
  utcClockText,
  type ClockEstimate,
} from './exchange-time';

// Local time starts 2_350 ms before an exchange-clock whole second; the exchange runs 1_234 ms ahead.
const OFFSET = 1_234;
const EXPIRY = Date.UTC(2026, 0, 2, 3, 4, 5); // exchange time, a whole second
const LOCAL_START = EXPIRY - OFFSET - 12_345;

describe('the exchange clock across an expiry, with an injected offset', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(LOCAL_START);
  });
  afterEach(() => vi.useRealTimers());

  it('every place that shows time reads the exchange clock within a tenth, and leaves "live" at the expiry instant', () => {
    const estimate = writable<ClockEstimate>({ offsetMs: OFFSET, uncertaintyMs: 4 });
    const clock = tickingExchangeClock(estimate);
    const market = { expiration: EXPIRY, resolved: false };
    let shown = 0;
    const off = clock.subscribe((t) => (shown = t));
    const seen: { truth: number; countdown: string; status: string; phase: string }[] = [];
    // 17 s of 7 ms steps (not a divisor of the tick): the view is compared with the truth after each.
    for (let i = 0; i < 17_000 / 7; i++) {
      vi.advanceTimersByTime(7);
      const truth = Date.now() + OFFSET;
      // Never ahead of the exchange, never a tick behind it.
      expect(shown).toBeLessThanOrEqual(truth);
      expect(truth - shown).toBeLessThan(100);
      seen.push({
        truth,
        countdown: countdownText(market, shown), // header and market list
        status: utcClockText(shown), // status bar
        phase: epochPhase(market, shown), // header's epoch label and the ticket
      });
    }
    off();
    for (const s of seen) {
      // The status bar's second is the exchange's second (rounded down, at most a tick late).
      expect([utcClockText(s.truth), utcClockText(s.truth - 99)]).toContain(s.status);
      const left = EXPIRY - s.truth;
      if (left <= 0) {
        // From the first tick at or past the expiry: ended everywhere (the tick lands on the second).
        expect(s.phase).toBe('ended');
        expect(s.countdown).toBe('ended');
      } else if (left > 100) {
        expect(s.phase).toBe('live');
        if (left < 9_900) {
          // Tenths, at most one tick (0.1 s) more than is left, never less.
          const m = /^0:0(\d)\.(\d)$/.exec(s.countdown);
          expect(m).not.toBeNull();
          const shownLeft = Number(m![1]) * 1000 + Number(m![2]) * 100;
          expect(shownLeft).toBeLessThanOrEqual(left + 100);
          expect(shownLeft).toBeGreaterThan(left - 100);
        } else if (left > 10_100) {
          // Whole seconds, rounded down: at most a tick more than is left.
          expect(s.countdown).toMatch(/^0:1\d$/);
          const shownLeft = Number(s.countdown.slice(2)) * 1000;
          expect(shownLeft).toBeLessThanOrEqual(left + 100);
          expect(shownLeft).toBeGreaterThan(left - 1000);
        }
      }
    }
    // It was ended at the expiry itself: the first sample at or past it already says so.
    const firstAfter = seen.find((s) => s.truth >= EXPIRY + 7);
    expect(firstAfter?.phase).toBe('ended');
    // And the countdown passed through the last second in tenths.
    expect(seen.map((s) => s.countdown)).toEqual(expect.arrayContaining(['0:04.9', '0:00.8', '0:00.1', 'ended']));
  });

  it('follows a new offset at once, not at the next tick', () => {
    const estimate = writable<ClockEstimate>({ offsetMs: 0, uncertaintyMs: null });
    const clock = tickingExchangeClock(estimate);
    const values: number[] = [];
    const off = clock.subscribe((t) => values.push(t));
    estimate.set({ offsetMs: 1_500, uncertaintyMs: 20 });
    expect(get(clock)).toBe(Date.now() + 1_500);
    off();
  });

  it('re-arms a timer that fires early instead of showing the boundary before it is reached', () => {
    let local = 1_000_050;
    const pending: { fn: () => void; ms: number }[] = [];
    const clock = tickingExchangeClock(writable({ offsetMs: 0, uncertaintyMs: 1 }), () => local, {
      set: (fn, ms) => pending.push({ fn, ms }),
      clear: () => undefined,
    });
    const values: number[] = [];
    const off = clock.subscribe((t) => values.push(t));
    expect(pending.at(-1)?.ms).toBe(50);
    local = 1_000_098; // fired 2 ms early
    pending.at(-1)!.fn();
    expect(values.at(-1)).toBe(1_000_050);
    expect(pending.at(-1)?.ms).toBe(2);
    local = 1_000_100;
    pending.at(-1)!.fn();
    expect(values.at(-1)).toBe(1_000_100);
    off();
  });

  it('says how sure it is of the exchange clock', () => {
    expect(clockUncertaintyText({ offsetMs: 0, uncertaintyMs: null })).toBe('not measured yet');
    expect(clockUncertaintyText({ offsetMs: 10, uncertaintyMs: 3.4 })).toBe('±3 ms');
    expect(countdownText({ expiration: EXPIRY, resolved: true }, EXPIRY - 5_000)).toBe('resolved');
  });
});

describe('why an epoch does not trade', () => {
  const market = { epoch: '12', expiration: 60_000, resolved: false };
  it('is null while the live epoch runs; says so once it ended or for an earlier epoch', () => {
    expect(epochEndedReason(market, '12', 59_999)).toBeNull();
    expect(epochEndedReason(market, '12', 60_000)).toBe('This epoch has ended; the next one opens shortly.');
    expect(epochEndedReason({ ...market, resolved: true }, '12', 1)).toBe(
      'This epoch has ended; the next one opens shortly.',
    );
    expect(epochEndedReason(market, '11', 1)).toBe('This epoch is no longer trading.');
  });
});
