/**
 * updates.*: the window reads where the app's own update stands, may start the download of a signed
 * release (ask-first mode), and may ask for main's restart dialog: nothing is installed unless the
 * person says yes there, or quits the app with a release downloaded and their setting "install when I
 * quit" on. After the yes, signing stops, the restart waits for signatures in progress, and only the
 * release the dialog showed is installed. settings.setInstallUpdatesOnQuit: off at once, on only after
 * main's dialog, so a window that closes itself (the last window closing quits the app) installs nothing.
 */
import { UpdateProblem, type UpdateService } from '../../updates';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { SignatureGate } from '../signature-gate';
import { installOnQuitRequest, updateRestartRequest } from './update-dialog';

function asFailure(error: unknown): unknown {
  return error instanceof UpdateProblem ? new BridgeFailure(error.code, error.message) : error;
}

export function updatesHandlers(
  ctx: CoreContext,
  updates: UpdateService,
  gate: SignatureGate,
): AreaHandlers<'updates'> {
  return {
    'updates.status': () => updates.status(),
    'updates.download': () => {
      try {
        return updates.download();
      } catch (error) {
        throw asFailure(error);
      }
    },
    'updates.restart': async () => {
      const release = updates.ready();
      if (!release) {
        const { state } = updates.status();
        throw new BridgeFailure(
          'update.not_ready',
          state === 'downloading'
            ? 'The update is still downloading: the app offers the restart once it is downloaded and checked. Nothing was installed.'
            : 'No update is downloaded and checked yet, so there is nothing to install. Nothing was installed.',
        );
      }
      const yes = await ctx.dialogs.confirm(
        updateRestartRequest({
          runningVersion: updates.status().currentVersion,
          version: release.version.text,
          releaseDate: release.releaseDate,
          notes: release.notes,
          keyFingerprint: release.keyFingerprint,
        }),
      );
      if (!yes) return { confirmed: false };
      // The person said yes to what the dialog showed: install exactly that, or nothing.
      if (updates.ready() !== release) {
        throw new BridgeFailure(
          'update.changed',
          'The update changed while the dialog was open, so nothing was installed: ask for the restart again to see the new one.',
        );
      }
      await gate.close();
      if (!updates.install()) {
        gate.reopen();
        throw new BridgeFailure(
          'update.install_failed',
          'The update could not be started, so the app keeps running this version. Nothing was installed.',
        );
      }
      ctx.logger.info('updates.restarting', { version: release.version.text });
      return { confirmed: true, value: updates.status() };
    },
  };
}

export function installOnQuitHandler(
  ctx: CoreContext,
): Pick<AreaHandlers<'settings'>, 'settings.setInstallUpdatesOnQuit'> {
  const { settings, dialogs } = ctx;
  return {
    'settings.setInstallUpdatesOnQuit': async (on) => {
      const current = settings.getSettings();
      if (current.installUpdatesOnQuit === on) return { confirmed: true, value: current };
      if (on && !(await dialogs.confirm(installOnQuitRequest()))) return { confirmed: false };
      return { confirmed: true, value: settings.updateSettings({ installUpdatesOnQuit: on }) };
    },
  };
}
