import { describe, expect, it } from 'vitest';
import { gasWithMargin, sendWithGasMargin } from './gas-margin';

describe('gasWithMargin', () => {
  it('adds a fifth and 25,000 to the estimate, in integers', () => {
    expect(gasWithMargin(0n)).toBe(25_000n);
    expect(gasWithMargin(100_000n)).toBe(145_000n);
    expect(gasWithMargin(46_003n)).toBe(46_003n + 9_200n + 25_000n);
  });

  it('covers a zero-to-non-zero storage write the estimate did not see (20,000 − 2,900 gas)', () => {
    for (const estimate of [21_000n, 50_000n, 120_000n, 250_000n]) {
      expect(gasWithMargin(estimate) - estimate).toBeGreaterThanOrEqual(20_000n - 2_900n);
    }
  });

  it('refuses a negative estimate', () => {
    expect(() => gasWithMargin(-1n)).toThrow(RangeError);
  });
});

describe('sendWithGasMargin', () => {
  it('estimates with the call arguments, then sends them with the margin as the gas limit', async () => {
    const calls: { estimate: unknown[][]; send: unknown[][] } = { estimate: [], send: [] };
    const method = {
      estimateGas: (...args: unknown[]) => (calls.estimate.push(args), Promise.resolve(100_000n)),
      send: (...args: unknown[]) => (calls.send.push(args), Promise.resolve('0xsent')),
    };
    expect(await sendWithGasMargin(method, '0xabc', 7n)).toBe('0xsent');
    expect(calls.estimate).toEqual([['0xabc', 7n]]);
    expect(calls.send).toEqual([['0xabc', 7n, { gasLimit: 145_000n }]]);
  });

  it('sends nothing when the estimate fails (the call would revert)', async () => {
    let sent = 0;
    const method = {
      estimateGas: () => Promise.reject(new Error('execution reverted')),
      send: () => Promise.resolve(++sent),
    };
    await expect(sendWithGasMargin(method)).rejects.toThrow('execution reverted');
    expect(sent).toBe(0);
  });
});
