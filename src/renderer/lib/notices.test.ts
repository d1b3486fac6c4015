import { get } from 'svelte/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  currentNotice,
  dismissNotice,
  markNoticesRead,
  noticeLog,
  NOTICE_HELD_MS,
  NOTICE_LIFETIME_MS,
  NOTICE_LOG_LIMIT,
  pushNotice,
  unreadNotices,
} from './notices';

describe('notices', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    noticeLog.set([]);
    currentNotice.set(null);
    markNoticesRead();
  });
  afterEach(() => vi.useRealTimers());

  it('shows the newest in the strip and keeps every one in the log, newest first', () => {
    pushNotice('success', 'BTC 5m #3: Buy 3 at 40¢ is resting', 'ACCEPTED');
    pushNotice('info', 'BTC 5m #3: bought 3 Up contracts at 40¢ (your resting order filled).');
    expect(get(currentNotice)?.message).toMatch(/bought 3/);
    expect(get(noticeLog).map((n) => n.status ?? n.level)).toEqual(['info', 'resting']);
    expect(get(unreadNotices)).toBe(2);
    markNoticesRead();
    expect(get(unreadNotices)).toBe(0);
  });

  it('routine notices leave the strip quickly, errors stay longer, the log keeps both', () => {
    pushNotice('success', 'Cancelled 2 orders');
    vi.advanceTimersByTime(NOTICE_LIFETIME_MS.success);
    expect(get(currentNotice)).toBeNull();
    pushNotice('error', 'Not sent: this order needs $990.00 of collateral');
    vi.advanceTimersByTime(NOTICE_LIFETIME_MS.success);
    expect(get(currentNotice)?.level).toBe('error');
    vi.advanceTimersByTime(NOTICE_LIFETIME_MS.error - NOTICE_LIFETIME_MS.success);
    expect(get(currentNotice)).toBeNull();
    expect(get(noticeLog)).toHaveLength(2);
    expect(NOTICE_LIFETIME_MS.info).toBeLessThan(NOTICE_LIFETIME_MS.error);
  });

  it('a newer notice is not cleared by an older one’s timer; dismiss clears the strip only', () => {
    pushNotice('info', 'first');
    vi.advanceTimersByTime(NOTICE_LIFETIME_MS.info - 1);
    pushNotice('warning', 'second');
    vi.advanceTimersByTime(2);
    expect(get(currentNotice)?.message).toBe('second');
    dismissNotice(get(currentNotice)!.id);
    expect(get(currentNotice)).toBeNull();
    expect(get(noticeLog)).toHaveLength(2);
  });

  it('routine news waits until a warning has been on the strip a few seconds; the log has it at once', () => {
    pushNotice('warning', 'BTC 1m #4 ended with 2 of your orders resting (2 buys): …');
    vi.advanceTimersByTime(1000);
    pushNotice('info', 'BTC 1m #4 resolved Up; #5 is trading.');
    expect(get(currentNotice)?.level).toBe('warning');
    expect(get(noticeLog).map((n) => n.level)).toEqual(['info', 'warning']);
    vi.advanceTimersByTime(NOTICE_HELD_MS - 1000);
    expect(get(currentNotice)?.message).toMatch(/resolved Up/);
    // Anything but routine news takes the strip at once.
    pushNotice('error', 'Lost the connection');
    pushNotice('success', 'Cancelled 2 orders');
    expect(get(currentNotice)?.message).toBe('Cancelled 2 orders');
  });

  it('the log is bounded', () => {
    for (let i = 0; i < NOTICE_LOG_LIMIT + 25; i++) pushNotice('info', `n${i}`);
    const log = get(noticeLog);
    expect(log).toHaveLength(NOTICE_LOG_LIMIT);
    expect(log[0]!.message).toBe(`n${NOTICE_LOG_LIMIT + 24}`);
  });
});
