/**
 * Arguments an attacker would pass, generated from a method's own zod argument schema: every leaf
 * gets the most hostile value its schema accepts (the attacker's address, a URL of a host main was
 * never given, a foreign chain id, the biggest and smallest numbers...), and union members each get
 * a variant. Driven only by the schema, so a method added later gets attacked without anyone writing
 * its arguments down.
 */
import type { z } from 'zod';

export interface HostileValues {
  readonly attacker: string;
  /** http(s)://, ws(s):// URLs of a host main was never configured with. */
  readonly urls: readonly string[];
}

interface Def {
  readonly type: string;
  readonly [key: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const MAX_VARIANTS = 6;

function strings(h: HostileValues): string[] {
  return [
    h.attacker,
    '1',
    ...h.urls,
    '1000000',
    '0',
    '999',
    'attacker',
    'Service Exchange',
    'devnet',
    `0x${'ab'.repeat(32)}`,
    `0x${'cd'.repeat(65)}`,
    '2025-01-01T00:00:00.000Z',
    '',
  ];
}

/** A few values the schema accepts, most hostile first (empty when none of ours fits). */
export function hostileValues(schema: z.ZodType, h: HostileValues, depth = 0): unknown[] {
  if (depth > 6) return [];
  const def = defOf(schema);
  const fits = (values: unknown[]): unknown[] =>
    values.filter((v) => schema.safeParse(v).success).slice(0, MAX_VARIANTS);
  const inner = (key: string): z.ZodType => def[key] as z.ZodType;
  switch (def.type) {
    case 'string':
      return fits(strings(h));
    case 'number':
      return fits([0, 1, 24 * 60, 2 ** 31 - 1, 199, -1]).slice(0, 3);
    case 'boolean':
      return [false, true];
    case 'bigint':
      return fits([0n, 1n, 2n ** 255n]);
    case 'literal':
      return [...(def['values'] as unknown[])];
    case 'enum':
      return Object.values(def['entries'] as Record<string, unknown>);
    case 'null':
      return [null];
    case 'unknown':
    case 'any':
      return [{ kind: 'withdrawals', receiver: h.attacker }, h.urls[0]];
    case 'optional':
      return [undefined, ...hostileValues(inner('innerType'), h, depth + 1)].slice(0, MAX_VARIANTS);
    case 'nullable':
      return [...hostileValues(inner('innerType'), h, depth + 1), null].slice(0, MAX_VARIANTS);
    case 'default':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return hostileValues(inner('innerType'), h, depth + 1);
    case 'pipe':
      return fits(hostileValues(inner('in'), h, depth + 1));
    case 'array': {
      const items = hostileValues(inner('element'), h, depth + 1);
      return fits([items.slice(0, 1), [], items]);
    }
    case 'record': {
      const values = hostileValues(inner('valueType'), h, depth + 1);
      return fits([{ attack: values[0] }, {}]);
    }
    case 'tuple':
      return combine((def['items'] as z.ZodType[]).map((item) => hostileValues(item, h, depth + 1))).filter(
        (v) => schema.safeParse(v).success,
      );
    case 'object': {
      const shape = def['shape'] as Record<string, z.ZodType>;
      const keys = Object.keys(shape);
      const rows = combine(keys.map((k) => hostileValues(shape[k]!, h, depth + 1)));
      return fits(
        rows.map((row) => {
          const out: Record<string, unknown> = {};
          keys.forEach((k, i) => {
            if (row[i] !== undefined) out[k] = row[i];
          });
          return out;
        }),
      );
    }
    case 'union':
      return (def['options'] as z.ZodType[]).flatMap((o) => hostileValues(o, h, depth + 1)).slice(0, 2 * MAX_VARIANTS);
    default:
      return [];
  }
}

/** Up to MAX_VARIANTS rows: row i takes the i-th value of every column (wrapping), so each value appears. */
function combine(columns: unknown[][]): unknown[][] {
  if (columns.some((c) => c.length === 0)) return [];
  const rows = Math.min(MAX_VARIANTS, Math.max(1, ...columns.map((c) => c.length)));
  return Array.from({ length: rows }, (_, i) => columns.map((c) => c[i % c.length]));
}
