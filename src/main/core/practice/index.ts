/** Practice mode for main's entry point: one call builds the host and the mode over the app's settings and vault. */
import type { Logger } from '../../log';
import { DeploymentPinning, type SettingsService } from '../../settings';
import type { Vault } from '../../vault';
import { PracticeHost, type PracticeSpawner } from './practice-host';
import { PracticeMode } from './practice-mode';

export { PracticeHost, type PracticeSpawner, type PracticeWorkerPort } from './practice-host';
export { PracticeMode } from './practice-mode';

export interface CreatePracticeOptions {
  readonly spawn: PracticeSpawner;
  readonly dataDir: string;
  readonly settings: SettingsService;
  readonly vault: Vault;
  readonly logger: Logger;
  /** The core's pinning (one per settings); a new one when absent. */
  readonly pinning?: DeploymentPinning;
}

export function createPracticeMode(o: CreatePracticeOptions): PracticeMode {
  const pinning = o.pinning ?? new DeploymentPinning(o.settings);
  return new PracticeMode({
    host: new PracticeHost({ spawn: o.spawn, dataDir: o.dataDir, logger: o.logger.child({ scope: 'practice' }) }),
    settings: o.settings,
    pinning,
    vault: o.vault,
    logger: o.logger.child({ scope: 'practice' }),
  });
}
