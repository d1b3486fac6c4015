/**
 * Heap measurements for the soak bench: the heap after a forced full GC, the least-squares slope of
 * a series of such samples, and which object kinds grew between two heap snapshots.
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

export interface HeapSample {
  /** ms since the start of the measurement. */
  atMs: number;
  /** V8 heap in use after a full GC, bytes. */
  heapUsed: number;
  /** The part of it that is compiled code (grows while the JIT still meets new paths). */
  codeUsed: number;
}

let gcFn: (() => void) | null = null;

/** A full GC on demand, also when node was started without --expose-gc. */
export function forceGc(): void {
  if (!gcFn) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gcFn = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    }
  }
  // Twice: the first pass can leave objects that only its finalizers released.
  gcFn();
  gcFn();
}

export function heapAfterGc(): { heapUsed: number; codeUsed: number } {
  forceGc();
  const code = v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_name.startsWith('code_'))
    .reduce((sum, s) => sum + s.space_used_size, 0);
  return { heapUsed: v8.getHeapStatistics().used_heap_size, codeUsed: code };
}

/** Least-squares slope over time, in MB per hour, of the heap (or of what `bytes` picks from each sample). */
export function slopeMbPerHour(
  samples: readonly HeapSample[],
  bytes: (s: HeapSample) => number = (s) => s.heapUsed,
): number {
  if (samples.length < 2) return NaN;
  const n = samples.length;
  const hours = samples.map((s) => s.atMs / 3_600_000);
  const mb = samples.map((s) => bytes(s) / 1_048_576);
  const tMean = hours.reduce((a, b) => a + b, 0) / n;
  const yMean = mb.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (hours[i]! - tMean) * (mb[i]! - yMean);
    den += (hours[i]! - tMean) ** 2;
  }
  return num / den;
}

/** Count and self size of one kind of heap object: a constructor's name, or `(type)` for strings, arrays and code. */
export interface KindTotal {
  count: number;
  bytes: number;
}

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Where a node's name is its content (a string's text, a number), nodes are grouped by their type alone. */
const NAMED_BY_CONTENT = new Set([
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'bigint',
  'regexp',
  'code',
]);

/** Objects by constructor, closures by function name, arrays and V8's hidden objects by their kind, the rest by type. */
function kindName(type: string, name: string): string {
  if (type === 'object') return name;
  if (type === 'closure') return `${name || '(anonymous)'}()`;
  if (NAMED_BY_CONTENT.has(type)) return `(${type})`;
  return `(${type}) ${name}`;
}

/** Object kinds in a .heapsnapshot file with their count and self size. */
export function summariseSnapshot(path: string): Map<string, KindTotal> {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot;
  const fields = raw.snapshot.meta.node_fields;
  const types = raw.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const out = new Map<string, KindTotal>();
  for (let i = 0; i < raw.nodes.length; i += width) {
    const type = types[raw.nodes[i + typeAt]!]!;
    const name = kindName(type, raw.strings[raw.nodes[i + nameAt]!]!);
    const total = out.get(name) ?? { count: 0, bytes: 0 };
    total.count++;
    total.bytes += raw.nodes[i + sizeAt]!;
    out.set(name, total);
  }
  return out;
}

export interface KindGrowth {
  kind: string;
  count: number;
  bytes: number;
}

/** The kinds whose self size grew most from `before` to `after`, largest first. */
export function biggestGrowth(before: Map<string, KindTotal>, after: Map<string, KindTotal>, top = 12): KindGrowth[] {
  const rows: KindGrowth[] = [];
  for (const [kind, a] of after) {
    const b = before.get(kind) ?? { count: 0, bytes: 0 };
    rows.push({ kind, count: a.count - b.count, bytes: a.bytes - b.bytes });
  }
  return rows.sort((x, y) => y.bytes - x.bytes).slice(0, top);
}
