// Soak (issue 13, item 2): main's memory over a long trading session. The real app core trades on
// a devnet with liquidity bots (its own process: the heap measured here is the core's) for
// SOAK_MINUTES (default 10) as a busy trader does: every 2 s three resting orders placed and two
// cancelled, edits, crossing orders that fill against the bots, cancel-all and close-position now
// and then, the reads the window makes (account, history, markets, trades, oracle, claims) and a
// ladder that follows its market across epoch roll-overs (BTC 30 s, ETH 60 s epochs).
//
// After a warm-up (SOAK_WARMUP_SECONDS, default 60), the heap after a forced full GC is sampled every
// SOAK_SAMPLE_SECONDS (default 15); the least-squares slope in MB per hour is the figure (target
// under 2 MB/h). Two heap snapshots (warm-up end, run end; SOAK_SNAPSHOTS=0 skips them) say which
// object kinds grew.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { bridgeEventNames, type BridgeOutcome, type MarketSummary } from '../src/shared/bridge';
import { createAppCore, type AppCore } from '../src/main/core';
import { createScriptedDialogs } from '../test/support/scripted-dialogs';
import { devnetMarkets } from '../src/main/core/session/market-directory';
import { createLogger } from '../src/main/log';
import { DeploymentPinning, SettingsService, devnetDeploymentAt } from '../src/main/settings';
import { createMemoryStore } from '../src/main/store/key-value-store';
import { openVault, systemClock, type Vault } from '../src/main/vault';
import { note, ratio, type Benchmark } from './harness';
import {
  biggestGrowth,
  forceGc,
  heapAfterGc,
  slopeMbPerHour,
  summariseSnapshot,
  type HeapSample,
} from './heap-profile';
import { SOAK_DEVNET_LINE, type SoakDevnetInfo } from './soak-devnet';

