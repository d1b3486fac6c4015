/**
 * Practice in the BUILT app: out/main/index.js under the Electron double (boot-driver.mjs), with no
 * devnet anywhere, enters practice from a first run (out/main/practice-worker.js in a worker thread),
 * shows a live book, buys from a bot, quits as Electron does, and started again in the same app data
 * folder finds practice running and the position intact.
 *
 * Needs `electron-vite build` first: runs in the `built` step of `npm test`, after `build`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRACTICE_DEPLOYMENT_ID, PRACTICE_GRANT } from '../../src/shared/practice';

const MAIN = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { main: string }).main;
const BUNDLE = resolve(MAIN);
const DRIVER = resolve('test/built/boot-driver.mjs');

interface PracticeReport {
  loaded: boolean;
  errors: string[];
  practiceQuit?: boolean;
  practice?: Record<string, unknown>;
}

function run(mode: 'practice-first' | 'practice-restart', userData: string): PracticeReport {
  const env: NodeJS.ProcessEnv = { ...process.env, BOOT_USERDATA: userData };
  delete env['EXCHANGE_TERMINAL_DEVNET_ACCOUNTS'];
  const r = spawnSync(process.execPath, [DRIVER, BUNDLE, mode], { encoding: 'utf8', timeout: 120_000, env });
  const line = r.stdout.split('\n').find((l) => l.startsWith('BOOT-REPORT '));
  if (!line) throw new Error(`the built app did not report (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice('BOOT-REPORT '.length)) as PracticeReport;
}

let userData: string;
let firstRun: PracticeReport;
let secondRun: PracticeReport;

beforeAll(() => {
  if (!existsSync(BUNDLE) || !existsSync(resolve('out/main/practice-worker.js')))
    throw new Error('out/main/index.js and out/main/practice-worker.js do not exist: build first (npm test does).');
  userData = mkdtempSync(join(tmpdir(), 'practice-built-'));
  firstRun = run('practice-first', userData);
  secondRun = run('practice-restart', userData);
}, 300_000);
afterAll(() => rmSync(userData, { recursive: true, force: true }));

describe('practice in the built app', () => {
  it('starts from a first run with no devnet, shows a live book, and a bot fills a buy', () => {
    expect(firstRun.errors).toEqual([]);
    const p = firstRun.practice as {
      deploymentsBefore: number;
      selectedBefore: string;
      started: { confirmed: boolean; value: { active: boolean; state: string; keys: string[] } };
      liveMarkets: number;
      symbols: string[];
      book: { bids: number; asks: number };
      funds: { amount: string; account: string };
      order: { status: string; filled: string };
      position: { size: string };
      master: string;
      keys: { address: string; practice: boolean }[];
      connection: { practice: boolean; deploymentId: string };
      dialogTitles: string[];
    };
    expect([p.deploymentsBefore, p.selectedBefore]).toEqual([0, '']);
    expect(p.started).toMatchObject({ confirmed: true, value: { active: true, state: 'ready' } });
    expect(p.connection).toMatchObject({ practice: true, deploymentId: PRACTICE_DEPLOYMENT_ID });
    expect(p.liveMarkets).toBeGreaterThan(0);
    // The markets carry the tickers the worker named them by (main keeps no table of its own).
    expect(p.symbols).toEqual(['BTC', 'ETH', 'SOL']);
    expect(p.book.bids + p.book.asks).toBeGreaterThan(0);
    expect(p.funds).toEqual({ amount: PRACTICE_GRANT.toString(), account: p.master });
    expect(p.keys).toEqual([{ ...p.keys[0], address: p.master, practice: true }]);
    expect(p.order.status).toBe('FILLED');
    expect(p.position.size).toBe('2000000');
    // No dialog to enter practice from a first run; the order's confirmation said Practice.
    expect(p.dialogTitles.length).toBeGreaterThan(0);
    expect(p.dialogTitles.every((t) => t.startsWith('Practice · '))).toBe(true);
    // Quitting waited for the practice exchange to stop.
    expect(firstRun.practiceQuit).toBe(true);
  });

  it('started again, finds practice running and the position intact', () => {
    expect(secondRun.errors).toEqual([]);
    const first = firstRun.practice as { market: { assetId: string; epoch: string }; master: string };
    const p = secondRun.practice as {
      status: { active: boolean; state: string };
      selection: { master: string };
      positions: { assetId: string; epoch: string; size: string }[];
    };
    expect(p.status).toMatchObject({ active: true, state: 'ready' });
    expect(p.selection.master).toBe(first.master);
    expect(p.positions.find((x) => x.assetId === first.market.assetId && x.epoch === first.market.epoch)?.size).toBe(
      '2000000',
    );
    expect(secondRun.practiceQuit).toBe(true);
  });
});
