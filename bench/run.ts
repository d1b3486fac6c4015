// Benchmark runner: `npm run bench [-- <name filter>]`. Discovers bench/*.bench.ts, each
// default-exporting { name, run(report) }, runs them in name order, prints plain text and writes
// bench-results/<name>.json.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport, Benchmark } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'bench-results');
const filter = process.argv[2];

function isBenchmark(v: unknown): v is Benchmark {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Benchmark).name === 'string' &&
    typeof (v as Benchmark).run === 'function'
  );
}

async function main(): Promise<void> {
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const benches: Benchmark[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { default?: unknown };
    if (!isBenchmark(mod.default)) {
      console.error(`skipping ${f}: no default export { name, run }`);
      continue;
    }
    if (filter === undefined || mod.default.name.includes(filter) || f.includes(filter)) benches.push(mod.default);
  }
  if (benches.length === 0) {
    console.error(`no benchmark matches ${JSON.stringify(filter)} (files: ${files.join(', ')})`);
    process.exitCode = 1;
    return;
  }
  const env = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    platform: process.platform,
  };
  console.log(`node ${env.node} · ${env.cpu} · ${env.cores} cores (shared machine: figures are indicative)`);
  mkdirSync(outDir, { recursive: true });
  let failed = false;
  for (const b of benches) {
    console.log(`\n== ${b.name} ==`);
    const report: BenchReport = { measurements: [], ratios: [], notes: [] };
    const started = new Date().toISOString();
    try {
      await b.run(report);
    } catch (e) {
      failed = true;
      console.error(`  FAILED: ${e instanceof Error ? e.stack : String(e)}`);
      continue;
    }
    const file = join(outDir, `${b.name.replace(/[^a-zA-Z0-9_.-]/g, '_')}.json`);
    writeFileSync(file, `${JSON.stringify({ name: b.name, started, env, ...report }, null, 2)}\n`);
    console.log(`  → ${file}`);
  }
  if (failed) process.exitCode = 1;
}

await main();
