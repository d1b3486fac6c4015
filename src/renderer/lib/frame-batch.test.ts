import { describe, expect, it } from 'vitest';
import { createFrameBatch } from './frame-batch';

function manualFrames() {
  const queued: (() => void)[] = [];
  return {
    schedule: (run: () => void) => void queued.push(run),
    frame: () => queued.splice(0).forEach((run) => run()),
    get pending() {
      return queued.length;
    },
  };
}

describe('createFrameBatch', () => {
  it('applies only the latest update per key, once, in the next frame', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const applied: string[] = [];
    batch.put('book:s1', () => applied.push('s1 v1'));
    batch.put('markets', () => applied.push('markets v1'));
    batch.put('book:s1', () => applied.push('s1 v2'));
    expect(applied).toEqual([]);
    expect(frames.pending).toBe(1);
    frames.frame();
    expect(applied).toEqual(['s1 v2', 'markets v1']);
    frames.frame();
    expect(applied).toHaveLength(2);
  });

  it('leaves what is not market data to run at once, ahead of the frame’s market updates', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const order: string[] = [];
    batch.put('book:s1', () => order.push('book'));
    // The answer to the window's own order is applied by its listener directly.
    order.push('answer');
    frames.frame();
    expect(order).toEqual(['answer', 'book']);
  });

  it('drops a key whose view went away', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const applied: string[] = [];
    batch.put('book:s1', () => applied.push('s1'));
    batch.drop('book:s1');
    frames.frame();
    expect(applied).toEqual([]);
  });
});
