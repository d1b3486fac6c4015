import { describe, expect, it } from 'vitest';
import { pollReceipt } from './receipt-poll';

/** A source that answers null `misses` times, then the receipt; records overlapping requests. */
function source(misses: number) {
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    get calls() {
      return calls;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    async getTransactionReceipt(hash: string) {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight--;
      return calls > misses ? { hash, status: 1 } : null;
    },
  };
}

describe('pollReceipt', () => {
  it('asks one request at a time until the receipt exists, sleeping between requests', async () => {
    const s = source(3);
    const sleeps: number[] = [];
    const receipt = await pollReceipt(s, '0xabc', {
      pollMs: 25,
      deadline: Infinity,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    expect(receipt).toEqual({ hash: '0xabc', status: 1 });
    expect(s.calls).toBe(4);
    expect(sleeps).toEqual([25, 25, 25]);
    expect(s.maxInFlight).toBe(1);
  });

  it('returns null once the deadline has passed, after one last request', async () => {
    const s = source(Infinity);
    let now = 0;
    const receipt = await pollReceipt(s, '0xabc', {
      pollMs: 100,
      deadline: 250,
      now: () => now,
      sleep: (ms) => {
        now += ms;
        return Promise.resolve();
      },
    });
    expect(receipt).toBeNull();
    expect(s.calls).toBe(4); // at 0, 100, 200 and 300 ms: the last one is past the deadline
  });

  it('returns a receipt found at the deadline rather than giving up', async () => {
    const s = source(2);
    let now = 0;
    const receipt = await pollReceipt(s, '0xabc', {
      pollMs: 100,
      deadline: 150,
      now: () => now,
      sleep: (ms) => Promise.resolve(void (now += ms)),
    });
    expect(receipt).not.toBeNull();
  });
});
