// Practice mode (issue 20, item 5), on the built worker (out/main/practice-worker.js: run
// `npx electron-vite build` first).
//
// (a) Time to the first live practice book: from `new Worker(out/main/practice-worker.js)`, as main
//     starts it, until a book read through the client library (the REST snapshot the app's book sync
//     starts from, polled every 5 ms) has both sides quoted by the bots. PRACTICE_RUNS runs (default 7)
//     on a fresh journal and as many on an existing one; p50/p95, target under 1.5 s. Also: `ready`,
//     and every market quoted.
//
// (b) Soak: the worker with bots trading for PRACTICE_SOAK_MINUTES (default 10; `--minutes N` works too),
//     accelerated: 6 bots stepping every 250 ms on average (the app runs 3 at 1000 ms), each step moving
//     its ladder (cancel-and-replace) where fair left the bots' 1¢ band or a level was hit or gone, and
//     an IOC across the spread now and then, on the nine markets, epochs rolling. Beside it, in the same run and for the same time, the baseline:
//     an idle practice exchange (no bots). Each runs in a process of its own (bench/practice-host.mjs)
//     with --expose-gc; every PRACTICE_SOAK_SAMPLE_SECONDS (default 10) the worker collects and reports
//     its heap with the buffers it owns (the engine packs used digests in typed arrays: heapUsed +
//     external) and its process's RSS. After the warm-up (a third of the run, at most 60 s) the figures,
//     trading against idle: the least-squares slopes in MB/hour; the heap's peak in each successive
//     period (PRACTICE_SOAK_PERIOD_SECONDS, default 300: an epoch of the 5-minute markets), so a
//     sawtooth that comes back reads as equal peaks and a leak as rising ones; the trading peak over the
//     idle one; and journal records per second. Hourly markets hold their digests until the hour ends:
//     only a run over an hour boundary sees that drop, and each period's floor (its lowest sample)
//     shows where the heap comes back to. Over an hour boundary:
//     PRACTICE_SOAK_MINUTES=75 npm run bench -- practice
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExchangeReader, HttpCore } from '../src/client';
import {
  practiceEventSchema,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStart,
  type PracticeStats,
} from '../src/shared/practice';
import { PRACTICE_WORKER_BUILT, startPracticeWorker } from '../test/practice/practice-worker-kit';
import { note, ratio, type BenchReport, type Benchmark } from './harness';
import { slopeMbPerHour, type HeapSample } from './heap-profile';

