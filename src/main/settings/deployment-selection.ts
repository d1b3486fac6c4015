/**
 * Which deployment is selected, whether main may contact it, and the state of its pin as the window
 * sees it: read from the settings alone, so the core, the trading host and the window agree.
 */
import type { PinState } from '../../shared/bridge';
import { describePinChange, factsOf } from './pinning';
import type { Deployment, Settings } from './schema';

export function selectedDeployment(settings: Settings): Deployment | null {
  return settings.deployments.find((d) => d.id === settings.selectedDeploymentId) ?? null;
}

/** Built in (main wrote it: the devnet, or practice on this computer) or confirmed by the user in main's dialog: main may contact its hosts. */
export function isConfirmed(d: Deployment): boolean {
  return d.builtIn !== undefined || d.confirmedAt !== undefined;
}

/** The pin of the selected deployment as the window sees it. */
export function pinStateOf(settings: Settings): PinState {
  const id = settings.selectedDeploymentId;
  const pin = settings.pins[id];
  const observed = settings.pendingPinChanges[id];
  if (!pin) {
    if (!observed) return { kind: 'unpinned' };
    return {
      kind: 'unconfirmed',
      observed,
      sentence: 'Nothing is signed until you confirm the signing domain and token contracts of this deployment.',
    };
  }
  const pinned = factsOf(pin);
  if (!observed) return { kind: 'pinned', ...pinned };
  return {
    kind: 'changed',
    pinned,
    observed,
    sentence: `The signing domain changed: ${describePinChange(pinned, observed)}.`,
  };
}
