// PracticeHost against a worker double that speaks the practice worker's messages: it starts, says
// where it stands, credits play money, keeps the journal across a restart and drops it on a fresh
// start, and treats every message as untrusted (garbage ignored, a foreign domain or an address off
// this computer refused, a crash reported in words).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { PracticeHost, type PracticeSpawner } from '../../src/main/core/practice';
import { silentLogger } from '../../src/main/log';
import { PRACTICE_GRANT } from '../../src/shared/practice';
import { practiceWorkerDouble, type WorkerDouble } from './worker-double';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setUp(spawn?: PracticeSpawner, double: WorkerDouble = practiceWorkerDouble({ bots: 0 })) {
  const dataDir = mkdtempSync(join(tmpdir(), 'practice-host-'));
  const host = new PracticeHost({
    spawn: spawn ?? double.spawn,
    dataDir,
    logger: silentLogger,
    startTimeoutMs: 20_000,
    bots: 0,
  });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => double.stopAll());
  cleanups.push(() => host.stop());
  return { host, double, dataDir };
}

async function balanceAt(httpUrl: string, account: string): Promise<bigint> {
  const res = await fetch(new URL(`balance/${account}`, `${httpUrl.replace(/\/$/, '')}/`));
  return BigInt(((await res.json()) as { balance: string }).balance);
}

describe('PracticeHost', () => {
  it('starts the worker with the journal folder, answers on loopback, and credits play money', async () => {
    const { host, double, dataDir } = setUp();
    const stages: string[] = [];
    host.onChange((s) => stages.push(s.state));
    expect(host.status().state).toBe('off');
    const endpoints = await host.start();
    expect(double.spawned).toEqual([{ dataDir, fresh: false, bots: 0 }]);
    expect(endpoints.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    // The double's catalog: BTC 1m and 5m, ETH 1h, named by the worker.
    expect(endpoints.markets.map((m) => m.symbol)).toEqual(['BTC', 'BTC', 'ETH']);
    expect(host.status()).toMatchObject({ state: 'ready', problem: null, startupMs: endpoints.startupMs });
    expect(stages[0]).toBe('starting');
    expect(stages.at(-1)).toBe('ready');
    // A second start while running is the same worker.
    expect(await host.start()).toBe(endpoints);
    expect(double.spawned.length).toBe(1);

    const account = Wallet.createRandom().address;
    await host.credit(account, PRACTICE_GRANT);
    expect(await balanceAt(endpoints.httpUrl, account)).toBe(PRACTICE_GRANT);
  }, 60_000);

  it('keeps the journal across a stop and start, and starts over when fresh', async () => {
    const { host, double } = setUp();
    const account = Wallet.createRandom().address;
    await host.start();
    await host.credit(account, PRACTICE_GRANT);
    await host.stop();
    expect(host.status().state).toBe('off');
    await expect(host.credit(account, 1n)).rejects.toMatchObject({ code: 'practice.not_running' });

    const again = await host.start();
    expect(await balanceAt(again.httpUrl, account)).toBe(PRACTICE_GRANT);
    const fresh = await host.start(true);
    expect(double.spawned.map((s) => s.fresh)).toEqual([false, false, true]);
    expect(await balanceAt(fresh.httpUrl, account)).toBe(0n);
  }, 90_000);

  it('ignores messages that are not the worker’s, and refuses a worker that names another domain', async () => {
    const garbled = practiceWorkerDouble({
      bots: 0,
      tamper: (e) => (e.type === 'progress' ? { type: 'progress', stage: 42, extra: true } : e),
    });
    const { host } = setUp(undefined, garbled);
    expect((await host.start()).httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);

    const foreign = practiceWorkerDouble({
      bots: 0,
      tamper: (e) =>
        e.type === 'ready' ? { ...e, domain: { ...e.domain, verifyingContract: Wallet.createRandom().address } } : e,
    });
    const second = setUp(undefined, foreign);
    await expect(second.host.start()).rejects.toMatchObject({
      code: 'practice.failed',
      message: 'The practice exchange named another signing domain than practice’s own, so practice did not start.',
    });
    expect(second.host.status()).toMatchObject({ state: 'failed', endpoints: null });

    const remote = practiceWorkerDouble({
      bots: 0,
      tamper: (e) => (e.type === 'ready' ? { ...e, httpUrl: 'http://203.0.113.7:8787/' } : e),
    });
    const third = setUp(undefined, remote);
    await expect(third.host.start()).rejects.toMatchObject({
      message: 'The practice exchange answered on an address off this computer, so practice did not start.',
    });
  }, 90_000);

  it('says why when the worker cannot be spawned or stops on its own', async () => {
    const { host } = setUp(() => {
      throw new Error('no such file: practice-worker.js');
    });
    await expect(host.start()).rejects.toMatchObject({
      message: 'The practice exchange could not be started on this computer.',
    });
    expect(host.status().problem).toBe('The practice exchange could not be started on this computer.');

    const crashing = setUp();
    await crashing.host.start();
    await crashing.double.crash();
    expect(crashing.host.status()).toMatchObject({
      state: 'failed',
      problem: 'The practice exchange stopped (exit code 1).',
    });
  }, 60_000);
});
