/** lock.*: the app lock over the vault (password, lock, unlock, throttle). */
import type { LockStatus } from '../../../shared/bridge';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';

export function lockStatus(ctx: CoreContext): LockStatus {
  const minutes = ctx.settings.getSettings().autoLockMinutes;
  return { ...ctx.vault.status(), autoLockMinutes: minutes > 0 ? minutes : null };
}

export function lockHandlers(ctx: CoreContext): AreaHandlers<'lock'> {
  const { vault, dialogs } = ctx;
  return {
    'lock.status': () => lockStatus(ctx),
    'lock.lock': () => {
      vault.lock('manual');
      return lockStatus(ctx);
    },
    'lock.unlock': async (password) => {
      await vault.unlock(password);
      return lockStatus(ctx);
    },
    'lock.setPassword': async ({ password, passwordAgain, currentPassword }) => {
      const status = vault.status();
      // The only password set without asking: the first one of a key file, which creates the (empty) file.
      const firstFile = status.backend === 'file' && !status.hasPassword;
      if (!firstFile) {
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: status.hasPassword ? 'Change the app password' : 'Set an app password',
            action: status.hasPassword
              ? 'Replace the app password'
              : 'Protect the keys in the system keychain with an app password',
            confirmLabel: status.hasPassword ? 'Change password' : 'Set password',
            change: {
              setting: 'App password',
              from: status.hasPassword
                ? 'the password you use now'
                : 'none: the keys in the system keychain sign without one',
              to: status.hasPassword ? 'the new password just typed' : 'the password just typed: unlocking needs it',
            },
            notes: [
              'Say no unless you typed this password yourself just now: whoever chose it can lock you out of your keys.',
            ],
          }),
        );
        if (!yes)
          throw new BridgeFailure(
            'lock.not_confirmed',
            'The app password was not changed: it was not confirmed in the dialog.',
          );
      }
      await vault.setPassword(password, passwordAgain, currentPassword);
      return lockStatus(ctx);
    },
    'lock.removePassword': async (password) => {
      const status = vault.status();
      // Without a password there is nothing to remove, and a key file cannot lose its: the vault says so.
      if (status.backend === 'keychain' && status.hasPassword) {
        const yes = await dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Remove the app password',
            action: 'Let the keys sign without the app password',
            confirmLabel: 'Remove password',
            change: {
              setting: 'App password',
              from: 'set: unlocking needs it',
              to: 'none: the app unlocks without a password and auto-lock has no effect',
            },
          }),
        );
        if (!yes)
          throw new BridgeFailure(
            'lock.not_confirmed',
            'The app password was not removed: it was not confirmed in the dialog.',
          );
      }
      await vault.removePassword(password);
      return lockStatus(ctx);
    },
  };
}
