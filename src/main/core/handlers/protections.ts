/**
 * The settings that protect the user: confirmations and auto-lock. Making any of them stricter is
 * immediate; making one weaker (a confirmation off, auto-lock longer or off) happens only after the
 * user agrees in a dialog owned by main. settings.update cannot touch them, nor deployments or pins.
 */
import { settingLabel } from '../../../shared/field-words';
import type { Settings } from '../../settings';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';

/** Top-level settings the window may not change with settings.update, and where they are changed instead. */
const PROTECTED: Readonly<Record<string, string>> = {
  confirmations:
    'confirmations are turned on or off on the Settings screen, and the app asks you in its own dialog before turning one off',
  autoLockMinutes:
    'auto-lock is changed on the Settings screen, and the app asks you in its own dialog before making it longer or turning it off',
  deployments:
    'exchanges are added, edited and removed on the Settings screen, each after the app asks you in its own dialog',
  selectedDeploymentId: 'an exchange is selected on the Settings screen, after the app asks you in its own dialog',
  pins: 'signing facts are pinned only by the app after you confirm them in its own dialog',
  pendingPinChanges: 'signing facts are pinned only by the app after you confirm them in its own dialog',
  version: 'the version belongs to the app',
  riskLimits:
    'risk limits are changed in Settings, Risk limits, and the app asks you in its own dialog before making any looser',
  offlineMode:
    'offline mode is turned on or off on the Settings screen, and the app asks you in its own dialog before it connects again',
  installUpdatesOnQuit:
    'installing updates when you quit is turned on or off in Settings, Updates, and the app asks you in its own dialog before turning it on',
};

/** The patch unchanged when it touches nothing protected; otherwise a refusal naming the first such key. */
export function windowPatch(patch: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(patch)) {
    const where = PROTECTED[key];
    if (where !== undefined) {
      throw new BridgeFailure(
        'settings.protected',
        `Setting not saved: ${settingLabel([key])} cannot be changed this way; ${where}. Nothing was changed.`,
      );
    }
  }
  return patch;
}

function autoLockText(minutes: number): string {
  return minutes > 0 ? `locks after ${minutes} minute${minutes === 1 ? '' : 's'} idle` : 'never locks by itself';
}

/** Auto-lock gets weaker when it is turned off, or made longer while on. */
function weakensAutoLock(from: number, to: number): boolean {
  if (to === from) return false;
  if (to === 0) return true;
  return from !== 0 && to > from;
}

export function protectionHandlers(
  ctx: CoreContext,
): Pick<AreaHandlers<'settings'>, 'settings.setConfirmation' | 'settings.setAutoLock'> {
  const { settings, dialogs } = ctx;
  const save = (patch: Partial<Settings>): { confirmed: true; value: Settings } => ({
    confirmed: true,
    value: settings.updateSettings(patch),
  });

  return {
    'settings.setConfirmation': async ({ name, on }) => {
      const current = settings.getSettings();
      if (current.confirmations[name] === on) return { confirmed: true, value: current };
      if (!on) {
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Turn off order confirmation',
            action: 'Send orders without asking first',
            confirmLabel: 'Turn off',
            change: {
              setting: 'Order confirmation',
              from: 'on: each order, edit and flatten waits for your yes in a dialog of the app',
              to: 'off: orders, cancels, edits, flattens and claims go out on one keystroke, within your risk limits',
            },
            notes: [
              'Withdrawals, agent approvals, key export and on-chain transactions stay confirmed whatever this says.',
            ],
          }),
        );
        if (!yes) return { confirmed: false };
      }
      return save({ confirmations: { ...settings.getSettings().confirmations, [name]: on } });
    },

    'settings.setAutoLock': async (minutes) => {
      const from = settings.getSettings().autoLockMinutes;
      if (weakensAutoLock(from, minutes)) {
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: minutes === 0 ? 'Turn off auto-lock' : 'Lock later',
            action: minutes === 0 ? 'Never lock the app by itself' : 'Wait longer before locking the app',
            confirmLabel: minutes === 0 ? 'Turn off auto-lock' : `Lock after ${minutes} minutes`,
            change: {
              setting: 'Auto-lock',
              from: `the app ${autoLockText(from)}`,
              to: `the app ${autoLockText(minutes)}`,
            },
            notes: ['While the app is unlocked, anyone at this computer can trade and sign with your keys.'],
          }),
        );
        if (!yes) return { confirmed: false };
      }
      return save({ autoLockMinutes: minutes });
    },
  };
}
