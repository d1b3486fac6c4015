import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfStore } from './conf-store';
import { createMemoryStore } from './key-value-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('createConfStore', () => {
  it('persists flat keys (dots are not paths) across instances and deletes them', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conf-store-'));
    dirs.push(cwd);
    const a = createConfStore({ cwd });
    a.set('vault.keys', [{ address: '0xabc' }]);
    a.set('n', 3);
    const b = createConfStore({ cwd });
    expect(b.get('vault.keys')).toEqual([{ address: '0xabc' }]);
    expect(b.get('vault')).toBeUndefined();
    const onDisk = JSON.parse(readFileSync(join(cwd, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(onDisk).sort()).toEqual(['n', 'vault.keys']);
    b.delete('n');
    b.set('vault.keys', undefined);
    expect(createConfStore({ cwd }).get('n')).toBeUndefined();
    expect(createConfStore({ cwd }).get('vault.keys')).toBeUndefined();
  });
});

describe('createMemoryStore', () => {
  it('copies values in and out', () => {
    const s = createMemoryStore();
    const v = { a: [1] };
    s.set('k', v);
    v.a.push(2);
    const got = s.get('k') as { a: number[] };
    got.a.push(3);
    expect(s.get('k')).toEqual({ a: [1] });
    s.delete('k');
    expect(s.get('k')).toBeUndefined();
  });
});
