// Tiny benchmark harness: warm-up, several timed rounds, median ops/s. Results are collected
// per benchmark so bench/run.ts can print them and write bench-results/<name>.json.
import { performance } from 'node:perf_hooks';

export interface Measurement {
  label: string;
  /** Operations per timed round. */
  opsPerRound: number;
  rounds: number;
  /** Median over rounds. */
  opsPerSec: number;
  minOpsPerSec: number;
  maxOpsPerSec: number;
  /** Median wall time of one operation, microseconds. */
  usPerOp: number;
}

export interface Ratio {
  label: string;
  value: number;
  /** e.g. ">= 2" — informational target printed next to the figure. */
  target?: string;
  met?: boolean;
}

export interface BenchReport {
  measurements: Measurement[];
  ratios: Ratio[];
  notes: string[];
}

export interface Benchmark {
  name: string;
  run(report: BenchReport): Promise<void>;
}

export interface MeasureOptions {
  /** Untimed calls before timing (JIT warm-up). Default: one round. */
  warmupRounds?: number;
  /** Timed rounds; the median is reported. Default 7. */
  rounds?: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Time `round()` (which performs `opsPerRound` operations) several times and return the median
 * throughput. `round` may return a value; it is kept alive so the work is not optimised away.
 */
export async function measure(
  report: BenchReport,
  label: string,
  opsPerRound: number,
  round: () => unknown,
  opts: MeasureOptions = {},
): Promise<Measurement> {
  const warmup = opts.warmupRounds ?? 1;
  const rounds = opts.rounds ?? 7;
  let sink: unknown;
  for (let i = 0; i < warmup; i++) sink = await round();
  const rates: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    sink = await round();
    const ms = performance.now() - t0;
    rates.push((opsPerRound * 1000) / ms);
  }
  blackhole(sink);
  return record(report, label, opsPerRound, rates);
}

export interface Candidate {
  label: string;
  opsPerRound: number;
  round: () => unknown;
}

/**
 * Measure several candidates with their rounds interleaved (A B C A B C …), so a noisy shared
 * machine loads them equally; the median per candidate is reported. Use this for ratios.
 */
export async function measureInterleaved(
  report: BenchReport,
  candidates: Candidate[],
  opts: MeasureOptions = {},
): Promise<Measurement[]> {
  const warmup = opts.warmupRounds ?? 1;
  const rounds = opts.rounds ?? 9;
  let sink: unknown;
  for (let w = 0; w < warmup; w++) for (const c of candidates) sink = await c.round();
  const rates: number[][] = candidates.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i]!;
      const t0 = performance.now();
      sink = await c.round();
      rates[i]!.push((c.opsPerRound * 1000) / (performance.now() - t0));
    }
  }
  blackhole(sink);
  return candidates.map((c, i) => record(report, c.label, c.opsPerRound, rates[i]!));
}

function record(report: BenchReport, label: string, opsPerRound: number, rates: number[]): Measurement {
  const opsPerSec = median(rates);
  const m: Measurement = {
    label,
    opsPerRound,
    rounds: rates.length,
    opsPerSec,
    minOpsPerSec: Math.min(...rates),
    maxOpsPerSec: Math.max(...rates),
    usPerOp: 1e6 / opsPerSec,
  };
  report.measurements.push(m);
  console.log(
    `  ${label.padEnd(52)} ${fmt(opsPerSec).padStart(10)} ops/s  (${m.usPerOp.toFixed(2)} µs/op, range ${fmt(m.minOpsPerSec)}–${fmt(m.maxOpsPerSec)})`,
  );
  return m;
}

/** Record and print a ratio between two figures, with an optional target. */
export function ratio(
  report: BenchReport,
  label: string,
  value: number,
  target?: { atLeast?: number; atMost?: number },
): Ratio {
  let met: boolean | undefined;
  let t: string | undefined;
  if (target?.atLeast !== undefined) {
    t = `>= ${target.atLeast}`;
    met = value >= target.atLeast;
  } else if (target?.atMost !== undefined) {
    t = `<= ${target.atMost}`;
    met = value <= target.atMost;
  }
  const r: Ratio = { label, value, ...(t === undefined ? {} : { target: t, met }) };
  report.ratios.push(r);
  const suffix = t === undefined ? '' : `  (target ${t}: ${met ? 'met' : 'NOT met'})`;
  console.log(`  ${label.padEnd(52)} ${value.toFixed(2).padStart(10)}x${suffix}`);
  return r;
}

export function note(report: BenchReport, text: string): void {
  report.notes.push(text);
  console.log(`  note: ${text}`);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

let sinkHolder: unknown;
/** Keep a value reachable so the optimiser cannot drop the computation. */
export function blackhole(v: unknown): void {
  sinkHolder = v;
}
export function _sink(): unknown {
  return sinkHolder;
}
