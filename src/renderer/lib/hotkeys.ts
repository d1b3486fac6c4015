/** Hotkey matching: turns a key event into the settings' combo syntax ("Ctrl+Shift+B"). */
import type { HotkeyAction } from '../../shared/settings-schema';

export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

export interface TargetLike {
  readonly tagName?: string;
  readonly isContentEditable?: boolean;
}

const MODIFIER_KEYS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'AltGraph', 'CapsLock']);

/** The combo for an event, or null for a bare modifier press. Letters are upper case as in settings. */
export function comboFromEvent(event: KeyLike): string | null {
  if (MODIFIER_KEYS.has(event.key)) return null;
  const key = event.key === ' ' ? 'Space' : event.key.length === 1 ? event.key.toUpperCase() : event.key;
  return [event.ctrlKey && 'Ctrl', event.altKey && 'Alt', event.shiftKey && 'Shift', event.metaKey && 'Meta', key]
    .filter(Boolean)
    .join('+');
}

/** Keys typed into a field belong to the field, never to a hotkey. */
export function isTypingTarget(target: TargetLike | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

export function matchHotkey(
  bindings: Readonly<Record<HotkeyAction, string>>,
  event: KeyLike,
  target: TargetLike | null,
): HotkeyAction | null {
  if (isTypingTarget(target)) return null;
  const combo = comboFromEvent(event);
  if (!combo) return null;
  for (const [action, bound] of Object.entries(bindings) as [HotkeyAction, string][]) {
    if (bound === combo) return action;
  }
  return null;
}
