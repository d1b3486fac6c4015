/**
 * What held a measured window up, for the latency benches: garbage-collection pauses that overlap
 * it (perf_hooks GC entries: nothing runs inside the window), and, when UI_BENCH_SCHED=1 on Linux,
 * how long the OS kept the thread waiting for a CPU (run-queue wait from /proc/thread-self/schedstat)
 * and how many page faults the thread took (minor faults, /proc/thread-self/stat: a page first
 * touched, or given back to the OS and touched again), each read at both ends of the window: small
 * reads, so opt-in.
 */
import { readFileSync } from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

const SCHEDSTAT = '/proc/thread-self/schedstat';
const STAT = '/proc/thread-self/stat';

export interface WindowCauses {
  /** GC pauses overlapping the window, ms (summed). */
  gcMs: number;
  /** Run-queue wait inside the window, ms (NaN without UI_BENCH_SCHED=1 or off Linux). */
  runQueueMs: number;
  /** Page faults the thread took inside the window (NaN as runQueueMs). */
  faults: number;
}

export interface TailCauses {
  /** Call at the start of the window (in the thread being measured). */
  open(): void;
  /** Call at the end of the window. */
  close(): void;
  /** The last closed window's causes (GC entries arrive asynchronously: ask after an await). */
  last(): WindowCauses;
  readonly sched: boolean;
  stop(): void;
}

function runQueueNs(): number {
  // "<on-cpu ns> <run-queue wait ns> <timeslices>"
  return Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[1]);
}

function minorFaults(): number {
  // proc(5): after "(comm)", field 10 of the whole line (minflt) is the 8th.
  const stat = readFileSync(STAT, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

export function tailCauses(): TailCauses {
  let sched = process.env['UI_BENCH_SCHED'] === '1';
  if (sched) {
    try {
      runQueueNs();
      minorFaults();
    } catch {
      sched = false;
    }
  }
  const gcs: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
    if (gcs.length > 10_000) gcs.splice(0, 5_000);
  });
  observer.observe({ entryTypes: ['gc'] });
  let t0 = NaN;
  let t1 = NaN;
  let q0 = NaN;
  let q1 = NaN;
  let f0 = NaN;
  let f1 = NaN;
  return {
    sched,
    open() {
      t0 = performance.now();
      if (sched) {
        f0 = minorFaults();
        q0 = runQueueNs();
      }
    },
    close() {
      if (sched) {
        q1 = runQueueNs();
        f1 = minorFaults();
      }
      t1 = performance.now();
    },
    last() {
      const gcMs = gcs
        .filter((g) => g.end > t0 && g.start < t1)
        .reduce((sum, g) => sum + Math.min(g.end, t1) - Math.max(g.start, t0), 0);
      return { gcMs, runQueueMs: sched ? (q1 - q0) / 1e6 : NaN, faults: sched ? f1 - f0 : NaN };
    },
    stop: () => observer.disconnect(),
  };
}
