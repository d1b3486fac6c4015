import { get } from 'svelte/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  currentNotice,
  dismissNotice,
  markNoticesRead,
  noticeLog,
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
    expect(get(noticeLog).map((n) => n.status ?? n.level)).toEqual(['info', 'ACCEPTED']);
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

  it('the log is bounded', () => {
    for (let i = 0; i < NOTICE_LOG_LIMIT + 25; i++) pushNotice('info', `n${i}`);
    const log = get(noticeLog);
    expect(log).toHaveLength(NOTICE_LOG_LIMIT);
    expect(log[0]!.message).toBe(`n${NOTICE_LOG_LIMIT + 24}`);
  });
});