const here = dirname(fileURLToPath(import.meta.url));
const MINUTES = Number(process.env['SOAK_MINUTES'] ?? '10');
const WARMUP_S = Math.min(Number(process.env['SOAK_WARMUP_SECONDS'] ?? '60'), (MINUTES * 60) / 3);
const SAMPLE_S = Number(process.env['SOAK_SAMPLE_SECONDS'] ?? '15');
const SNAPSHOTS = process.env['SOAK_SNAPSHOTS'] !== '0';
const TICK_MS = 2_000;
const PASSWORD = 'soak bench password';
const CHEAP_SCRYPT = { N: 2 ** 12, r: 8, p: 1 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts bench/soak-devnet.ts in a child process and waits for its ready line. */
async function startSoakDevnet(): Promise<{ info: SoakDevnetInfo; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(here, 'soak-devnet.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)]);
    if (!killed) child.kill('SIGKILL');
  };
  const info = await new Promise<SoakDevnetInfo>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the soak devnet was not ready within 240 s')), 240_000);
    child.once('exit', (code) => reject(new Error(`the soak devnet exited (${code}) before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith(SOAK_DEVNET_LINE));
      if (line) {
        clearTimeout(timer);
        buffered = '';
        resolve(JSON.parse(line.slice(SOAK_DEVNET_LINE.length)) as SoakDevnetInfo);
      } else if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { info, stop };
}

interface SoakCore {
  core: AppCore;
  vault: Vault;
  close(): void;
}

/** The real app core (file vault, settings, logger, trading session) on the soak devnet, as main builds it. */
async function openSoakCore(info: SoakDevnetInfo): Promise<SoakCore> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-core-'));
  const store = createMemoryStore();
  const settings = new SettingsService({ store });
  settings.updateSettings({
    deployments: [devnetDeploymentAt(info)],
    confirmations: { ...settings.getSettings().confirmations, orders: false },
  });
  const vault = await openVault({
    store,
    filePath: join(dir, 'keys.vault'),
    forceFile: true,
    clock: systemClock,
    passwordScrypt: CHEAP_SCRYPT,
    keystoreScrypt: CHEAP_SCRYPT,
  });
  const dialogs = createScriptedDialogs();
  dialogs.whenUnscripted('no');
  const core = createAppCore({
    vault,
    settings,
    pinning: new DeploymentPinning(settings, () => Date.now()),
    dialogs,
    logger: createLogger({ dir: join(dir, 'logs') }),
    app: { version: '0.1.0', platform: process.platform },
    devnetAccounts: [info.trader],
    trading: { markets: devnetMarkets(info.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol }))) },
  });
  return {
    core,
    vault,
    close: () => {
      core.dispose();
      vault.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls and outcomes of the trader, by method. */
class Tally {
  readonly calls = new Map<string, { ok: number; failed: number; codes: Map<string, number> }>();
  record(method: string, outcome: BridgeOutcome): void {
    const t = this.calls.get(method) ?? { ok: 0, failed: 0, codes: new Map<string, number>() };
    if (outcome.ok) t.ok++;
    else {
      t.failed++;
      t.codes.set(outcome.error.code, (t.codes.get(outcome.error.code) ?? 0) + 1);
    }
    this.calls.set(method, t);
  }
  ok(method: string): number {
    return this.calls.get(method)?.ok ?? 0;
  }
  lines(): string[] {
    return [...this.calls].map(
      ([m, t]) =>
        `${m} ${t.ok} ok${t.failed ? `, ${t.failed} failed (${[...t.codes].map(([c, n]) => `${c} ×${n}`).join(', ')})` : ''}`,
    );
  }
}

/** A price in tenths of a cent as a person types it in cents ("45.3"). */
function typed(tenths: bigint): string {
  return `${tenths / 10n}.${tenths % 10n}`;
}

/** An order of ours left resting by a step; prices in tenths of a cent. */
interface Resting {
  orderId: string;
  epoch: string;
  side: 'buy' | 'sell';
  tenths: bigint;
}

/** Epoch roll-overs seen in the market list (the last epoch of each asset and a count). */
class EpochCount {
  readonly #last = new Map<string, string>();
  rollovers = 0;
  saw(assetId: string, epoch: string): void {
    const before = this.#last.get(assetId);
    if (before !== undefined && before !== epoch) this.rollovers++;
    this.#last.set(assetId, epoch);
  }
}

const clampTenths = (t: bigint): bigint => (t < 10n ? 10n : t > 990n ? 990n : t);

/**
 * The busy trader: one step every 2 s on alternating markets, through core.invoke like the window.
 * Returns once `until` (ms timestamp) has passed.
 */
async function trade(
  core: AppCore,
  markets: readonly SoakDevnetInfo['markets'][number][],
  until: number,
  tally: Tally,
  epochs: EpochCount,
): Promise<void> {
  const call = async <T>(method: string, ...args: unknown[]): Promise<T | null> => {
    const outcome = await core.invoke(method, args);
    tally.record(method, outcome);
    return outcome.ok ? (outcome.value as T) : null;
  };
  /** Orders placed at the previous step, per market: two are cancelled one by one, one is left for edits and cancel-all. */
  const previous = new Map<string, Resting[]>();
  let ladder: { subscriptionId: string; assetId: string; epoch: string } | null = null;
  for (let step = 0; Date.now() < until; step++) {
    const started = Date.now();
    core.noteUserInput();
    const list = (await call<MarketSummary[]>('markets.list')) ?? [];
    const spec = markets[step % markets.length]!;
    const m = list.find((x) => x.assetId === spec.assetId);
    for (const x of list) epochs.saw(x.assetId, x.epoch);
    // The ladder shows the first market and follows it into each new epoch.
    const first = list.find((x) => x.assetId === markets[0]!.assetId);
    if (first && (ladder === null || ladder.epoch !== first.epoch)) {
      if (ladder) await call('markets.unsubscribeBook', ladder.subscriptionId);
      const sub = await call<{ subscriptionId: string }>('markets.subscribeBook', {
        assetId: first.assetId,
        epoch: first.epoch,
        depth: 50,
      });
      ladder = sub ? { subscriptionId: sub.subscriptionId, assetId: first.assetId, epoch: first.epoch } : null;
    }
    if (m) {
      const market = { assetId: m.assetId, epoch: m.epoch };
      const bid = m.bestBid === null ? 300n : BigInt(m.bestBid) / 1000n;
      const ask = m.bestAsk === null ? 700n : BigInt(m.bestAsk) / 1000n;
      // Cancel two of the last step's orders one by one; edit the third now and then.
      const last = previous.get(m.assetId) ?? [];
      for (const o of last.slice(0, 2))
        await call('orders.cancel', { assetId: m.assetId, epoch: o.epoch, orderId: o.orderId, signAs: 'master' });
      const kept = last[2];
      if (kept && step % 4 === 1) {
        const moved = clampTenths(kept.side === 'buy' ? kept.tenths - 1n : kept.tenths + 1n);
        await call('orders.replace', {
          assetId: m.assetId,
          epoch: kept.epoch,
          orderId: kept.orderId,
          price: typed(moved),
          size: '1',
          signAs: 'master',
        });
      }
      // Three resting orders a few ticks behind the touch.
      const placedNow: Resting[] = [];
      for (let i = 0; i < 3; i++) {
        const side = (step + i) % 2 === 0 ? ('buy' as const) : ('sell' as const);
        const tenths = clampTenths(side === 'buy' ? bid - 20n - BigInt(i) * 10n : ask + 20n + BigInt(i) * 10n);
        const ticket = {
          ...market,
          side,
          price: typed(tenths),
          size: '1',
          timeInForce: 'GTC' as const,
          signAs: 'master' as const,
        };
        if (i === 0) await call('orders.quote', ticket);
        const r = await call<{ orderId: string; status: string }>('orders.place', ticket);
        if (r && (r.status === 'ACCEPTED' || r.status === 'PARTIALLY_FILLED'))
          placedNow.push({ orderId: r.orderId, epoch: m.epoch, side, tenths });
      }
      previous.set(m.assetId, placedNow);
      // Take liquidity from the bots: an IOC at the touch fills (taker fills, positions, resolutions).
      if (step % 3 === 0 && m.bestAsk !== null && m.bestBid !== null) {
        const buy = step % 2 === 0;
        await call('orders.place', {
          ...market,
          side: buy ? 'buy' : 'sell',
          price: typed(buy ? ask : bid),
          size: '1',
          timeInForce: 'IOC',
          signAs: 'master',
        });
      }
      // A bid at the touch the bots may hit (maker fills).
      if (step % 5 === 2 && m.bestBid !== null)
        await call('orders.place', {
          ...market,
          side: 'buy',
          price: typed(clampTenths(bid + 1n)),
          size: '1',
          timeInForce: 'GTC',
          signAs: 'master',
        });
      if (step % 10 === 9) await call('orders.cancelAll', { ...market, signAs: 'master' });
      if (step % 15 === 14) await call('orders.flatten', { ...market, signAs: 'master' });
      if (step % 2 === 0) {
        await call('markets.trades', market);
        await call('markets.oracleHistory', m.symbolId);
      }
      if (step % 10 === 5) {
        await call('markets.resolvedEpochs', m.assetId);
        await call('claims.list');
      }
      if (step % 30 === 20) await call('claims.claimAll');
    }
    // What the window reads after each action.
    await call('account.get');
    await call('orders.history');
    await call('app.connection');
    const rest = TICK_MS - (Date.now() - started);
    if (rest > 0) await sleep(rest);
  }
  if (ladder) await call('markets.unsubscribeBook', ladder.subscriptionId);
}

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

const bench: Benchmark = {
  name: 'soak',
  async run(report) {
    const t0 = Date.now();
    const devnet = await startSoakDevnet();
    console.log(
      `  devnet with bots ready in ${((Date.now() - t0) / 1000).toFixed(0)} s (own process); ${devnet.info.markets.map((m) => `${m.symbol} ${m.periodSeconds} s epochs`).join(', ')}`,
    );
    // SOAK_SNAPSHOT_DIR keeps the two snapshots (open them in Chrome DevTools' Memory tab to compare).
    const keptDir = process.env['SOAK_SNAPSHOT_DIR'];
    const snapDir = keptDir ?? mkdtempSync(join(tmpdir(), 'soak-heap-'));
    let soak: SoakCore | null = null;
    try {
      soak = await openSoakCore(devnet.info);
      const { core } = soak;
      const eventCounts = new Map<string, number>();
      // The window listens to every event; the bench only counts them.
      for (const event of bridgeEventNames)
        core.on(event, () => void eventCounts.set(event, (eventCounts.get(event) ?? 0) + 1));
      const must = async <T>(method: string, ...args: unknown[]): Promise<T> => {
        const outcome = await core.invoke(method, args);
        if (!outcome.ok) throw new Error(`${method}: ${outcome.error.code} ${outcome.error.message}`);
        return outcome.value as T;
      };
      await must('lock.setPassword', { password: PASSWORD, passwordAgain: PASSWORD });
      await must('keys.useDevnetAccount', { address: devnet.info.trader.address });
      const deadline = Date.now() + 60_000;
      while ((await must<{ pin: { kind: string } }>('app.connection')).pin.kind !== 'pinned') {
        if (Date.now() > deadline) throw new Error('the core never pinned the soak devnet');
        await sleep(250);
      }
      await must('account.select', { master: devnet.info.trader.address, agent: null, tradeAs: 'master' });

      const tally = new Tally();
      const epochs = new EpochCount();
      const start = Date.now();
      const until = start + MINUTES * 60_000;
      const samples: HeapSample[] = [];
      const snapshots: string[] = [];
      let sampler: ReturnType<typeof setInterval> | null = null;
      const sample = () => samples.push({ atMs: Date.now() - start, ...heapAfterGc() });
      const warmup = setTimeout(() => {
        sample();
        if (SNAPSHOTS) snapshots.push(v8.writeHeapSnapshot(join(snapDir, 'warm.heapsnapshot')));
        sampler = setInterval(sample, SAMPLE_S * 1000);
      }, WARMUP_S * 1000);
      console.log(`  trading for ${MINUTES} min (warm-up ${WARMUP_S} s, a heap sample every ${SAMPLE_S} s)…`);
      try {
        await trade(core, devnet.info.markets, until, tally, epochs);
      } finally {
        clearTimeout(warmup);
        if (sampler) clearInterval(sampler);
      }
      sample();
      if (SNAPSHOTS) {
        forceGc();
        snapshots.push(v8.writeHeapSnapshot(join(snapDir, 'end.heapsnapshot')));
      }

      const slope = slopeMbPerHour(samples);
      const first = samples[0]!;
      const last = samples.at(-1)!;
      const placed = tally.ok('orders.place');
      ratio(report, 'heap after GC slope (MB/h)', slope, { atMost: 2 });
      // Compiled code still grows in a short run while the JIT meets new paths; data is what leaks.
      ratio(
        report,
        'heap after GC without compiled code, slope (MB/h)',
        slopeMbPerHour(samples, (s) => s.heapUsed - s.codeUsed),
      );
      note(
        report,
        `heap after GC: first ${mb(first.heapUsed)} (code ${mb(first.codeUsed)}) at ${(first.atMs / 1000).toFixed(0)} s, last ${mb(last.heapUsed)} (code ${mb(last.codeUsed)}) at ${(last.atMs / 1000).toFixed(0)} s, ${samples.length} samples every ${SAMPLE_S} s after a ${WARMUP_S} s warm-up, ${MINUTES} min in all`,
      );
      note(report, `samples (MB): ${samples.map((s) => (s.heapUsed / 1_048_576).toFixed(2)).join(' ')}`);
      note(
        report,
        `orders placed ${placed}, cancelled one by one ${tally.ok('orders.cancel')}, edited ${tally.ok('orders.replace')}, cancel-all ${tally.ok('orders.cancelAll')}, closes ${tally.ok('orders.flatten')}; fill events ${eventCounts.get('fill') ?? 0}; epoch roll-overs seen ${epochs.rollovers}`,
      );
      note(report, `calls: ${tally.lines().join('; ')}`);
      note(report, `events: ${[...eventCounts].map(([e, n]) => `${e} ${n}`).join(', ')}`);
      if (snapshots.length === 2) {
        const growth = biggestGrowth(summariseSnapshot(snapshots[0]!), summariseSnapshot(snapshots[1]!));
        note(
          report,
          `biggest growth from warm-up end to run end (self size, count): ${growth.map((g) => `${g.kind} ${g.bytes >= 0 ? '+' : ''}${(g.bytes / 1024).toFixed(0)} KiB (${g.count >= 0 ? '+' : ''}${g.count})`).join('; ')}`,
        );
      }
      note(
        report,
        'The devnet (chain, exchange, bots) runs in its own process: the heap is the bench process, i.e. the app core and the trader driving it through core.invoke.',
      );
    } finally {
      soak?.close();
      await devnet.stop();
      if (keptDir === undefined) rmSync(snapDir, { recursive: true, force: true });
    }
  },
};

export default bench;
