/** settings.*: validated settings (deployments.* live in deployments.ts). */
import type { PinState } from '../../../shared/bridge';
import { describePinChange, factsOf, type Deployment, type Settings } from '../../settings';
import type { AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { protectionHandlers, windowPatch } from './protections';

export function selectedDeployment(settings: Settings): Deployment | null {
  return settings.deployments.find((d) => d.id === settings.selectedDeploymentId) ?? null;
}

/** The pin of the selected deployment as the window sees it. */
export function pinStateOf(settings: Settings): PinState {
  const id = settings.selectedDeploymentId;
  const pin = settings.pins[id];
  const observed = settings.pendingPinChanges[id];
  if (!pin) {
    if (!observed) return { kind: 'unpinned' };
    return { kind: 'unconfirmed', observed, sentence: 'Nothing is signed until you confirm the signing domain and token contracts of this deployment.' };
  }
  const pinned = factsOf(pin);
  if (!observed) return { kind: 'pinned', ...pinned };
  return { kind: 'changed', pinned, observed, sentence: `The signing domain changed: ${describePinChange(pinned, observed)}.` };
}

export function settingsHandlers(ctx: CoreContext): AreaHandlers<'settings'> {
  const { settings } = ctx;
  return {
    'settings.get': () => settings.getSettings(),
    'settings.update': (patch) => settings.updateSettings(windowPatch(patch)),
    ...protectionHandlers(ctx),
  };
}
