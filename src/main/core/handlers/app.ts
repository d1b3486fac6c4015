/** app.*: facts about the app and the connection to the selected deployment. */
import type { ConnectionView, FeedHealth } from '../../../shared/bridge';
import type { AreaHandlers, CoreContext } from '../context';
import { pinStateOf, selectedDeployment } from './settings';

/** Feed health comes from the exchange layer once it is wired in; until then, no feeds are reported. */
export type FeedHealthSource = () => FeedHealth[];

export function connectionView(ctx: CoreContext, feeds: FeedHealthSource): ConnectionView {
  const settings = ctx.settings.getSettings();
  const deployment = selectedDeployment(settings);
  return {
    deploymentId: deployment?.id ?? null,
    deploymentName: deployment?.name ?? null,
    devnet: deployment?.builtIn === 'devnet',
    pin: pinStateOf(settings),
    feeds: feeds(),
    clockOffsetMs: null,
  };
}

export function appHandlers(ctx: CoreContext, feeds: FeedHealthSource): AreaHandlers<'app'> {
  return {
    'app.info': () => ({ version: ctx.app.version, platform: ctx.app.platform }),
    'app.connection': () => connectionView(ctx, feeds),
  };
}
