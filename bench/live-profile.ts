// Where the time goes with the devnet's liquidity bots on (issue 29): a CPU profile of the renderer
// (Chromium's, over CDP) and of the core's process (node's inspector; the core runs in this process,
// as in the UI benches), taken while "B" is pressed on a live market, plus what the page receives
// (bridge events per second, by name) and its long tasks.
//   npx tsx bench/live-profile.ts [seconds=20] [outDir=/tmp/live-profile]
// Writes renderer.cpuprofile and core.cpuprofile (open them in Chrome DevTools) and prints the top
// functions by self and total time in each. UI_BENCH_SKIP_BUILD=1 uses out/ as built.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { summariseProfile, type CpuProfile } from './profile-summary';
import { buildRenderer, startUiRig } from './ui-shared';
import { installPageCounters, readPageCounters, waitForLiveQuotes } from './ui-page-figures';
import { LONG_TASK_TRACE_CATEGORIES } from './chrome-trace';

const seconds = Number(process.argv[2] ?? '20');
const outDir = process.argv[3] ?? '/tmp/live-profile';

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  buildRenderer();
  const rig = await startUiRig();
  try {
    const { page } = rig;
    await rig.devnet.bots(true);
    await waitForLiveQuotes(page);
    await installPageCounters(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const node = new Session();
    node.connect();
    await node.post('Profiler.enable');
    await node.post('Profiler.setSamplingInterval', { interval: 200 });
    // A Chrome trace beside the profiles (LIVE_TRACE=1): what each long task of the renderer was made of.
    const trace = process.env['LIVE_TRACE'] === '1';
    const browser = page.context().browser();
    if (trace && browser)
      await browser.startTracing(page, {
        path: join(outDir, 'trace.json'),
        categories: LONG_TASK_TRACE_CATEGORIES,
      });
    await cdp.send('Profiler.start');
    await node.post('Profiler.start');
    const until = Date.now() + seconds * 1000;
    let presses = 0;
    await page.getByTestId('ladder').getByRole('button', { name: 'Centre' }).focus();
    await page.keyboard.press('1');
    while (Date.now() < until) {
      await page.keyboard.press('b');
      presses++;
      await new Promise((r) => setTimeout(r, 700));
      if (presses % 20 === 0)
        await rig.call('orders.cancelAll', { assetId: rig.market.assetId, epoch: rig.market.epoch, signAs: 'master' });
    }
    const renderer = (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile;
    if (trace && browser) await browser.stopTracing();
    const core = (await node.post('Profiler.stop')).profile as unknown as CpuProfile;
    node.disconnect();
    writeFileSync(join(outDir, 'renderer.cpuprofile'), JSON.stringify(renderer));
    writeFileSync(join(outDir, 'core.cpuprofile'), JSON.stringify(core));
    const counters = await readPageCounters(page);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; ${presses} presses in ${seconds} s`,
    );
    console.log(
      `bridge events into the page per second: ${Object.entries(counters.events)
        .sort((a, b) => b[1] - a[1])
        .map(([e, n]) => `${e} ${(n / counters.seconds).toFixed(1)}`)
        .join(', ')}`,
    );
    console.log(
      `long tasks (> 50 ms): ${counters.longTasks.length} in ${counters.seconds.toFixed(0)} s (${((counters.longTasks.length * 60) / counters.seconds).toFixed(1)}/min), longest ${Math.max(0, ...counters.longTasks).toFixed(0)} ms`,
    );
    console.log('\n== renderer ==');
    for (const line of summariseProfile(renderer)) console.log(`  ${line}`);
    console.log('\n== core (bench process: core, harness, Playwright) ==');
    for (const line of summariseProfile(core)) console.log(`  ${line}`);
    console.log(`\nprofiles in ${outDir}`);
  } finally {
    await rig.devnet.bots(false).catch(() => undefined);
    await rig.close();
  }
}

await main();
