/**
 * The window's whole surface, audited: the preload exposes exactly the table's methods and
 * events, and no result or event schema has a field that could carry a secret.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bridgeEventNames,
  bridgeEvents,
  bridgeMethodNames,
  bridgeMethods,
  eventChannel,
  invokeChannel,
} from '../../shared/bridge';
import { allowedChannels } from '../../preload/terminal-api';

const FORBIDDEN = /^(privateKey|private_key|mnemonic|phrase|seed|secret|password|keystore)$/i;

/** Every object key reachable in a zod schema (objects, arrays, unions, nullable, records…). */
function fieldNames(schema: z.ZodType, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const out: string[] = [];
  const visit = (value: unknown) => {
    if (value instanceof z.ZodType) out.push(...fieldNames(value, seen));
  };
  if (def['type'] === 'object') {
    for (const [key, value] of Object.entries(def['shape'] as Record<string, z.ZodType>)) {
      out.push(key);
      visit(value);
    }
  }
  for (const key of ['element', 'innerType', 'valueType', 'keyType', 'in', 'out', 'left', 'right', 'rest'])
    visit(def[key]);
  for (const key of ['options', 'items']) {
    const list = def[key];
    if (Array.isArray(list)) list.forEach(visit);
  }
  return out;
}

describe('bridge surface', () => {
  it('the preload allowlist is exactly the table', () => {
    const channels = allowedChannels();
    expect([...channels.invoke].sort()).toEqual(bridgeMethodNames.map(invokeChannel).sort());
    expect([...channels.events].sort()).toEqual(bridgeEventNames.map(eventChannel).sort());
  });

  it('no method name offers to sign arbitrary data or reveal a key', () => {
    for (const name of bridgeMethodNames) {
      expect(name).not.toMatch(
        /sign(Digest|Data|Bytes|Message|Typed|Raw)|(export|get|reveal|show|read)(PrivateKey|Mnemonic|Phrase|Secret|Seed)/i,
      );
    }
  });

  it('no result or event schema has a field that could carry a secret', () => {
    const offenders: string[] = [];
    for (const name of bridgeMethodNames) {
      for (const field of fieldNames(bridgeMethods[name].result))
        if (FORBIDDEN.test(field)) offenders.push(`${name}: ${field}`);
    }
    for (const name of bridgeEventNames) {
      for (const field of fieldNames(bridgeEvents[name].payload))
        if (FORBIDDEN.test(field)) offenders.push(`event ${name}: ${field}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the scanner does find such a field (so the test above can fail)', () => {
    const leaky = z.object({ ok: z.boolean(), inner: z.array(z.object({ privateKey: z.string() }).nullable()) });
    expect(fieldNames(leaky)).toContain('privateKey');
  });
});