const RUNS = Number(process.env['PRACTICE_RUNS'] ?? '7');
const minutesArg = process.argv.indexOf('--minutes');
const MINUTES = Number(minutesArg > 0 ? process.argv[minutesArg + 1] : (process.env['PRACTICE_SOAK_MINUTES'] ?? '10'));
const WARMUP_S = Math.min(60, (MINUTES * 60) / 3);
const SAMPLE_S = Number(process.env['PRACTICE_SOAK_SAMPLE_SECONDS'] ?? '10');
/** The soak's periods for the per-period peak (an epoch of the 5-minute markets by default). */
const PERIOD_S = Number(process.env['PRACTICE_SOAK_PERIOD_SECONDS'] ?? '300');
const SOAK_BOTS = 6;
const SOAK_STEP_MS = 250;
const HOST = fileURLToPath(new URL('./practice-host.mjs', import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);

interface StartupRun {
  readyMs: number;
  firstBookMs: number;
  allBooksMs: number;
}

/** Polls `probe` every `everyMs` until it is true. */
async function until(probe: () => Promise<boolean>, everyMs: number, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function bothSides(reader: ExchangeReader, assetId: bigint): Promise<boolean> {
  const epoch = BigInt((await reader.getAsset(assetId)).epoch);
  const book = await reader.getOrderBook(assetId, epoch, { depth: 1 });
  return book.bids.length > 0 && book.asks.length > 0;
}

async function startupOnce(dataDir: string, fresh: boolean): Promise<StartupRun> {
  const t0 = performance.now();
  const run = startPracticeWorker({ dataDir, fresh }, 'built');
  try {
    const ready = await run.ready;
    const readyMs = performance.now() - t0;
    const http = new HttpCore({ baseUrl: ready.httpUrl });
    const reader = new ExchangeReader(http);
    const assets = ready.markets.map((m) => BigInt(m.assetId));
    // The first market the bots quote (they step the markets in catalog order).
    await until(() => bothSides(reader, assets[0]!), 5, 'the first live book');
    const firstBookMs = performance.now() - t0;
    // Secondary: every market, within 10 s (a market whose epoch is in its last seconds may show one side
    // only until it rolls: such a run counts as not reached rather than failing the bench).
    const allBooksMs = await until(
      async () => (await Promise.all(assets.map((a) => bothSides(reader, a)))).every(Boolean),
      50,
      'every market quoted',
      10_000,
    ).then(
      () => performance.now() - t0,
      () => NaN,
    );
    http.close();
    return { readyMs, firstBookMs, allBooksMs };
  } finally {
    await run.stop();
  }
}

function summarise(report: BenchReport, label: string, runs: StartupRun[]): void {
  const show = (what: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const reached = s.filter((x) => !Number.isNaN(x));
    const missed = s.length - reached.length;
    if (reached.length === 0) return `${what} not reached in 10 s`;
    return `${what} p50 ${pct(reached, 50).toFixed(0)} ms, p95 ${pct(reached, 95).toFixed(0)} ms${missed > 0 ? ` (${missed} run(s) not within 10 s)` : ''}`;
  };
  const first = runs.map((r) => r.firstBookMs).sort((a, b) => a - b);
  console.log(
    `  ${label}: ${show(
      'ready',
      runs.map((r) => r.readyMs),
    )}; ${show('first live book', first)}; ${show(
      'all 9 markets',
      runs.map((r) => r.allBooksMs),
    )} (${runs.length} runs)`,
  );
  report.measurements.push({
    label: `spawn to first live practice book, ${label} (p50)`,
    opsPerRound: 1,
    rounds: runs.length,
    opsPerSec: 1000 / pct(first, 50),
    minOpsPerSec: 1000 / first.at(-1)!,
    maxOpsPerSec: 1000 / first[0]!,
    usPerOp: pct(first, 50) * 1000,
  });
  ratio(report, `first live book p95 (s), ${label}`, pct(first, 95) / 1000, { atMost: 1.5 });
  note(
    report,
    `${label} (ms): ${runs.map((r) => `ready ${r.readyMs.toFixed(0)} / book ${r.firstBookMs.toFixed(0)} / all ${r.allBooksMs.toFixed(0)}`).join('; ')}`,
  );
}

/** One practice worker in a host process of its own, spoken to over IPC. */
function hosted(start: PracticeStart): {
  ready: Promise<Extract<PracticeEvent, { type: 'ready' }>>;
  stats(): Promise<PracticeStats>;
  stop(): Promise<void>;
} {
  const child: ChildProcess = fork(HOST, [JSON.stringify(start)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const waiting = new Map<number, (e: Extract<PracticeEvent, { type: 'reply' }>) => void>();
  let id = 0;
  let onReady!: (e: Extract<PracticeEvent, { type: 'ready' }>) => void;
  let onFail!: (e: Error) => void;
  const ready = new Promise<Extract<PracticeEvent, { type: 'ready' }>>((resolve, reject) => {
    onReady = resolve;
    onFail = reject;
  });
  child.on('message', (raw) => {
    const parsed = practiceEventSchema.safeParse(raw);
    if (!parsed.success) return;
    const e = parsed.data;
    if (e.type === 'ready') onReady(e);
    else if (e.type === 'fatal') onFail(new Error(e.message));
    else if (e.type === 'reply') waiting.get(e.id)?.(e);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => onFail(new Error('the practice host exited')));
  const request = (req: PracticeRequest) =>
    new Promise<Extract<PracticeEvent, { type: 'reply' }>>((resolve) => {
      waiting.set(req.id, resolve);
      child.send(req);
    });
  return {
    ready,
    async stats() {
      const r = await request({ type: 'stats', id: ++id, gc: true });
      if (!r.ok || r.stats === undefined) throw new Error(`stats refused: ${r.message ?? ''}`);
      return r.stats;
    },
    async stop() {
      if (child.exitCode === null) {
        await request({ type: 'stop', id: ++id });
        await Promise.race([exited, sleep(10_000)]);
      }
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

interface Sample extends HeapSample {
  rss: number;
  /** Wall clock (unix ms): the hourly epochs end on the hour. */
  wallMs: number;
}

const HOUR_MS = 3_600_000;

/**
 * The heap's floor once the hourly epochs resolved (their digests dropped): the lowest sample within
 * `periodMs` after the last hour boundary the run crossed, or null when it crossed none.
 */
function floorAfterHour(samples: readonly Sample[], periodMs: number): { floor: number; boundary: number } | null {
  if (samples.length === 0) return null;
  const boundary = Math.floor(samples.at(-1)!.wallMs / HOUR_MS) * HOUR_MS;
  if (boundary <= samples[0]!.wallMs) return null;
  const after = samples.filter((s) => s.wallMs >= boundary && s.wallMs < boundary + periodMs);
  return after.length === 0 ? null : { floor: Math.min(...after.map((s) => s.heapUsed)), boundary };
}

/**
 * The highest value of each successive period after the warm-up (a partial last period is dropped
 * unless it is the only one). A heap that saws up and comes back shows equal peaks; one that keeps
 * what it grew shows rising ones, whatever the least-squares slope says.
 */
function periodPeaks(
  samples: readonly Sample[],
  periodMs: number,
  of: (s: Sample) => number,
  pick: (a: number, b: number) => number = Math.max,
): number[] {
  if (samples.length === 0) return [];
  const from = samples[0]!.atMs;
  const peaks: number[] = [];
  for (const s of samples) {
    const i = Math.floor((s.atMs - from) / periodMs);
    peaks[i] = peaks[i] === undefined ? of(s) : pick(peaks[i], of(s));
  }
  const complete = Math.floor((samples.at(-1)!.atMs - from) / periodMs);
  const kept = complete >= 1 ? peaks.slice(0, complete) : peaks;
  return kept.filter((p) => p !== undefined);
}

async function soak(report: BenchReport): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'practice-soak-'));
  const trading = hosted({ dataDir: join(dir, 'trading'), fresh: true, bots: SOAK_BOTS, botStepMs: SOAK_STEP_MS });
  const idle = hosted({ dataDir: join(dir, 'idle'), fresh: true, bots: 0 });
  try {
    await Promise.all([trading.ready, idle.ready]);
    console.log(
      `  soak: ${MINUTES} min (warm-up ${WARMUP_S.toFixed(0)} s, a sample every ${SAMPLE_S} s): ${SOAK_BOTS} bots at ${SOAK_STEP_MS} ms vs an idle exchange`,
    );
    const subjects = { trading, idle };
    const samples: Record<keyof typeof subjects, Sample[]> = { trading: [], idle: [] };
    const first: Partial<Record<keyof typeof subjects, PracticeStats>> = {};
    const last: Partial<Record<keyof typeof subjects, PracticeStats>> = {};
    const t0 = performance.now();
    const endAt = t0 + MINUTES * 60_000;
    while (performance.now() < endAt) {
      await sleep(Math.min(SAMPLE_S * 1000, Math.max(0, endAt - performance.now())));
      const atS = (performance.now() - t0) / 1000;
      for (const name of ['trading', 'idle'] as const) {
        const s = await subjects[name].stats();
        if (!s.collected) throw new Error('the worker could not collect garbage (host without --expose-gc)');
        last[name] = s;
        if (atS < WARMUP_S) continue;
        first[name] ??= s;
        // The heap and the buffers it owns (the engine packs used digests into typed arrays, outside the heap proper).
        samples[name].push({
          atMs: atS * 1000,
          wallMs: Date.now(),
          heapUsed: s.heapUsed + s.external,
          codeUsed: 0,
          rss: s.rss,
        });
      }
    }
    const slopes = {
      trading: slopeMbPerHour(samples.trading),
      idle: slopeMbPerHour(samples.idle),
      tradingRss: slopeMbPerHour(samples.trading, (s) => (s as Sample).rss),
      idleRss: slopeMbPerHour(samples.idle, (s) => (s as Sample).rss),
    };
    const work = `${last.trading!.botSteps - (first.trading?.botSteps ?? 0)} bot steps and ${last.trading!.journalRecords - (first.trading?.journalRecords ?? 0)} journal records after warm-up`;
    const windowS = (samples.trading.at(-1)!.atMs - samples.trading[0]!.atMs) / 1000;
    const recordsPerSec = {
      trading: (last.trading!.journalRecords - first.trading!.journalRecords) / windowS,
      idle: (last.idle!.journalRecords - first.idle!.journalRecords) / windowS,
    };
    const peaks = {
      trading: periodPeaks(samples.trading, PERIOD_S * 1000, (s) => s.heapUsed),
      idle: periodPeaks(samples.idle, PERIOD_S * 1000, (s) => s.heapUsed),
      tradingRss: periodPeaks(samples.trading, PERIOD_S * 1000, (s) => s.rss),
      // The floor of each period: where the heap comes back to once epochs resolve and drop their digests.
      tradingFloor: periodPeaks(samples.trading, PERIOD_S * 1000, (s) => s.heapUsed, Math.min),
    };
    const show = (xs: number[]) => xs.map(mb).join(' → ');
    for (const name of ['trading', 'idle'] as const) {
      const xs = samples[name];
      console.log(
        `  ${name.padEnd(7)}: heap + buffers ${mb(xs[0]!.heapUsed)} → ${mb(xs.at(-1)!.heapUsed)} MB (slope ${slopes[name].toFixed(1)} MB/h), rss ${mb(xs[0]!.rss)} → ${mb(xs.at(-1)!.rss)} MB (slope ${slopes[name === 'trading' ? 'tradingRss' : 'idleRss'].toFixed(1)} MB/h), ${recordsPerSec[name].toFixed(1)} journal records/s`,
      );
      console.log(`           heap + buffers peak per ${PERIOD_S} s after GC (MB): ${show(peaks[name])}`);
    }
    console.log(`           trading heap + buffers floor per ${PERIOD_S} s (MB): ${show(peaks.tradingFloor)}`);
    console.log(`           trading rss peak per ${PERIOD_S} s (MB): ${show(peaks.tradingRss)}; ${work}`);
    ratio(report, 'soak: heap slope trading (MB/h)', slopes.trading);
    ratio(report, 'soak: heap slope idle baseline (MB/h)', slopes.idle);
    ratio(report, 'soak: heap slope trading − idle (MB/h)', slopes.trading - slopes.idle, { atMost: 2 });
    // A ratio of two slopes near zero is noise: the idle slope is floored at 0.5 MB/h for it.
    ratio(report, 'soak: heap slope trading ÷ max(idle, 0.5 MB/h)', slopes.trading / Math.max(slopes.idle, 0.5));
    // Flat means the peaks come back: the last period's peak against the first's, trading and idle.
    const growth = (xs: number[]) => (xs.length < 2 ? 0 : (xs.at(-1)! - xs[0]!) / 1_048_576);
    ratio(report, `soak: heap peak growth, first to last ${PERIOD_S} s period, trading (MB)`, growth(peaks.trading));
    ratio(report, `soak: heap peak growth, first to last ${PERIOD_S} s period, idle (MB)`, growth(peaks.idle));
    ratio(
      report,
      `soak: heap floor growth, first to last ${PERIOD_S} s period, trading (MB)`,
      growth(peaks.tradingFloor),
    );
    // Flat over the hour: once the hourly epochs resolve, the heap is back where it started.
    const hourFloor = floorAfterHour(samples.trading, PERIOD_S * 1000);
    if (hourFloor) {
      const firstFloor = peaks.tradingFloor[0]!;
      console.log(
        `           trading floor after the ${new Date(hourFloor.boundary).toISOString().slice(11, 16)} UTC hourly resolution: ${mb(hourFloor.floor)} MB (first period's: ${mb(firstFloor)} MB)`,
      );
      ratio(
        report,
        'soak: trading floor after the hourly resolution − first floor (MB)',
        (hourFloor.floor - firstFloor) / 1_048_576,
      );
    } else note(report, 'the run crossed no hour boundary: the hourly epochs kept their digests throughout');
    ratio(report, 'soak: trading peak heap ÷ idle peak heap', Math.max(...peaks.trading) / Math.max(...peaks.idle));
    ratio(report, 'soak: rss slope trading (MB/h)', slopes.tradingRss);
    ratio(report, 'soak: rss slope idle baseline (MB/h)', slopes.idleRss);
    ratio(report, 'soak: journal records per second, trading', recordsPerSec.trading);
    note(report, `soak trading: ${work}`);
    note(
      report,
      `trading heap + buffers peaks per ${PERIOD_S} s (MB): ${show(peaks.trading)}; floors: ${show(peaks.tradingFloor)}; idle peaks: ${show(peaks.idle)}`,
    );
    for (const name of ['trading', 'idle'] as const)
      note(report, `${name} heap samples (MB): ${samples[name].map((s) => mb(s.heapUsed)).join(' ')}`);
    note(
      report,
      'accelerated: 6 bots stepping every 250 ms (the app: 3 at 1000 ms), so an hour here is several hours of practice.',
    );
  } finally {
    await Promise.all([trading.stop(), idle.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const bench: Benchmark = {
  name: 'practice',
  async run(report) {
    if (!existsSync(PRACTICE_WORKER_BUILT))
      throw new Error('out/main/practice-worker.js is missing: npx electron-vite build');
    const dir = mkdtempSync(join(tmpdir(), 'practice-startup-'));
    try {
      const fresh: StartupRun[] = [];
      for (let i = 0; i < RUNS; i++) fresh.push(await startupOnce(dir, true));
      summarise(report, 'fresh journal', fresh);
      const existing: StartupRun[] = [];
      for (let i = 0; i < RUNS; i++) existing.push(await startupOnce(dir, false));
      summarise(report, 'existing journal', existing);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (MINUTES > 0) await soak(report);
    else note(report, 'soak skipped (PRACTICE_SOAK_MINUTES=0)');
  },
};

export default bench;
