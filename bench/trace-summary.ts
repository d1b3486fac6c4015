// Where a frame's main-thread time goes, from a Chrome trace (UI_BENCH_TRACE of the ui-ladder
// bench): the renderer main thread's complete events summed by name, per frame.
//   npx tsx bench/trace-summary.ts /tmp/trace.json [top=25]
import { readTrace, rendererMainThreads } from './chrome-trace';

const [file, topArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npx tsx bench/trace-summary.ts <trace.json> [top]');
  process.exit(2);
}
const events = readTrace(file);
const main = rendererMainThreads(events)[0];
if (!main) throw new Error('No CrRendererMain thread in this trace.');
const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
const frames = onMain.filter((e) => e.name === 'ProxyMain::BeginMainFrame').length;
const totals = new Map<string, { us: number; n: number }>();
for (const e of onMain) {
  const t = totals.get(e.name) ?? { us: 0, n: 0 };
  t.us += e.dur ?? 0;
  t.n++;
  totals.set(e.name, t);
}
// Nested events are each counted in full (a frame's BeginMainFrame contains its Layout and Paint).
console.log(`${frames} frames on the renderer main thread; ms per frame, events nest:`);
for (const [name, t] of [...totals].sort((a, b) => b[1].us - a[1].us).slice(0, Number(topArg ?? 25))) {
  console.log(`${(t.us / 1000 / Math.max(1, frames)).toFixed(2).padStart(8)}  ${name} (${t.n}×)`);
}
