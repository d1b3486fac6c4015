// `npm run bench -- working-orders`: a working order's trigger → its order on the wire, measured in
// main from the market-data event that made the trigger true (the book update main received) to the
// first socket write of its POST to the exchange; beside it, in the same run and process, the plain
// hotkey order's core → wire (orders.place reaching the core → its POST's first write). A real core
// and devnet (no bots): each cycle alice buys 1 contract from bob with a hotkey order, sets a stop
// at 45¢ on it, and bob's bid at 44¢ fires it. WO_BENCH_CYCLES sets the cycles (default 200).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { devnetClient } from '../src/exchange/bots';
import { coreProbe } from '../src/main/core/probe';
import { devnetMarkets } from '../src/main/core/session/market-directory';
import { devnetDeploymentAt } from '../src/main/settings';
import type { MarketSummary, WorkingOrderView } from '../src/shared/bridge';
import type { Address } from '../src/shared/protocol';
import { startTradingDevnet } from '../test/core/trading-devnet';
import { TEST_PASSWORD, createTestCore } from '../test/support/test-core';
import { installCoreTimingProbe } from './core-timing-probe';
import { note, ratio, type Benchmark } from './harness';

const C = 10_000n;
const N = 1_000_000n;
const D = 1_000_000n;

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (x: number): string => `${x.toFixed(2)} ms`;

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const bench: Benchmark = {
  name: 'working-orders',
  async run(report) {
    const cycles = Number(process.env['WO_BENCH_CYCLES'] ?? 200);
    const temp = await startTradingDevnet('wo-bench-', { demoAccounts: 3, btcEpochSeconds: 60n, flatBtc: true });
    const devnet = temp.devnet;
    const t = await createTestCore({
      trading: {
        markets: devnetMarkets(devnet.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol }))),
        pollMs: 250,
        healthMs: 1000,
        balancePollMs: 500,
      },
    });
    const ok = async <T>(method: string, ...args: unknown[]): Promise<T> => {
      const o = await t.core.invoke(method, args);
      if (!o.ok) throw new Error(`${method}: ${o.error.code} ${o.error.message}`);
      return o.value as T;
    };
    // Our probe first, the hotkey probe over it: both see every socket write.
    let armedAt = NaN;
    const triggerToWire: number[] = [];
    coreProbe.onWorkingFire = (at) => void (armedAt = at);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- restored below; called with apply(this)
    const origWrite = net.Socket.prototype.write;
    net.Socket.prototype.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
      if (!Number.isNaN(armedAt)) {
        const head = Buffer.isBuffer(args[0]) ? args[0].subarray(0, 8).toString('latin1') : String(args[0]).slice(0, 8);
        if (head.startsWith('POST ')) {
          triggerToWire.push(performance.now() - armedAt);
          armedAt = NaN;
        }
      }
      return origWrite.apply(this, args);
    } as net.Socket['write'];
    const hotkey: number[] = [];
    const probe = installCoreTimingProbe(devnet.httpUrl);
    probe.onOrder((timing) => hotkey.push(timing.wire - timing.core));
    try {
      await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
      const alice = (
        await ok<{ address: Address }>('keys.importPrivateKey', {
          privateKey: devnet.accounts[0]!.privateKey,
          label: 'alice',
        })
      ).address;
      const bob = devnetClient(devnet, devnet.accounts[1]!.privateKey, { timeoutMs: 10_000, doctor: false });
      await devnet.exchange.credit(alice, 100_000n * D);
      await devnet.exchange.credit(devnet.accounts[1]!.address, 1_000_000n * D);
      t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
      // Two orders a cycle, a cycle every few hundred ms: over the default 120 a minute.
      t.settings.updateSettings({ riskLimits: { ...t.settings.getSettings().riskLimits, maxOrdersPerMinute: 6000 } });
      t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
      await until(async () => (await ok<{ pin: { kind: string } }>('app.connection')).pin.kind === 'pinned', 60_000);
      await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
      let eth: MarketSummary | undefined;
      await until(async () => {
        eth = (await ok<MarketSummary[]>('markets.list')).find((m) => m.symbol === 'ETH');
        return eth !== undefined && eth.fairPrice !== null;
      }, 60_000);
      const x = { assetId: eth!.assetId, epoch: eth!.epoch };
      const m = { assetId: BigInt(x.assetId), epoch: BigInt(x.epoch) };
      const inventory = async (): Promise<bigint> =>
        (await bob.getPosition(alice, m.assetId, m.epoch).catch(() => null))?.inventory ?? 0n;
      for (let i = 0; i < cycles; i++) {
        await bob.cancelAll(m).catch(() => undefined);
        await bob.placeOrder({ ...m, side: 'sell', price: 50n * C, size: N, timeInForce: 'GTC' });
        // The hotkey's order: what the ladder's Shift+B sends.
        await ok('orders.place', {
          ...x,
          side: 'buy',
          price: '52',
          size: '1',
          timeInForce: 'IOC',
          signAs: 'master',
          marketable: true,
        });
        await until(async () => {
          const view = await ok<{ positions: { assetId: string; epoch: string; size: string }[] }>('account.get');
          return view.positions.some((p) => p.assetId === x.assetId && p.epoch === x.epoch && p.size === N.toString());
        });
        const w = await ok<WorkingOrderView>('workingOrders.create', {
          kind: 'exit',
          ...x,
          signAs: 'master',
          trigger: { type: 'stop', price: '45' },
        });
        // Quiet for a moment (the book and the account settle), then the bid that fires it.
        await new Promise((r) => setTimeout(r, 30));
        await bob.placeOrder({ ...m, side: 'buy', price: 44n * C, size: N, timeInForce: 'GTC' });
        await until(async () => {
          const v = (await ok<WorkingOrderView[]>('workingOrders.list')).find((o) => o.id === w.id);
          return v?.state === 'done' || v?.state === 'stopped';
        });
        await until(async () => (await inventory()) === 0n);
      }
    } finally {
      probe.stop();
      net.Socket.prototype.write = origWrite;
      coreProbe.onWorkingFire = null;
      t.close();
      await temp.stop();
    }
    for (const [label, xs] of [
      ['working order: book event → exit on the wire', triggerToWire],
      ['hotkey order: core → wire', hotkey],
    ] as const) {
      const sorted = [...xs].sort((a, b) => a - b);
      const p50 = pct(sorted, 50);
      const p99 = pct(sorted, 99);
      console.log(
        `  ${label}: p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(sorted.at(-1) ?? NaN)} (${sorted.length} samples)`,
      );
      report.measurements.push({
        label: `${label} (p50)`,
        opsPerRound: 1,
        rounds: sorted.length,
        opsPerSec: 1000 / p50,
        minOpsPerSec: 1000 / (sorted.at(-1) ?? NaN),
        maxOpsPerSec: 1000 / (sorted[0] ?? NaN),
        usPerOp: p50 * 1000,
      });
      ratio(report, `p99 (ms), ${label}`, p99, label.startsWith('working') ? { atMost: 5 } : undefined);
    }
    note(
      report,
      'Both in the same process and run: the working order from the book update main received to its POST’s first socket write (the state machine, the store write, the gate, signing); the hotkey from orders.place reaching the core. Confirmations off, signing on WebAssembly after unlock; a shared 2-core machine.',
    );
  },
};

export default bench;
