#!/usr/bin/env node
// `npm test`: in stages, stopping after the first stage with a failure:
//   1. typecheck, lint, format        side by side (each is one process on one core)
//   2. unit                           vitest, four files at once (vitest.config.ts)
//   3. build                          electron-vite: out/, which the next two read
//   4. built                          vitest on out/: boot, installer
//   5. e2e                            Playwright, two workers (playwright.config.ts)
// Unit and e2e do not run side by side: on a 2-core machine the two together (load ~14) starved the
// QR camera specs and main's event-loop measurements; each alone keeps the machine under its cores.
// A stage of one step streams its output; steps side by side write theirs to test-results/logs/ and
// print it whole when they end. Ends with the step table, the slowest ten tests and
// `tests: N passed, M failed[, K skipped]` counted from the vitest and Playwright JSON reports.
// TEST_SERIAL=1 runs every step alone, in order, streaming (for reading one failure as it happens).
//
//   npm test                         every step
//   npm test -- --only lint,unit     a subset, in pipeline order
//   npm test -- --list               the step names
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const REPORT_DIR = path.join(root, 'test-results');
const VITEST_JSON = path.join(REPORT_DIR, 'vitest.json');
const VITEST_BUILT_JSON = path.join(REPORT_DIR, 'vitest-built.json');
const PLAYWRIGHT_JSON = path.join(REPORT_DIR, 'playwright.json');
const LOG_DIR = path.join(REPORT_DIR, 'logs');
const SERIAL = process.env.TEST_SERIAL === '1';

// Tests never download Electron; users' installs still do (see docs/design.md#running-without-an-electron-binary).
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '1' };

/** A command wrapped in the Secret Service launcher when it exists (Linux keychain tests). */
function withKeyring(command, args) {
  const wrapper = path.join(root, 'scripts', 'with-keyring.sh');
  if (process.platform === 'linux' && existsSync(wrapper)) return ['bash', [wrapper, command, ...args]];
  return [command, args];
}

