/** lock.*: the app lock over the vault (password, lock, unlock, throttle). */
import type { LockStatus } from '../../../shared/bridge';
import type { AreaHandlers, CoreContext } from '../context';

export function lockStatus(ctx: CoreContext): LockStatus {
  const minutes = ctx.settings.getSettings().autoLockMinutes;
  return { ...ctx.vault.status(), autoLockMinutes: minutes > 0 ? minutes : null };
}

export function lockHandlers(ctx: CoreContext): AreaHandlers<'lock'> {
  const { vault } = ctx;
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
      await vault.setPassword(password, passwordAgain, currentPassword);
      return lockStatus(ctx);
    },
    'lock.removePassword': async (password) => {
      await vault.removePassword(password);
      return lockStatus(ctx);
    },
  };
}
