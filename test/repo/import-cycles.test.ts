// No import circles in the TypeScript under src/ (and the test support, harness and benches beside it): a circle means two modules each need the other to be
// understood (and, at run time, one of them sees the other half-initialised). Type-only imports count
// too: they tie the designs together even where the bundle drops them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const files = execFileSync('git', ['ls-files', '-z', 'src/*.ts', 'test/*.ts', 'e2e/*.ts', 'bench/*.ts'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(test|spec)\.ts$/.test(f));
const known = new Set(files);

/** The repo file a relative specifier names, if it is one of ours (x.ts or x/index.ts). */
function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')])
    if (known.has(candidate) && existsSync(path.join(root, candidate))) return candidate;
  return null;
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
  return info.importedFiles.map((i) => resolveSpecifier(file, i.fileName)).filter((f): f is string => f !== null);
}

/** The circles a depth-first walk meets (at least one wherever there is any), each from its smallest file name. */
function circles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const loop = stack.slice(stack.indexOf(next));
        const start = loop.indexOf([...loop].sort()[0]!);
        const canonical = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(canonical.join(' > '), canonical);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return [...found.values()];
}

describe('import circles', () => {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the imports of the modules it checks', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(graph.get('src/main/core/handlers/orders.ts')).toContain('src/main/core/handlers/order-sending.ts');
  });

  it('finds a circle when there is one', () => {
    const planted = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(planted)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('src/ has none', () => {
    expect(circles(graph).map((c) => c.join(' > '))).toEqual([]);
  });
});
