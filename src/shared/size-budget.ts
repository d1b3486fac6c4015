/**
 * How big a value is, counted only as far as a budget. The walk stops at the first limit passed and
 * refuses an array or object by its length before visiting it, so measuring a hostile value costs at
 * most the budget (plus one native pass over an object's keys), never the value's own size. Used
 * before anything parses what the window sent: zod walks every item of a record or array before it
 * checks a maximum, and a million items hold main's event loop for seconds.
 */

export interface SizeBudget {
  /** Values of any kind: each object, array, string, number or boolean counts one. */
  readonly values: number;
  /** Characters of every string and object key together (bytes for binary data). */
  readonly chars: number;
  /** Levels of objects and arrays inside one another. */
  readonly depth: number;
}

export type SizeExcess = 'values' | 'chars' | 'depth';

/** The first limit of `budget` that `value` passes, or null when it fits. */
export function sizeExcess(value: unknown, budget: SizeBudget): SizeExcess | null {
  let values = 0;
  let chars = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    values += 1;
    if (values > budget.values) return 'values';
    if (typeof v === 'string') {
      chars += v.length;
      if (chars > budget.chars) return 'chars';
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) {
      chars += v.byteLength;
      if (chars > budget.chars) return 'chars';
      continue;
    }
    if (depth >= budget.depth) return 'depth';
    if (Array.isArray(v)) {
      // Refused by its length alone: a sparse array of 2^32 - 1 slots costs nothing here.
      if (values + stack.length + v.length > budget.values) return 'values';
      for (const item of v as unknown[]) stack.push([item, depth + 1]);
      continue;
    }
    const keys = Object.keys(v);
    if (values + stack.length + keys.length > budget.values) return 'values';
    for (const key of keys) {
      chars += key.length;
      if (chars > budget.chars) return 'chars';
      stack.push([(v as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return null;
}

/** "more than 10,000 values", for a sentence that names the limit passed. */
export function describeExcess(excess: SizeExcess, budget: SizeBudget): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  switch (excess) {
    case 'values':
      return `more than ${n(budget.values)} values`;
    case 'chars':
      return `more than ${n(budget.chars)} characters`;
    case 'depth':
      return `nested more than ${n(budget.depth)} levels deep`;
  }
}
