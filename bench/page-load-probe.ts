// Where a page load's time goes before the status bar reads connected (issue 29, item 2): the
// navigation's own milestones in the page and when each bridge call of the new page reaches the core
// (ms from navigation start), for a few loads with the bots off and on.
//   npx tsx bench/page-load-probe.ts [loads=5]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { measurePageLoad, waitForLiveQuotes } from './ui-page-figures';
import { buildRenderer, startUiRig } from './ui-shared';
import { LONG_TASK_TRACE_CATEGORIES } from './chrome-trace';

const loads = Number(process.argv[2] ?? '5');
buildRenderer();
let calls: { method: string; at: number }[] = [];
const rig = await startUiRig({
  onBinding: (method) => calls.push({ method, at: performance.timeOrigin + performance.now() }),
});
try {
  const { page } = rig;
  const url = page.url();
  for (const bots of [false, true]) {
    await rig.devnet.bots(bots);
    if (bots) await waitForLiveQuotes(page);
    for (let i = 0; i < loads; i++) {
      calls = [];
      // PROBE_TRACE=path: a Chrome trace of the last live load (bench/long-tasks.ts reads it).
      const tracePath = process.env['PROBE_TRACE'];
      const browser = page.context().browser();
      const tracing = bots && i === loads - 1 && tracePath !== undefined && browser !== null;
      await measurePageLoad(page, url, 0);
      if (tracing)
        await browser.startTracing(page, {
          path: tracePath,
          categories: LONG_TASK_TRACE_CATEGORIES,
        });
      const { loadToConnected, loadToLadder } = await measurePageLoad(page, url, 1);
      if (tracing) await browser.stopTracing();
      const nav = await page.evaluate(() => {
        type Timing = { name: string; startTime: number; responseEnd: number };
        const p = (
          globalThis as unknown as {
            performance: {
              timeOrigin: number;
              getEntriesByType(t: string): (Timing & Record<string, number>)[];
            };
          }
        ).performance;
        const n = p.getEntriesByType('navigation')[0]!;
        const scripts = p
          .getEntriesByType('resource')
          .map((r) => `${r.name.split('/').at(-1)} ${r.startTime.toFixed(0)}→${r.responseEnd.toFixed(0)}`);
        return {
          origin: p.timeOrigin,
          responseEnd: n.responseEnd,
          domInteractive: n['domInteractive']!,
          domContentLoaded: n['domContentLoadedEventEnd']!,
          load: n['loadEventEnd']!,
          scripts,
        };
      });
      const firstCalls = calls
        .filter((c) => c.at >= nav.origin)
        .slice(0, 8)
        .map((c) => `${c.method} ${(c.at - nav.origin).toFixed(0)}`);
      console.log(
        `${bots ? 'live' : 'idle'}: html ${nav.responseEnd.toFixed(0)}, interactive ${nav.domInteractive.toFixed(0)}, DOMContentLoaded ${nav.domContentLoaded.toFixed(0)}, load ${nav.load.toFixed(0)}; calls reach the core: ${firstCalls.join(', ')}; connected ${loadToConnected[0]!.toFixed(0)}, quotes ${loadToLadder[0]!.toFixed(0)}`,
      );
      if (i === 0) console.log(`  resources: ${nav.scripts.join(', ')}`);
    }
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await rig.devnet.bots(false).catch(() => undefined);
  await rig.close();
}
