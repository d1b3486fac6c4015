/** A real core over a file-fallback vault in a temp dir, for the node tests of this folder. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createLogger } from '../../src/main/log';
import { DeploymentPinning, SettingsService, type Deployment } from '../../src/main/settings';
import { createMemoryStore, type KeyValueStore } from '../../src/main/store/key-value-store';
import { createManualClock, openVault } from '../../src/main/vault';
import { createAppCore, type AppCore } from '../../src/main/core/app-core';
import type { DevnetAccountEntry } from '../../src/main/core/devnet/devnet-accounts';
import { createScriptedDialogs, type ScriptedDialogs } from './scripted-dialogs';
import type { DeploymentsOptions } from '../../src/main/core/handlers/deployments';
import type { TradingOptions } from '../../src/main/core/session/host';
import type { UpdateService } from '../../src/main/updates';
import { createPracticeMode, type PracticeMode, type PracticeSpawner } from '../../src/main/core/practice';

export const TEST_PASSWORD = 'correct horse battery';
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };

/** The kit worker from its TypeScript source, as the app runs its built one (vitest's loader does not reach workers). */
const kitWorker = (): Worker =>
  new Worker(new URL('../core/ts-worker-boot.mjs', import.meta.url), {
    workerData: { entry: new URL('../../src/main/core/airgap/kit-worker.ts', import.meta.url).href },
  });

export interface TestCore {
  core: AppCore;
  settings: SettingsService;
  pinning: DeploymentPinning;
  dialogs: ScriptedDialogs;
  clock: ReturnType<typeof createManualClock>;
  dir: string;
  /** Main's store (settings, pins, the vault's record, the day's records): a restart reuses it. */
  store: KeyValueStore;
  warmUps: () => number;
  /** Run what the core deferred (the signing warm-up). */
  flushDeferred(): void;
  logText(): string;
  /** Practice mode over this core's settings and vault, when the test gave a spawner. */
  practice: PracticeMode | null;
  vault: Awaited<ReturnType<typeof openVault>>;
  /** Ends the core and its vault as quitting the app does, leaving the store and the folder for a restart (`reuse`). */
  shutDown(): void;
  close(): void;
}

export async function createTestCore(
  options: {
    devnetAccounts?: DevnetAccountEntry[];
    trading?: TradingOptions;
    defaultDeployments?: Deployment[];
    deployments?: DeploymentsOptions;
    /** Started with --offline (offline-mode.ts). */
    launchedOffline?: boolean;
    /** scrypt cost of exported keystores; a cheap one by default (production writes N = 2^17). */
    keystoreScrypt?: { N: number; r: number; p: number };
    /** Runs before the core exists: settings and pins as a previous run of the app left them. */
    beforeCore?: (settings: SettingsService, pinning: DeploymentPinning) => void;
    /** The app's own updates (src/main/updates); none by default. */
    updates?: UpdateService;
    /** Practice mode with this worker spawner (a double in node tests); none by default. */
    practice?: { spawn: PracticeSpawner };
    /**
     * A restart: the core starts over the store and folder (vault file, logs) a previous core left
     * (after its shutDown()); closing this one removes the folder.
     */
    reuse?: { store: KeyValueStore; dir: string };
  } = {},
): Promise<TestCore> {
  const dir = options.reuse?.dir ?? mkdtempSync(join(tmpdir(), 'core-test-'));
  const store = options.reuse?.store ?? createMemoryStore();
  const clock = createManualClock();
  const settings = new SettingsService({
    store,
    ...(options.defaultDeployments ? { defaultDeployments: options.defaultDeployments } : {}),
  });
  const vault = await openVault({
    store,
    filePath: join(dir, 'keys.vault'),
    forceFile: true,
    clock,
    passwordScrypt: CHEAP,
    keystoreScrypt: options.keystoreScrypt ?? CHEAP,
  });
  const dialogs = createScriptedDialogs();
  const logger = createLogger({ dir: join(dir, 'logs'), minLevel: 'debug' });
  let warmUps = 0;
  const deferred: (() => void)[] = [];
  const pinning = new DeploymentPinning(settings, () => clock.now());
  options.beforeCore?.(settings, pinning);
  const practice = options.practice
    ? createPracticeMode({ spawn: options.practice.spawn, appDataDir: dir, settings, vault, logger, pinning })
    : null;
  const core = createAppCore({
    vault,
    settings,
    store,
    pinning,
    dialogs,
    logger,
    app: { version: '9.9.9', platform: 'linux' },
    now: () => clock.now(),
    devnetAccounts: options.devnetAccounts ?? [],
    kitStore: store,
    kitWorker,
    ...(options.trading ? { trading: options.trading } : {}),
    ...(options.deployments ? { deployments: options.deployments } : {}),
    ...(options.launchedOffline ? { launchedOffline: true } : {}),
    ...(options.updates ? { updates: options.updates } : {}),
    ...(practice ? { practice } : {}),
    warmUpSigning: () => void warmUps++,
    defer: (fn) => {
      deferred.push(fn);
      return () => deferred.splice(deferred.indexOf(fn), 1);
    },
  });
  return {
    core,
    settings,
    pinning,
    dialogs,
    clock,
    dir,
    store,
    warmUps: () => warmUps,
    practice,
    vault,
    flushDeferred: () => {
      for (const fn of deferred.splice(0)) fn();
    },
    logText: () => {
      try {
        return readFileSync(logger.filePath, 'utf8');
      } catch {
        return '';
      }
    },
    shutDown: () => {
      core.dispose();
      vault.dispose();
    },
    close: () => {
      core.dispose();
      vault.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
