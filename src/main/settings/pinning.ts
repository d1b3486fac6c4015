import { SettingsError } from './errors';
import { DomainFactsSchema, type Deployment, type DomainFacts, type Pin } from './schema';
import type { SettingsService } from './settings-service';
import { toSettingsError } from './settings-service';

export type PinCheck =
  | { kind: 'pinned-now' }
  | { kind: 'match' }
  /** First use of a deployment without a pin: held until the user confirms the facts in main's dialog. */
  | { kind: 'unconfirmed'; observed: DomainFacts }
  | { kind: 'changed'; pinned: DomainFacts; observed: DomainFacts };

export interface CheckPinOptions {
  /**
   * Pin on first use without asking: only for facts main got from a source other than the server
   * and the window (the launcher's devnet.json), or a built-in devnet the app's own launcher started.
   */
  trustFirstUse?: boolean;
}

const SPENDER_LABELS = {
  depositLedger: 'deposit ledger',
  settlementToken: 'settlement token',
  permit2: 'Permit2',
} as const;
const SPENDER_KEYS = Object.keys(SPENDER_LABELS) as (keyof typeof SPENDER_LABELS)[];

const sameAddress = (a: string | null, b: string | null): boolean =>
  a === null || b === null ? a === b : a.toLowerCase() === b.toLowerCase();

function parseFacts(observed: DomainFacts): DomainFacts {
  const parsed = DomainFactsSchema.safeParse(observed);
  if (!parsed.success) throw toSettingsError(parsed.error);
  return parsed.data;
}

function sameSpenders(a: DomainFacts['spenders'], b: DomainFacts['spenders']): boolean {
  // A pin written before spenders were pinned never matches: the user sees and confirms them once.
  if (!a || !b) return a === b;
  return SPENDER_KEYS.every((k) => sameAddress(a[k], b[k]));
}

function same(a: DomainFacts, b: DomainFacts): boolean {
  return (
    a.chainId === b.chainId &&
    a.verifyingContract.toLowerCase() === b.verifyingContract.toLowerCase() &&
    a.domainName === b.domainName &&
    sameSpenders(a.spenders, b.spenders)
  );
}

export function factsOf(pin: Pin): DomainFacts {
  return {
    chainId: pin.chainId,
    verifyingContract: pin.verifyingContract,
    domainName: pin.domainName,
    ...(pin.spenders ? { spenders: pin.spenders } : {}),
  };
}

/** Names what changed, for the dialog and the PIN_CHANGED sentence. */
export function describePinChange(pinned: DomainFacts, observed: DomainFacts): string {
  const parts: string[] = [];
  if (pinned.chainId !== observed.chainId) parts.push(`chain id ${pinned.chainId} → ${observed.chainId}`);
  if (pinned.verifyingContract.toLowerCase() !== observed.verifyingContract.toLowerCase()) {
    parts.push(`exchange contract ${pinned.verifyingContract} → ${observed.verifyingContract}`);
  }
  if (pinned.domainName !== observed.domainName)
    parts.push(`domain name "${pinned.domainName}" → "${observed.domainName}"`);
  if (!pinned.spenders && observed.spenders) parts.push('token contracts not pinned before');
  for (const k of SPENDER_KEYS) {
    const was = pinned.spenders?.[k] ?? null;
    const now = observed.spenders?.[k] ?? null;
    if (pinned.spenders && observed.spenders && !sameAddress(was, now))
      parts.push(`${SPENDER_LABELS[k]} ${was ?? 'none'} → ${now ?? 'none'}`);
  }
  return parts.join(', ');
}

/**
 * Pins each deployment's EIP-712 domain facts (chain id, verifying contract, domain name) and the
 * contracts deposits pay (deposit ledger, settlement token, Permit2). The first pin is trust on first
 * use with a human: the observed facts are held as pending until the user confirms them in main's
 * dialog (deployments.add and deployments.acceptPin show them). A later difference is held the same
 * way and blocks signing until accepted. Pins and pending facts are persisted with the settings.
 */
export class DeploymentPinning {
  readonly #settings: SettingsService;
  readonly #now: () => number;
  /** Deployments whose server contradicts their configuration (another chain id), with the sentence. */
  readonly #refused = new Map<string, string>();

  constructor(settings: SettingsService, now: () => number = Date.now) {
    this.#settings = settings;
    this.#now = now;
  }

