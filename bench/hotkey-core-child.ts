/**
 * The app core for the hotkey bench, in a process of its own like Electron's main (UI_BENCH_CORE_PROCESS=1):
 * the harness server and the core, nothing else (Playwright, the page's bindings and the bench loop
 * stay in the bench process, the devnet in its own). It reports what bench/core-timing-probe.ts
 * times over the IPC channel. Forked by bench/hotkey-core-process.ts.
 */
import { startCoreServer, type HarnessDevnet } from '../e2e/harness/core-server';
import { installCoreTimingProbe } from './core-timing-probe';
import type { CoreChildMessage, CoreParentMessage, WireDevnet } from './hotkey-core-process';

if (process.send === undefined) throw new Error('forked by bench/hotkey-core-process.ts');
const send = (m: CoreChildMessage): void => void process.send!(m);

const wire = JSON.parse(process.argv[2] ?? '') as WireDevnet;
const devnet: HarnessDevnet = {
  ...wire,
  chainId: BigInt(wire.chainId),
  markets: wire.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })),
};
const server = await startCoreServer({ devnet });
const probe = installCoreTimingProbe(devnet.httpUrl);
probe.onOrder((timing) => send({ type: 'order', ...timing }));
probe.onAnswer((at) => send({ type: 'answer', ...at }));

process.on('message', (m: CoreParentMessage) => {
  if (m.type === 'engines') void probe.engines().then((e) => send({ type: 'engines', ...e }));
  else if (m.type === 'stop') {
    probe.stop();
    void server.close().finally(() => process.exit(0));
  }
});
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
send({ type: 'ready', url: server.url, token: server.token, backend: server.backend(), sched: probe.sched });
