import { describe, expect, it } from 'vitest';
import { TAG_CLEARANCE_PX, ticksClearOfTags } from './line-chart';

describe('ticksClearOfTags', () => {
  // 10 px per unit, price 0 at row 100 (rows grow downwards).
  const rowOf = (p: number): number => 100 - p * 10;
  const label = (p: number): string => p.toFixed(1);

  it('blanks the labels a tag would half cover and keeps the rest', () => {
    const ticks = [0, 1, 2, 3, 4];
    // A tag at 2.4 (row 76): 2 (row 80) and 3 (row 70) sit within its clearance, 1 and 4 do not.
    expect(ticksClearOfTags(ticks, [2.4], rowOf, label)).toEqual(['0.0', '1.0', '', '', '4.0']);
  });

  it('keeps every label with no tag, or with a tag off the scale', () => {
    expect(ticksClearOfTags([0, 1], [], rowOf, label)).toEqual(['0.0', '1.0']);
    expect(ticksClearOfTags([0, 1], [5], (p) => (p > 3 ? null : rowOf(p)), label)).toEqual(['0.0', '1.0']);
  });

  it('clears exactly the clearance: a label just outside it stays', () => {
    const atRow = (row: number): number => (100 - row) / 10;
    const tag = atRow(50);
    const ticks = [atRow(50 + TAG_CLEARANCE_PX), atRow(50 + TAG_CLEARANCE_PX - 1)];
    expect(ticksClearOfTags(ticks, [tag], rowOf, () => 'x')).toEqual(['x', '']);
  });
});