  checkPin(deploymentId: string, observed: DomainFacts, options: CheckPinOptions = {}): PinCheck {
    const facts = parseFacts(observed);
    const { pins, pendingPinChanges } = this.#settings.getSettings();
    const pin = pins[deploymentId];
    if (!pin) {
      if (options.trustFirstUse) {
        const { [deploymentId]: _dropped, ...rest } = pendingPinChanges;
        this.#settings.writePins({ ...pins, [deploymentId]: this.#pin(facts) }, rest);
        return { kind: 'pinned-now' };
      }
      const held = pendingPinChanges[deploymentId];
      if (!held || !same(held, facts)) this.#settings.writePins(pins, { ...pendingPinChanges, [deploymentId]: facts });
      return { kind: 'unconfirmed', observed: facts };
    }
    const pinned = factsOf(pin);
    if (same(pinned, facts)) {
      // The deployment went back to what the user trusted: nothing is pending any more.
      if (pendingPinChanges[deploymentId]) {
        const { [deploymentId]: _dropped, ...rest } = pendingPinChanges;
        this.#settings.writePins(pins, rest);
      }
      return { kind: 'match' };
    }
    this.#settings.writePins(pins, { ...pendingPinChanges, [deploymentId]: facts });
    return { kind: 'changed', pinned, observed: facts };
  }

  /**
   * Throws PIN_UNCONFIRMED while the deployment has no pin the user confirmed, and PIN_CHANGED while
   * a change awaits the user's decision: nothing is signed under facts the user has not seen.
   */
  assertSigningAllowed(deploymentId: string): void {
    // Checked before every signature: read in place rather than copy every setting.
    this.#settings.read(({ pins, pendingPinChanges, deployments }) =>
      this.#assertSigningAllowed(deploymentId, pins[deploymentId], pendingPinChanges[deploymentId], deployments),
    );
  }

  #assertSigningAllowed(
    deploymentId: string,
    pin: Pin | undefined,
    pending: DomainFacts | undefined,
    deployments: readonly Deployment[],
  ): void {
    const name = deployments.find((d) => d.id === deploymentId)?.name ?? deploymentId;
    const refusal = this.#refused.get(deploymentId);
    if (refusal !== undefined) throw new SettingsError('CHAIN_MISMATCH', refusal);
    if (!pin) {
      throw new SettingsError(
        'PIN_UNCONFIRMED',
        pending
          ? `Nothing is signed for "${name}" until you confirm its signing domain and token contracts.`
          : `Nothing is signed for "${name}" until it has answered once and you confirmed its signing domain.`,
      );
    }
    if (!pending) return;
    throw new SettingsError(
      'PIN_CHANGED',
      `Signing for ${name} is paused: its signing domain changed (${describePinChange(factsOf(pin), pending)}). ` +
        'Accept the change only if you expected it.',
    );
  }

  /** Replaces the pin after the user accepted `observed` (the exact facts shown in the dialog). */
  acceptPin(deploymentId: string, observed: DomainFacts): void {
    const facts = parseFacts(observed);
    const { pins, pendingPinChanges } = this.#settings.getSettings();
    const { [deploymentId]: _dropped, ...rest } = pendingPinChanges;
    this.#settings.writePins({ ...pins, [deploymentId]: this.#pin(facts) }, rest);
  }

  /**
   * Blocks every signature for the deployment while its server contradicts the configuration (e.g.
   * serves another chain id): `sentence` says why; null lifts it once the server agrees again.
   */
  refuse(deploymentId: string, sentence: string | null): void {
    if (sentence === null) this.#refused.delete(deploymentId);
    else this.#refused.set(deploymentId, sentence);
  }

  /** Drops the pin and anything pending of a removed deployment. */
  forget(deploymentId: string): void {
    this.#refused.delete(deploymentId);
    const { pins, pendingPinChanges } = this.#settings.getSettings();
    const { [deploymentId]: _pin, ...keptPins } = pins;
    const { [deploymentId]: _pending, ...keptPending } = pendingPinChanges;
    this.#settings.writePins(keptPins, keptPending);
  }

  /** The pinned facts as one string, read in place (no copy): what the order dialog compares before and after. */
  pinKey(deploymentId: string): string {
    return this.#settings.read(({ pins }) => {
      const p = pins[deploymentId];
      return p ? `${p.chainId}:${p.verifyingContract.toLowerCase()}:${p.domainName}` : '';
    });
  }

  pinFor(deploymentId: string): Pin | null {
    // Read on every signature: copy the one pin, not every setting.
    return this.#settings.read(({ pins }) => structuredClone(pins[deploymentId] ?? null));
  }

  #pin(facts: DomainFacts): Pin {
    return { ...facts, pinnedAt: new Date(this.#now()).toISOString() };
  }
}
