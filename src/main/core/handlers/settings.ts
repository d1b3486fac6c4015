/** settings.* and deployments.acceptPin: validated settings and the user's decision on a changed pin. */
import type { PinState } from '../../../shared/bridge';
import { describePinChange, type Deployment, type Settings } from '../../settings';
import { BridgeFailure } from '../../window/bridge-host';
import type { AreaHandlers, CoreContext } from '../context';

export function selectedDeployment(settings: Settings): Deployment | null {
  return settings.deployments.find((d) => d.id === settings.selectedDeploymentId) ?? null;
}

/** The pin of the selected deployment as the window sees it. */
export function pinStateOf(settings: Settings): PinState {
  const id = settings.selectedDeploymentId;
  const pin = settings.pins[id];
  if (!pin) return { kind: 'unpinned' };
  const pinned = { chainId: pin.chainId, verifyingContract: pin.verifyingContract, domainName: pin.domainName };
  const observed = settings.pendingPinChanges[id];
  if (!observed) return { kind: 'pinned', ...pinned };
  return { kind: 'changed', pinned, observed, sentence: `The signing domain changed: ${describePinChange(pinned, observed)}.` };
}

export function settingsHandlers(ctx: CoreContext): AreaHandlers<'settings' | 'deployments'> {
  const { settings, pinning, dialogs } = ctx;
  return {
    'settings.get': () => settings.getSettings(),
    'settings.update': (patch) => settings.updateSettings(patch),
    'deployments.acceptPin': async () => {
      const current = settings.getSettings();
      const deployment = selectedDeployment(current);
      const pin = deployment ? current.pins[deployment.id] : undefined;
      const observed = deployment ? current.pendingPinChanges[deployment.id] : undefined;
      if (!deployment || !pin || !observed) {
        throw new BridgeFailure('deployments.no_pending_change', 'The signing domain of this deployment has not changed: there is nothing to accept.');
      }
      const yes = await dialogs.confirm({
        title: 'Signing domain changed',
        message: `The signing domain of ${deployment.name} changed: ${describePinChange(pin, observed)}.`,
        detail: 'Accept only if the operator announced this change. Everything you sign from now on will be valid only for the new domain.',
        confirmLabel: 'Accept the new domain',
      });
      if (!yes) return { confirmed: false };
      pinning.acceptPin(deployment.id, observed);
      return { confirmed: true, value: pinStateOf(settings.getSettings()) };
    },
  };
}
