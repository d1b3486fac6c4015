/**
 * Whether the person is at the window now. Main sees real keyboard, mouse and touch input before
 * the page does (webContents 'before-input-event', 'before-mouse-event' and 'input-event', wired in
 * src/main/window/create-window.ts). The page's own script cannot produce those events: a DOM event
 * it dispatches never leaves the renderer, and webContents.sendInputEvent belongs to main. Bridge
 * calls never count as presence.
 *
 * A gesture is a fresh press: a key going down (not auto-repeat), a mouse button going down, a
 * touch starting. Its release keeps an untaken gesture fresh (a long press on the Panic button
 * still counts when the click lands), but never re-arms one already taken: the key released after
 * the panic hotkey must not allow a second panic. Moves and the wheel are activity (they keep the
 * auto-lock open) and no gesture at all.
 *
 * An action that needs the person (kit.panic) takes the latest gesture if it is at most
 * GESTURE_WINDOW_MS old and not yet taken: each gesture allows one such action.
 */

/** What main saw, by the webContents event that carried it (Electron's own type names). */
export type UserInput =
  /** before-input-event: a key going down or up. */
  | { readonly device: 'key'; readonly type: string; readonly repeat: boolean }
  /** before-mouse-event: a button, a move, the wheel. */
  | { readonly device: 'mouse'; readonly type: string }
  /** input-event, touches only (keys and the mouse arrive by the two events above). */
  | { readonly device: 'touch'; readonly type: string };

/**
 * How long after the press the action may reach main. The page answers a press in the same task,
 * and the bridge hop takes milliseconds; 2 s still covers a renderer busy for several frames
 * (ladder repaints at the feed's rate, a garbage collection) without ever refusing a real press,
 * while the press and the action stay one act to the person. Each gesture is taken once anyway.
 */
export const GESTURE_WINDOW_MS = 2_000;

const PRESS: Record<UserInput['device'], string> = { key: 'keyDown', mouse: 'mouseDown', touch: 'touchStart' };
const RELEASE: Record<UserInput['device'], string> = { key: 'keyUp', mouse: 'mouseUp', touch: 'touchEnd' };

/** A key, button or touch going down (a key's auto-repeat too): what may be an order's hotkey or click. */
export function isPress(input: UserInput): boolean {
  return input.type === PRESS[input.device];
}

export class UserPresence {
  readonly #now: () => number;
  /** When the latest gesture was pressed (or released, while untaken); null before the first. */
  #at: number | null = null;
  #taken = true;

  constructor(now: () => number) {
    this.#now = now;
  }

  note(input: UserInput): void {
    if (isPress(input) && !(input.device === 'key' && input.repeat)) {
      this.#at = this.#now();
      this.#taken = false;
    } else if (input.type === RELEASE[input.device] && !this.#taken) {
      this.#at = this.#now();
    }
  }

  /**
   * Takes the latest gesture: true when one was made at most `withinMs` ago and not taken yet. A
   * clock that went back since then counts as too old (the person presses again).
   */
  takeGesture(withinMs: number = GESTURE_WINDOW_MS): boolean {
    if (this.#at === null || this.#taken) return false;
    const age = this.#now() - this.#at;
    if (age < 0 || age > withinMs) return false;
    this.#taken = true;
    return true;
  }
}
