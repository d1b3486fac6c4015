// The README's headless example, run for real: a devnet in-process (no bots, ephemeral ports), the
// script's function against the devnet.json it wrote, each step checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHeadlessTrader } from '../../scripts/examples/headless-trader';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';

let temp: TempDevnet;

beforeAll(async () => {
  temp = await startTempDevnet('headless-example-', { bots: 0, demoAccounts: 1, blockTimeMs: 500 });
}, 120_000);

afterAll(async () => {
  await temp?.stop();
});

describe('scripts/examples/headless-trader.ts', () => {
  it('reads the book, follows the feed, places, finds and cancels a resting order', async () => {
    const lines: string[] = [];
    const run = await runHeadlessTrader(temp.devnet.devnetFile, (line) => lines.push(line));

    expect(run.orderId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(lines.some((l) => l.startsWith('order ') && l.includes('ACCEPTED') && l.includes(run.orderId))).toBe(true);
    expect(run.seenResting).toBe(true);
    expect(run.cancelStatus).toBe('CANCELLED');
    expect(run.stillResting).toBe(false);
    // Its own order and cancel reach the feed: at least one update, and the order among them.
    expect(run.feedUpdates.length).toBeGreaterThan(0);
    expect(run.feedUpdates.some((u) => u.type === 'order' && u.data.orderId === run.orderId)).toBe(true);
    expect(run.feedUpdates.some((u) => u.type === 'cancel' && u.data.cancelId === run.orderId)).toBe(true);
    for (const step of ['client ', 'balance ', 'book ', 'feed ', 'order ', 'resting ', 'cancel ', 'closed ']) {
      expect(lines.some((l) => l.startsWith(step))).toBe(true);
    }
  }, 120_000);
});
