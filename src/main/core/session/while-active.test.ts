import { describe, expect, it } from 'vitest';
import { WhileActive } from './while-active';

/** A clock and sleeps the test moves by hand; `runs` counts the task. */
function rig(periodMs = 25, activeMs = 60_000) {
  let now = 1_000;
  let stopped = false;
  const sleeping: { until: number; wake: () => void }[] = [];
  let runs = 0;
  let throwing = false;
  const active = new WhileActive({
    periodMs,
    activeMs,
    run: () => {
      runs++;
      if (throwing) throw new Error('no account yet');
    },
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleeping.push({ until: now + ms, wake })),
    stopped: () => stopped,
  });
  /** Moves the clock by `ms`, waking each sleep that ends on the way, in order. */
  const advance = async (ms: number): Promise<void> => {
    const end = now + ms;
    for (;;) {
      sleeping.sort((a, b) => a.until - b.until);
      const next = sleeping[0];
      if (!next || next.until > end) break;
      sleeping.shift();
      now = next.until;
      next.wake();
      await new Promise((r) => setImmediate(r));
    }
    now = end;
  };
  return {
    active,
    advance,
    runs: () => runs,
    sleeps: () => sleeping.length,
    stop: () => (stopped = true),
    throwing: (t: boolean) => (throwing = t),
  };
}

describe('WhileActive', () => {
  it('runs nothing and sleeps nothing before any input', async () => {
    const r = rig();
    await r.advance(10_000);
    expect(r.runs()).toBe(0);
    expect(r.sleeps()).toBe(0);
    expect(r.active.running).toBe(false);
  });

  it('runs at once on a press, then every period until the active time after the last input, then stops', async () => {
    const r = rig(25, 1_000);
    r.active.note(true);
    expect(r.runs()).toBe(1);
    await r.advance(500);
    expect(r.runs()).toBe(1 + 20);
    // A move half-way keeps it going a full active time from then, without a run of its own.
    r.active.note(false);
    expect(r.runs()).toBe(21);
    await r.advance(1_000);
    expect(r.runs()).toBe(21 + 40);
    await r.advance(5_000);
    expect(r.runs()).toBe(61);
    expect(r.active.running).toBe(false);
    expect(r.sleeps()).toBe(0);
    // The next press starts it again, one loop only however many presses come.
    r.active.note(true);
    r.active.note(true);
    expect(r.runs()).toBe(63);
    await r.advance(100);
    expect(r.runs()).toBe(63 + 4);
    expect(r.sleeps()).toBe(1);
  });

  it('runs nothing at once on a move, only on the period', async () => {
    const r = rig(25, 1_000);
    r.active.note(false);
    expect(r.runs()).toBe(0);
    await r.advance(50);
    expect(r.runs()).toBe(2);
  });

  it('drops a throw from the task and goes on; runs nothing once the session stopped', async () => {
    const r = rig(25, 1_000);
    r.throwing(true);
    expect(() => r.active.note(true)).not.toThrow();
    await r.advance(100);
    expect(r.runs()).toBe(5);
    r.throwing(false);
    r.stop();
    await r.advance(100);
    r.active.note(true);
    expect(r.runs()).toBe(5);
  });
});
