// A gesture is a fresh press seen by main; each one is taken at most once, and only while fresh.
import { describe, expect, it } from 'vitest';
import { GESTURE_WINDOW_MS, UserPresence } from './user-presence';

function presence() {
  let now = 1_000_000;
  const p = new UserPresence(() => now);
  return { p, advance: (ms: number) => void (now += ms) };
}

describe('user presence', () => {
  it('has no gesture before any input, and none from moves, the wheel or characters', () => {
    const { p } = presence();
    expect(p.takeGesture()).toBe(false);
    p.note({ device: 'mouse', type: 'mouseMove' });
    p.note({ device: 'mouse', type: 'mouseWheel' });
    p.note({ device: 'touch', type: 'touchMove' });
    p.note({ device: 'key', type: 'keyUp', repeat: false });
    expect(p.takeGesture()).toBe(false);
  });

  it('lets each press (key, button, touch) be taken once', () => {
    const { p } = presence();
    for (const press of [
      { device: 'key', type: 'keyDown', repeat: false },
      { device: 'mouse', type: 'mouseDown' },
      { device: 'touch', type: 'touchStart' },
    ] as const) {
      p.note(press);
      expect(p.takeGesture(), press.device).toBe(true);
      expect(p.takeGesture(), `${press.device} a second time`).toBe(false);
    }
  });

  it('does not re-arm a taken gesture on its release, nor on a held key repeating', () => {
    const { p } = presence();
    p.note({ device: 'key', type: 'keyDown', repeat: false });
    expect(p.takeGesture()).toBe(true);
    p.note({ device: 'key', type: 'keyDown', repeat: true });
    p.note({ device: 'key', type: 'keyUp', repeat: false });
    expect(p.takeGesture()).toBe(false);
    p.note({ device: 'mouse', type: 'mouseDown' });
    expect(p.takeGesture()).toBe(true);
    p.note({ device: 'mouse', type: 'mouseUp' });
    expect(p.takeGesture()).toBe(false);
  });

  it('refuses a gesture older than the window, and keeps a long press fresh until its release', () => {
    const { p, advance } = presence();
    p.note({ device: 'mouse', type: 'mouseDown' });
    advance(GESTURE_WINDOW_MS + 1);
    expect(p.takeGesture()).toBe(false);
    p.note({ device: 'mouse', type: 'mouseDown' });
    advance(GESTURE_WINDOW_MS);
    expect(p.takeGesture()).toBe(true);
    // Held for 5 s, then released: the click lands on release.
    p.note({ device: 'mouse', type: 'mouseDown' });
    advance(5_000);
    p.note({ device: 'mouse', type: 'mouseUp' });
    expect(p.takeGesture()).toBe(true);
  });

  it('counts a clock that went back since the press as too old', () => {
    const { p, advance } = presence();
    p.note({ device: 'key', type: 'keyDown', repeat: false });
    advance(-60_000);
    expect(p.takeGesture()).toBe(false);
  });
});
