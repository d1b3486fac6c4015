import { SettingsError } from './errors';
import { DomainFactsSchema, type DomainFacts, type Pin } from './schema';
import type { SettingsService } from './settings-service';
import { toSettingsError } from './settings-service';

export type PinCheck =
  | { kind: 'pinned-now' }
  | { kind: 'match' }
  | { kind: 'changed'; pinned: DomainFacts; observed: DomainFacts };

function parseFacts(observed: DomainFacts): DomainFacts {
  const parsed = DomainFactsSchema.safeParse(observed);
  if (!parsed.success) throw toSettingsError(parsed.error);
  return parsed.data;
}

function same(a: DomainFacts, b: DomainFacts): boolean {
  return (
    a.chainId === b.chainId &&
    a.verifyingContract.toLowerCase() === b.verifyingContract.toLowerCase() &&
    a.domainName === b.domainName
  );
}

function factsOf(pin: Pin): DomainFacts {
  return { chainId: pin.chainId, verifyingContract: pin.verifyingContract, domainName: pin.domainName };
}

/** Names what changed, for the dialog and the PIN_CHANGED sentence. */
export function describePinChange(pinned: DomainFacts, observed: DomainFacts): string {
  const parts: string[] = [];
  if (pinned.chainId !== observed.chainId) parts.push(`chain id ${pinned.chainId} → ${observed.chainId}`);
  if (pinned.verifyingContract.toLowerCase() !== observed.verifyingContract.toLowerCase()) {
    parts.push(`exchange contract ${pinned.verifyingContract} → ${observed.verifyingContract}`);
  }
  if (pinned.domainName !== observed.domainName) parts.push(`domain name "${pinned.domainName}" → "${observed.domainName}"`);
  return parts.join(', ');
}

/**
 * Pins each deployment's EIP-712 domain facts (chain id, verifying contract, domain name) on first use.
 * A later difference is held as pending and blocks signing for that deployment until the user accepts
 * it in a dialog owned by main. Pins and pending changes are persisted with the settings.
 */
export class DeploymentPinning {
  readonly #settings: SettingsService;
  readonly #now: () => number;

  constructor(settings: SettingsService, now: () => number = Date.now) {
    this.#settings = settings;
    this.#now = now;
  }

  checkPin(deploymentId: string, observed: DomainFacts): PinCheck {
    const facts = parseFacts(observed);
    const { pins, pendingPinChanges } = this.#settings.getSettings();
    const pin = pins[deploymentId];
    if (!pin) {
      const { [deploymentId]: _dropped, ...rest } = pendingPinChanges;
      this.#settings.writePins({ ...pins, [deploymentId]: this.#pin(facts) }, rest);
      return { kind: 'pinned-now' };
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

  /** Throws PIN_CHANGED while a change for this deployment awaits the user's decision. */
  assertSigningAllowed(deploymentId: string): void {
    const { pins, pendingPinChanges, deployments } = this.#settings.getSettings();
    const pending = pendingPinChanges[deploymentId];
    const pin = pins[deploymentId];
    if (!pending || !pin) return;
    const name = deployments.find((d) => d.id === deploymentId)?.name ?? deploymentId;
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

  pinFor(deploymentId: string): Pin | null {
    return this.#settings.getSettings().pins[deploymentId] ?? null;
  }

  #pin(facts: DomainFacts): Pin {
    return { ...facts, pinnedAt: new Date(this.#now()).toISOString() };
  }
}
