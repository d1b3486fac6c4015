import { describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEYS } from '../../shared/settings-schema';
import {
  LastOrderCanceller,
  comboFromEvent,
  isTypingTarget,
  joinTimeInForce,
  leavesField,
  matchHotkey,
  noQuoteText,
} from './hotkeys';

const key = (
  k: string,
  mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {},
) => ({
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

  it('matches panic only with all three modifiers, and never in a field', () => {
    const press = key('p', { ctrlKey: true, altKey: true, shiftKey: true });
    expect(matchHotkey(DEFAULT_HOTKEYS, press, null)).toBe('panic');
    expect(matchHotkey(DEFAULT_HOTKEYS, key('p', { ctrlKey: true, shiftKey: true }), null)).toBeNull();
    expect(matchHotkey(DEFAULT_HOTKEYS, press, { tagName: 'INPUT' })).toBeNull();
  });

  it('ignores keys typed into fields', () => {
    expect(isTypingTarget({ tagName: 'input' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(matchHotkey(DEFAULT_HOTKEYS, key('1'), { tagName: 'TEXTAREA' })).toBeNull();
    expect(matchHotkey(DEFAULT_HOTKEYS, key('1'), { tagName: 'BUTTON' })).toBe('sizePreset1');
  });

  it('Escape in a field leaves the field instead of firing a hotkey; elsewhere it is a hotkey', () => {
    expect(leavesField(key('Escape'), { tagName: 'INPUT' })).toBe(true);
    expect(leavesField(key('Escape'), { tagName: 'SELECT' })).toBe(true);
    expect(matchHotkey(DEFAULT_HOTKEYS, key('Escape'), { tagName: 'INPUT' })).toBeNull();
    expect(leavesField(key('Escape'), { tagName: 'DIV' })).toBe(false);
    expect(leavesField(key('Escape', { shiftKey: true }), { tagName: 'INPUT' })).toBe(false);
    expect(leavesField(key('a'), { tagName: 'INPUT' })).toBe(false);
    expect(matchHotkey(DEFAULT_HOTKEYS, key('Escape'), { tagName: 'DIV' })).toBe('cancelAllInMarket');
  });

  it("joins with the ticket's resting time in force: post-only stays post-only, IOC/FOK join as GTC", () => {
    expect(joinTimeInForce('ALO')).toBe('ALO');
    expect(joinTimeInForce('GTC')).toBe('GTC');
    expect(joinTimeInForce('IOC')).toBe('GTC');
    expect(joinTimeInForce('FOK')).toBe('GTC');
  });

  it('cancel-last pressed three times takes the three newest open orders of the market, not one thrice', () => {
    const m = { assetId: '1', epoch: '7' };
    const order = (orderId: string, placedAt: number, epoch = '7') => ({ orderId, assetId: '1', epoch, placedAt });
    const open = [order('0xa', 1), order('0xb', 4), order('0xc', 3), order('0xd', 2), order('0xe', 9, '6')];
    const c = new LastOrderCanceller();
    // The account view has not changed between presses (cancels not answered yet).
    expect([c.take(open, m), c.take(open, m), c.take(open, m)].map((o) => o?.orderId)).toEqual(['0xb', '0xc', '0xd']);
    expect(c.take(open, m)?.orderId).toBe('0xa');
    expect(c.take(open, m)).toBeNull();
  });

  it('a failed cancel makes the order eligible again; orders that left are forgotten', () => {
    const m = { assetId: '1', epoch: '7' };
    const a = { orderId: '0xA', assetId: '1', epoch: '7', placedAt: 1 };
    const b = { orderId: '0xb', assetId: '1', epoch: '7', placedAt: 2 };
    const c = new LastOrderCanceller();
    expect(c.take([a, b], m)?.orderId).toBe('0xb');
    c.done('0xb', false);
    expect(c.take([a, b], m)?.orderId).toBe('0xb');
    // b was cancelled and left; a is next, then nothing.
    expect(c.take([a], m)?.orderId).toBe('0xA');
    expect(c.take([a], m)).toBeNull();
  });
});

describe('a hotkey order with no quote on its side', () => {
  it('says which side is missing, in words, naming the market', () => {
    expect(noQuoteText('buyAtBest', 'BTC 5m #12')).toBe('No ask to buy from on BTC 5m #12.');
    expect(noQuoteText('sellAtBest', 'BTC 5m #12')).toBe('No bid to sell to on BTC 5m #12.');
    expect(noQuoteText('joinBid', 'ETH 5m #3')).toBe('No bid to join on ETH 5m #3.');
    expect(noQuoteText('joinAsk', 'ETH 5m #3')).toBe('No ask to join on ETH 5m #3.');
  });
});
