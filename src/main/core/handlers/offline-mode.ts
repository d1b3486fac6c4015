/**
 * settings.setOfflineMode: on is immediate (it only lowers what the app does); off makes the app
 * connect to the selected deployment, so it happens only after the user agrees in main's dialog,
 * and never while the app was launched with --offline.
 */
import { selectedDeployment } from '../../settings';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';

export function offlineModeHandler(ctx: CoreContext): Pick<AreaHandlers<'settings'>, 'settings.setOfflineMode'> {
  const { settings, dialogs } = ctx;
  return {
    'settings.setOfflineMode': async (on) => {
      const current = settings.getSettings();
      if (!on && ctx.offline() === 'launch-flag') {
        throw new BridgeFailure(
          'offline.launch_flag',
          'Offline mode stays on: the app was started with --offline, so it cannot connect until it is started without it. Nothing was changed.',
        );
      }
      if (current.offlineMode === on) return { confirmed: true, value: current };
      if (!on) {
        const deployment = selectedDeployment(current);
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Turn off offline mode',
            action: 'Let the app connect to the network',
            confirmLabel: 'Go online',
            change: {
              setting: 'Offline mode',
              from: 'on: the app opens no network connection at all',
              to: deployment
                ? 'off: the app connects to the selected deployment and its chain'
                : 'off: the app may connect to deployments you add or select',
            },
            notes: ['On a machine that should never touch the network (an offline signer), keep offline mode on.'],
          }),
        );
        if (!yes) return { confirmed: false };
      }
      return { confirmed: true, value: settings.updateSettings({ offlineMode: on }) };
    },
  };
}
