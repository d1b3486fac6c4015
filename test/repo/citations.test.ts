// Code and comments cite only files inside the repo (docs/protocol, docs/design.md): a section sign
// or a reference to the documents our write-ups came from would send a reader outside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tracked = execFileSync(
  'git',
  ['ls-files', '-z', 'src', 'test', 'e2e', 'bench', 'scripts', 'README.md', '*.ts', '*.js'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter((f) => f !== '' && f !== 'test/repo/citations.test.ts' && !f.startsWith('test/fixtures/'));

function offending(pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const file of tracked) {
    const text = readFileSync(path.join(root, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

describe('citations stay inside the repo', () => {
  it('no section sign citing a document outside the repo', () => {
    expect(offending(/§/)).toEqual([]);
  });

  it('no reference to the outside protocol, design or seed documents', () => {
    expect(offending(/\b(PROTOCOL\.md|DESIGN\.md|exchange-service-interface\.md)\b/)).toEqual([]);
  });
});
