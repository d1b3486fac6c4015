import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST } from './slow-first-sequencer';

describe('the longest-first list', () => {
  it('names files that exist (a renamed file would silently lose its place)', () => {
    expect(LONGEST_FIRST.filter((f) => !existsSync(f))).toEqual([]);
  });
});
