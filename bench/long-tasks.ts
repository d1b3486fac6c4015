// What the renderer's long tasks were made of, from a Chrome trace (LIVE_TRACE=1 of
// bench/live-profile.ts): each task over 50 ms on the renderer's main thread with its biggest parts.
//   npx tsx bench/long-tasks.ts <trace.json> [minMs=50]
import { readTrace, rendererMainThreads } from './chrome-trace';

const [file, minArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npx tsx bench/long-tasks.ts <trace.json> [minMs]');
  process.exit(2);
}
const min = Number(minArg ?? '50') * 1000;
const events = readTrace(file);
for (const main of rendererMainThreads(events)) {
  const onMain = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts !== undefined)
    .sort((a, b) => a.ts! - b.ts!);
  const tasks = onMain.filter(
    (e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && (e.dur ?? 0) >= min,
  );
  const span = (onMain.at(-1)!.ts! - onMain[0]!.ts!) / 1e6;
  console.log(`renderer ${main.pid}: ${tasks.length} tasks ≥ ${min / 1000} ms in ${span.toFixed(0)} s`);
  const totals = new Map<string, number>();
  for (const task of tasks) {
    const inside = onMain.filter(
      (e) => e !== task && e.ts! >= task.ts! && e.ts! + (e.dur ?? 0) <= task.ts! + task.dur!,
    );
    const parts = new Map<string, number>();
    for (const e of inside) {
      const label =
        e.name === 'FunctionCall' ||
        e.name === 'EventDispatch' ||
        e.name === 'TimerFire' ||
        e.name === 'FireAnimationFrame'
          ? `${e.name} ${e.args?.data?.functionName ?? e.args?.data?.type ?? ''} ${(e.args?.data?.url ?? '').split('/').at(-1)}`
          : e.name;
      parts.set(label, (parts.get(label) ?? 0) + (e.dur ?? 0));
    }
    const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6);
    for (const [k, us] of top) totals.set(k, (totals.get(k) ?? 0) + us);
    console.log(
      `  ${(task.dur! / 1000).toFixed(0)} ms: ${top.map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`).join(' | ')}`,
    );
  }
  console.log('  summed over those tasks (nested parts each counted):');
  for (const [k, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`    ${(us / 1000).toFixed(0)} ms  ${k}`);
}
