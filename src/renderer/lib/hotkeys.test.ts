import { describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEYS } from '../../shared/settings-schema';
import { comboFromEvent, isTypingTarget, matchHotkey } from './hotkeys';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('hotkeys', () => {
  it('writes combos in the settings syntax', () => {
    expect(comboFromEvent(key('b'))).toBe('B');
    expect(comboFromEvent(key('B', { shiftKey: true }))).toBe('Shift+B');
    expect(comboFromEvent(key('x', { ctrlKey: true, altKey: true, shiftKey: true }))).toBe('Ctrl+Alt+Shift+X');
    expect(comboFromEvent(key(' '))).toBe('Space');
    expect(comboFromEvent(key('Shift', { shiftKey: true }))).toBeNull();
  });

  it('matches bound actions', () => {
    expect(matchHotkey(DEFAULT_HOTKEYS, key('B', { shiftKey: true }), null)).toBe('buyAtBest');
    expect(matchHotkey(DEFAULT_HOTKEYS, key('b'), { tagName: 'DIV' })).toBe('joinBid');
    expect(matchHotkey(DEFAULT_HOTKEYS, key('ArrowUp'), null)).toBe('priceTickUp');
    expect(matchHotkey(DEFAULT_HOTKEYS, key('q'), null)).toBeNull();
  });

  it('ignores keys typed into fields', () => {
    expect(isTypingTarget({ tagName: 'input' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(matchHotkey(DEFAULT_HOTKEYS, key('1'), { tagName: 'TEXTAREA' })).toBeNull();
    expect(matchHotkey(DEFAULT_HOTKEYS, key('1'), { tagName: 'BUTTON' })).toBe('sizePreset1');
  });
});