function vitestCommand(report = VITEST_JSON, extra = []) {
  return withKeyring(bin('vitest'), [
    'run',
    ...extra,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
}

/** @type {{ name: string; stage: number; title: string; commands: () => [string, string[], Record<string,string>?][]; report?: string }[]} */
const STEPS = [
  {
    name: 'typecheck',
    stage: 1,
    title: 'Typecheck (tsc node + shared, svelte-check web)',
    commands: () => [
      [bin('tsc'), ['-p', 'tsconfig.json']],
      [bin('tsc'), ['-p', 'tsconfig.shared.json']],
      [bin('svelte-check'), ['--tsconfig', './tsconfig.web.json', '--fail-on-warnings']],
    ],
  },
  { name: 'lint', stage: 1, title: 'Lint (eslint)', commands: () => [[bin('eslint'), ['.']]] },
  {
    name: 'format',
    stage: 1,
    title: 'Formatting (prettier --check; `npm run format` fixes)',
    commands: () => [[bin('prettier'), ['--check', '.']]],
  },
  {
    name: 'unit',
    stage: 2,
    title: 'Unit and integration tests (vitest)',
    commands: () => [vitestCommand()],
    report: VITEST_JSON,
  },
  {
    name: 'build',
    stage: 3,
    title: 'Production build (electron-vite)',
    commands: () => [[bin('electron-vite'), ['build']]],
  },
  {
    name: 'built',
    stage: 4,
    title: 'The built app (main bundle booted under an Electron double, installer packed)',
    commands: () => [vitestCommand(VITEST_BUILT_JSON, ['-c', 'vitest.built.config.ts'])],
    report: VITEST_BUILT_JSON,
  },
  {
    name: 'e2e',
    stage: 5,
    title: 'End-to-end tests (Playwright, Chromium)',
    commands: () => [
      // Under the keyring launcher too: the e2e harness hosts the real vault (e2e/harness).
      [
        ...withKeyring(bin('playwright'), ['test', '--reporter=list,json']),
        { PLAYWRIGHT_JSON_OUTPUT_FILE: PLAYWRIGHT_JSON },
      ],
    ],
    report: PLAYWRIGHT_JSON,
  },
];

function parseArgs(argv) {
  const names = STEPS.map((s) => s.name);
  if (argv.includes('--list')) {
    console.log(names.join('\n'));
    process.exit(0);
  }
  const at = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (at === -1) {
    if (argv.length > 0) fail(`Unknown argument ${argv[0]}: use --only ${names.join(',')} or --list.`);
    return names;
  }
  const value = argv[at].includes('=') ? argv[at].slice('--only='.length) : argv[at + 1];
  const wanted = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((w) => !names.includes(w));
  if (wanted.length === 0 || unknown.length > 0) {
    fail(
      `--only takes a comma-separated list of: ${names.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}.`,
    );
  }
  return names.filter((n) => wanted.includes(n));
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

const isTty = process.stdout.isTTY;
const paint = (code, text) => (isTty ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = (t) => paint('1', t);
const green = (t) => paint('32', t);
const red = (t) => paint('31', t);
const dim = (t) => paint('2', t);

function header(index, total, step) {
  const line = '─'.repeat(Math.max(8, 72 - step.title.length));
  console.log(`\n${bold(`▶ [${index}/${total}] ${step.title}`)} ${dim(line)}`);
}

/** Runs one command; its output goes to the terminal, or to `log` (a write stream) when given. */
function run(command, args, extraEnv = {}, log = null) {
  const say = (line) => (log ? log.write(`${line}\n`) : console.log(line));
  say(dim(`$ ${path.relative(root, command) || command} ${args.join(' ')}`));
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (log) {
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
    }
    child.on('error', (error) => {
      say(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a step's commands in order, stopping at the first that fails: its exit code and wall time. */
async function runStep(step, log) {
  if (step.report) rmSync(step.report, { force: true }); // never count a stale report
  const started = Date.now();
  let code = 0;
  for (const [command, args, extraEnv] of step.commands()) {
    code = await run(command, args, extraEnv, log);
    if (code !== 0) break;
  }
  return { code, ms: Date.now() - started };
}

/** Steps side by side: each writes to its log file, printed whole (under its header) when it ends. */
async function runSideBySide(stage, indexOf, total) {
  mkdirSync(LOG_DIR, { recursive: true });
  console.log(
    dim(`\n  side by side: ${stage.map((s) => s.name).join(', ')} (logs in ${path.relative(root, LOG_DIR)}/)`),
  );
  return Promise.all(
    stage.map(async (step) => {
      const file = path.join(LOG_DIR, `${step.name}.log`);
      const log = createWriteStream(file);
      const result = await runStep(step, log);
      await new Promise((done) => log.end(done));
      header(indexOf(step), total, step);
      process.stdout.write(readFileSync(file, 'utf8'));
      console.log(dim(`  (${step.name}: ${seconds(result.ms)})`));
      return { step, ...result };
    }),
  );
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Counts from a vitest or Playwright JSON report; null when the step wrote none. */
function countsFrom(file) {
  const report = readJson(file);
  if (!report) return null;
  if (file === VITEST_JSON || file === VITEST_BUILT_JSON) {
    return {
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    };
  }
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: stats.unexpected ?? 0,
    skipped: stats.skipped ?? 0,
  };
}

/** Every test's name and duration from a vitest or Playwright JSON report (none when it wrote none). */
function durationsFrom(file) {
  const report = readJson(file);
  if (!report) return [];
  const out = [];
  if (file === VITEST_JSON || file === VITEST_BUILT_JSON) {
    for (const f of report.testResults ?? []) {
      const where = path.relative(root, f.name ?? '');
      for (const t of f.assertionResults ?? [])
        if (typeof t.duration === 'number') out.push({ name: `${where} › ${t.title}`, ms: t.duration });
    }
    return out;
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      out.push({ name: `${spec.file ?? suite.file ?? ''} › ${spec.title}`, ms });
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}

async function main() {
  const selected = parseArgs(process.argv.slice(2));
  const steps = STEPS.filter((s) => selected.includes(s.name));
  mkdirSync(REPORT_DIR, { recursive: true });

  const totals = { passed: 0, failed: 0, skipped: 0 };
  const results = [];
  let failedStep = null;

  const wallStarted = Date.now();
  const indexOf = (step) => steps.indexOf(step) + 1;
  // Stages in order; a stage's steps side by side unless TEST_SERIAL=1 or it has one step here.
  const stages = SERIAL
    ? steps.map((s) => [s])
    : [...new Set(steps.map((s) => s.stage))].map((n) => steps.filter((s) => s.stage === n));
  for (const stage of stages) {
    let outcomes;
    if (stage.length === 1) {
      header(indexOf(stage[0]), steps.length, stage[0]);
      outcomes = [{ step: stage[0], ...(await runStep(stage[0], null)) }];
    } else {
      outcomes = await runSideBySide(stage, indexOf, steps.length);
    }
    for (const { step, code, ms } of outcomes) {
      const counts = step.report ? countsFrom(step.report) : null;
      if (counts) for (const key of Object.keys(totals)) totals[key] += counts[key];
      // A runner can exit non-zero with every test green (e.g. an unhandled error): the exit code decides.
      results.push({ step, ok: code === 0, ms, counts });
      if (code !== 0) failedStep ??= step;
    }
    if (failedStep) break;
  }
  const wallMs = Date.now() - wallStarted;

  console.log(`\n${bold('Summary')}`);
  for (const { step, ok, ms, counts } of results) {
    const tests = counts
      ? dim(`  ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`)
      : '';
    console.log(`  ${ok ? green('✔') : red('✘')} ${step.name.padEnd(10)} ${seconds(ms).padStart(7)}${tests}`);
  }
  // Stages run in step order and each ends whole: the results are always the steps' first ones.
  for (const step of steps.slice(results.length))
    console.log(`  ${dim('-')} ${step.name.padEnd(10)} ${dim('not run')}`);
  console.log(`  ${bold('wall'.padEnd(12))} ${seconds(wallMs).padStart(7)}${dim('  (steps side by side overlap)')}`);
  if (failedStep) console.log(red(`\nStep "${failedStep.name}" failed (${failedStep.title}).`));

  // The slowest ten tests of the steps that ran: where the suite's time goes.
  const slowest = results
    .flatMap(({ step }) => (step.report ? durationsFrom(step.report) : []))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  if (slowest.length > 0) {
    console.log(`\n${bold('Slowest tests')}`);
    for (const t of slowest) console.log(`  ${seconds(t.ms).padStart(7)}  ${t.name}`);
  }

  console.log(
    `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
  );
  process.exit(failedStep ? 1 : 0);
}

await main();
