import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atExchangeTime } from './exchange-time';

describe('atExchangeTime', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires at the exchange-clock instant, not on the next whole second', () => {
    // The exchange is 400 ms ahead of the local clock: an epoch ending at exchange time 10_000 ends at local 9_600.
    let local = 9_000;
    const clock = () => local + 400;
    const fired = vi.fn();
    atExchangeTime(10_000, fired, clock);
    vi.advanceTimersByTime(599);
    expect(fired).not.toHaveBeenCalled();
    local = 9_600;
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('fires at once when the instant is already past, and can be cancelled', () => {
    const past = vi.fn();
    atExchangeTime(1_000, past, () => 2_000);
    expect(past).toHaveBeenCalledOnce();
    const later = vi.fn();
    const cancel = atExchangeTime(5_000, later, () => 2_000);
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(later).not.toHaveBeenCalled();
  });
});
