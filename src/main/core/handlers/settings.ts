/** settings.*: validated settings (deployments.* live in deployments.ts). */
import type { AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { offlineModeHandler } from './offline-mode';
import { protectionHandlers, windowPatch } from './protections';
import { riskLimitsHandler } from './risk';
import { installOnQuitHandler } from './updates';

export function settingsHandlers(ctx: CoreContext): AreaHandlers<'settings'> {
  const { settings } = ctx;
  return {
    'settings.get': () => settings.getSettings(),
    'settings.update': (patch) => settings.updateSettings(windowPatch(patch)),
    ...protectionHandlers(ctx),
    ...offlineModeHandler(ctx),
    ...riskLimitsHandler(ctx),
    ...installOnQuitHandler(ctx),
  };
}
