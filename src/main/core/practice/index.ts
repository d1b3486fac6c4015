/**
 * Practice mode for main's entry point: one call builds the host and the mode over the app's settings
 * and vault. The app, the e2e harness and the node tests' core all build it here, so the journal's place
 * in the app's data folder and the worker thread the built worker runs in are decided once.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../log';
import { DeploymentPinning, type SettingsService } from '../../settings';
import type { Vault } from '../../vault';
import { PracticeHost, type PracticeSpawner } from './practice-host';
import { PracticeMode } from './practice-mode';

export { PracticeHost, type PracticeSpawner, type PracticeWorkerPort } from './practice-host';
export { PracticeMode } from './practice-mode';

export interface CreatePracticeOptions {
  readonly spawn: PracticeSpawner;
  /** The app's data folder (userData; a temp folder in tests): the journal is its `practice` folder. */
  readonly appDataDir: string;
  readonly settings: SettingsService;
  readonly vault: Vault;
  readonly logger: Logger;
  /** The core's pinning (one per settings); a new one when absent. */
  readonly pinning?: DeploymentPinning;
}

export function createPracticeMode(o: CreatePracticeOptions): PracticeMode {
  const pinning = o.pinning ?? new DeploymentPinning(o.settings);
  const logger = o.logger.child({ scope: 'practice' });
  return new PracticeMode({
    host: new PracticeHost({ spawn: o.spawn, dataDir: join(o.appDataDir, 'practice'), logger }),
    settings: o.settings,
    pinning,
    vault: o.vault,
    logger,
  });
}

/** Starts the built worker (out/main/practice-worker.js) in a worker thread with the PracticeStart as its workerData. */
export function workerThreadSpawner(file: string | URL): PracticeSpawner {
  return (workerData) => new Worker(file, { workerData });
}
