/** app.*: facts about the app and the connection to the selected deployment. */
import type { ConnectionView, FeedHealth } from '../../../shared/bridge';
import type { AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { pinStateOf, selectedDeployment } from '../../settings';

/** Feed health comes from the exchange layer once it is wired in; until then, no feeds are reported. */
export type FeedHealthSource = () => FeedHealth[];

/** The session's exchange clock offset (ms), or null before it has a sample or without a session. */
export type ClockOffsetSource = () => number | null;

export function connectionView(
  ctx: CoreContext,
  feeds: FeedHealthSource,
  clockOffsetMs: ClockOffsetSource = () => null,
): ConnectionView {
  const settings = ctx.settings.getSettings();
  const deployment = selectedDeployment(settings);
  return {
    deploymentId: deployment?.id ?? null,
    deploymentName: deployment?.name ?? null,
    devnet: deployment?.builtIn === 'devnet',
    pin: pinStateOf(settings),
    feeds: feeds(),
    clockOffsetMs: clockOffsetMs(),
    offline: ctx.offline(),
  };
}

export function appHandlers(
  ctx: CoreContext,
  feeds: FeedHealthSource,
  clockOffsetMs?: ClockOffsetSource,
): AreaHandlers<'app'> {
  return {
    'app.info': () => ({ version: ctx.app.version, platform: ctx.app.platform }),
    'app.connection': () => connectionView(ctx, feeds, clockOffsetMs),
  };
}
