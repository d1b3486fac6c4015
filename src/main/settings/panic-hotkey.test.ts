// The panic hotkey came after settings were first saved: a stored binding table without it still
// loads (with its default), and hotkeys stay off until the user turns them on.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/key-value-store';
import { DEFAULT_HOTKEYS, defaultSettings } from './schema';
import { SettingsService } from './settings-service';

describe('the panic hotkey', () => {
  it('is bound by default to three modifiers and P, with hotkeys off', () => {
    const s = defaultSettings();
    expect(s.hotkeys.enabled).toBe(false);
    expect(s.hotkeys.bindings.panic).toBe('Ctrl+Alt+Shift+P');
  });

  it('gets its default in settings saved before it existed, which keep every other binding', () => {
    const saved = defaultSettings();
    const { panic: _panic, ...older } = { ...saved.hotkeys.bindings, joinBid: 'J' };
    const store = createMemoryStore({ settings: { ...saved, hotkeys: { enabled: true, bindings: older } } });
    const service = new SettingsService({ store });
    expect(service.loadIssue).toBeNull();
    const s = service.getSettings();
    expect(s.hotkeys).toEqual({ enabled: true, bindings: { ...DEFAULT_HOTKEYS, joinBid: 'J' } });
  });
});
