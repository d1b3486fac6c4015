// src/shared must run in the renderer and in node alike: no node builtins, no electron, no DOM.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../src/shared');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const DOM_GLOBALS = /\b(window|document|localStorage|sessionStorage|navigator)\s*[.[(]/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory()
      ? walk(p)
      : /\.(ts|js|mjs|svelte)$/.test(name) && !/\.test\.ts$/.test(name)
        ? [p]
        : [];
  });
}

/** Module specifiers from import/export-from statements and dynamic imports/requires. */
function specifiers(src: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (let m = re.exec(src); m; m = re.exec(src)) out.push(m[1]!);
  return out;
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('src/shared purity', () => {
  const files = walk(ROOT);
  it('finds the protocol sources', () => {
    expect(files.some((f) => f.endsWith('protocol/index.ts'))).toBe(true);
  });
  it.each(files.map((f) => [relative(ROOT, f), f] as const))(
    '%s imports no node/electron and uses no DOM globals',
    (_r, file) => {
      const src = stripComments(readFileSync(file, 'utf8'));
      for (const spec of specifiers(src)) {
        expect(BUILTINS.has(spec) || spec.startsWith('node:'), `node builtin "${spec}"`).toBe(false);
        expect(spec === 'electron' || spec.startsWith('electron/'), `electron import "${spec}"`).toBe(false);
      }
      expect(DOM_GLOBALS.test(src), 'uses a DOM global').toBe(false);
    },
  );
  it('the checker itself catches offenders', () => {
    expect(specifiers("import { x } from 'node:fs';\nconst y = await import('path');")).toEqual(['node:fs', 'path']);
    expect(DOM_GLOBALS.test('window.foo = 1')).toBe(true);
    expect(DOM_GLOBALS.test('const windowSize = 3')).toBe(false);
  });
});
