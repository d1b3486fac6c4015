/**
 * Practice as a deployment: entering it starts the practice exchange (PracticeHost), makes a practice
 * key when there is none, and points the settings at the worker's loopback URLs, pinned with
 * practice's own domain by main itself (it started the exchange, so no pin dialog asks anyone).
 * The trading host connects only while the worker answers at exactly the URLs written (live()).
 */
import { PRACTICE_DEPLOYMENT_ID, PRACTICE_GRANT } from '../../../shared/practice';
import type { PracticeStatus } from '../../../shared/bridge';
import type { Logger } from '../../log';
import {
  describePinChange,
  factsOf,
  type Deployment,
  type DeploymentPinning,
  type SettingsService,
} from '../../settings';
import type { Vault, VaultKeyInfo } from '../../vault';
import { isPractice, practiceDeploymentAt, practiceFacts, practiceSelected } from './practice-domain';
import type { PracticeEndpoints, PracticeHost } from './practice-host';
import { BridgeFailure } from '../bridge-runtime';

export interface PracticeModeOptions {
  readonly host: PracticeHost;
  readonly settings: SettingsService;
  readonly pinning: DeploymentPinning;
  readonly vault: Vault;
  readonly logger: Logger;
}

export class PracticeMode {
  readonly host: PracticeHost;
  readonly #o: PracticeModeOptions;

  constructor(options: PracticeModeOptions) {
    this.#o = options;
    this.host = options.host;
    // The worker answered: write its URLs before anyone connects (live() compares them).
    options.host.onChange((status) => {
      if (status.state === 'ready' && status.endpoints) this.#point(status.endpoints);
    });
    // Left for a real deployment: the bots stop trading (the journal stays for next time).
    options.settings.onChange((next, previous) => {
      if (practiceSelected(previous) && !practiceSelected(next)) void this.host.stop();
    });
  }

  /** The pinning practice writes its pin with: the core must use this same one (one per settings). */
  get pinning(): DeploymentPinning {
    return this.#o.pinning;
  }

  active(): boolean {
    return practiceSelected(this.#o.settings.getSettings());
  }

  /** The practice keys (created for practice; the vault signs with them under practice's domain only). */
  keys(): VaultKeyInfo[] {
    return this.#o.vault.list().filter((k) => k.practice === true);
  }

  status(): PracticeStatus {
    const s = this.host.status();
    return {
      active: this.active(),
      state: s.state,
      stage: s.stage,
      startupMs: s.startupMs,
      problem: s.problem,
      keys: this.keys().map((k) => k.address),
    };
  }

  /** Whether the trading host may connect to `deployment`: practice only while its worker answers there. */
  live(deployment: Deployment): boolean {
    if (!isPractice(deployment)) return true;
    const endpoints = this.host.status().endpoints;
    return endpoints !== null && endpoints.httpUrl === deployment.httpUrl;
  }

  /** Makes the first practice key when there is none (the vault must be open for that). */
  async ensureKey(): Promise<boolean> {
    if (this.keys().length > 0) return false;
    if (this.#o.vault.isLocked())
      throw new BridgeFailure(
        'vault.locked',
        'Unlock the app first: practice makes a key of its own, which needs the vault open. Nothing was started.',
      );
    await this.#o.vault.createPractice({ label: 'Practice' });
    return true;
  }

  /**
   * Starts the worker (afresh after "Reset practice") and selects practice once it answers. A new
   * practice account, and every fresh start, begins with $1,000 of play money.
   */
  async enter(fresh = false): Promise<void> {
    const made = await this.ensureKey();
    const endpoints = await this.host.start(fresh);
    this.#point(endpoints);
    const first = this.keys().find((k) => k.role === 'master');
    if ((made || fresh) && first) await this.host.credit(first.address, PRACTICE_GRANT);
    this.#o.settings.updateSettings({ selectedDeploymentId: PRACTICE_DEPLOYMENT_ID });
  }

  /** At app start: practice selected last time starts again in the background (its journal kept). */
  resume(): void {
    if (!this.active()) return;
    this.host.start(false).catch((error: unknown) =>
      this.#o.logger.warn('practice.resume_failed', {
        message: error instanceof Error ? error.message : 'non-error',
      }),
    );
  }

  /** The practice entry at the worker's URLs, pinned with practice's constants (never the worker's word). */
  #point(endpoints: PracticeEndpoints): void {
    const { settings, pinning } = this.#o;
    const facts = practiceFacts();
    const pin = pinning.pinFor(PRACTICE_DEPLOYMENT_ID);
    if (!pin || describePinChange(factsOf(pin), facts) !== '') pinning.acceptPin(PRACTICE_DEPLOYMENT_ID, facts);
    // The markets as the worker named them: it built the catalog, so main guesses no ticker.
    const markets = endpoints.markets.map((m) => ({ assetId: m.assetId.toString(), symbol: m.symbol }));
    const entry: Deployment = { ...practiceDeploymentAt(endpoints), markets };
    const current = settings.getSettings();
    const existing = current.deployments.find((d) => d.id === PRACTICE_DEPLOYMENT_ID);
    if (existing && JSON.stringify(existing) === JSON.stringify(entry)) return;
    const others = current.deployments.filter((d) => d.id !== PRACTICE_DEPLOYMENT_ID);
    // Practice is listed last: the deployments the user added keep their places.
    settings.updateSettings({ deployments: [...others, entry] });
  }
}
