// Reading a Chrome trace (Playwright's browser.startTracing) for the trace scripts of bench/:
// trace-summary.ts (a frame's time, from UI_BENCH_TRACE of the ui-ladder bench) and long-tasks.ts
// (the renderer's long tasks, from live-profile.ts or page-load-probe.ts).
import { readFileSync } from 'node:fs';

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; type?: string } };
}

/** What live-profile.ts and page-load-probe.ts record: the timeline, JS execution and user timing. */
export const LONG_TASK_TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
];

/** A trace file's events (a bare array or `{ traceEvents }`). */
export function readTrace(file: string): TraceEvent[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(raw) ? raw : raw.traceEvents;
}

/** The renderers' main threads (their thread-name metadata events). */
export function rendererMainThreads(events: readonly TraceEvent[]): TraceEvent[] {
  return events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
}
