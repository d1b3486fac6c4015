/**
 * Auto-claim (setting `autoClaim`, off by default): when an epoch resolves and the account has
 * something to claim in it, claim it. A few bounded attempts (the claimable amount can lag the
 * resolution by a moment), one notice per claim, never more than one claim in flight per epoch.
 */
import type { ClaimResult } from '../../../shared/bridge';

export interface AutoClaimOptions {
  enabled(): boolean;
  /** What the account can claim in the epoch now (0 when nothing). */
  claimable(assetId: bigint, epoch: bigint): Promise<bigint>;
  claim(assetId: bigint, epoch: bigint): Promise<ClaimResult>;
  notify(level: 'info' | 'warning', message: string): void;
  sleep(ms: number): Promise<void>;
  attempts?: number;
  retryMs?: number;
}

export class AutoClaimer {
  readonly #o: AutoClaimOptions;
  readonly #busy = new Set<string>();

  constructor(opts: AutoClaimOptions) {
    this.#o = opts;
  }

  /** Called once per resolved epoch; resolves when the claim is done or given up. */
  async onResolved(assetId: bigint, epoch: bigint): Promise<void> {
    if (!this.#o.enabled()) return;
    const key = `${assetId}:${epoch}`;
    if (this.#busy.has(key)) return;
    this.#busy.add(key);
    try {
      const attempts = this.#o.attempts ?? 3;
      let lastError: string | null = null;
      for (let i = 0; i < attempts; i++) {
        if (i > 0) await this.#o.sleep(this.#o.retryMs ?? 2_000);
        if (!this.#o.enabled()) return;
        try {
          if ((await this.#o.claimable(assetId, epoch)) <= 0n) {
            lastError = null;
            continue;
          }
          const r = await this.#o.claim(assetId, epoch);
          if (r.status === 'CLAIMED') {
            this.#o.notify('info', `Auto-claim: ${r.summary}.`);
            return;
          }
          lastError = r.summary;
        } catch (error) {
          lastError = error instanceof Error ? error.message : 'the claim failed';
        }
      }
      if (lastError)
        this.#o.notify(
          'warning',
          `Auto-claim gave up after ${attempts} tries: ${lastError}. Claim it on the Funds screen.`,
        );
    } finally {
      this.#busy.delete(key);
    }
  }
}
