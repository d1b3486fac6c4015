/** app.*: facts about the app and the connection to the selected deployment. */
import type { ConnectionView, FeedHealth } from '../../../shared/bridge';
import type { AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { pinStateOf, selectedDeployment } from '../../settings';

/** Feed health comes from the exchange layer once it is wired in; until then, no feeds are reported. */
export type FeedHealthSource = () => FeedHealth[];

/** The session's exchange clock: offset and its uncertainty (ms), each null before a sample or without a session. */
export type ExchangeClockSource = () => { offsetMs: number | null; uncertaintyMs: number | null };

const NO_CLOCK: ExchangeClockSource = () => ({ offsetMs: null, uncertaintyMs: null });

/** The clock source of a trading host. */
export function exchangeClockOf(host: {
  clockOffsetMs(): number | null;
  clockUncertaintyMs(): number | null;
}): ExchangeClockSource {
  return () => ({ offsetMs: host.clockOffsetMs(), uncertaintyMs: host.clockUncertaintyMs() });
}

export function connectionView(
  ctx: CoreContext,
  feeds: FeedHealthSource,
  clock: ExchangeClockSource = NO_CLOCK,
): ConnectionView {
  const settings = ctx.settings.getSettings();
  const deployment = selectedDeployment(settings);
  return {
    deploymentId: deployment?.id ?? null,
    deploymentName: deployment?.name ?? null,
    devnet: deployment?.builtIn === 'devnet',
    practice: deployment?.builtIn === 'practice',
    pin: pinStateOf(settings),
    feeds: feeds(),
    clockOffsetMs: clock().offsetMs,
    clockUncertaintyMs: clock().uncertaintyMs,
    offline: ctx.offline(),
  };
}

export function appHandlers(
  ctx: CoreContext,
  feeds: FeedHealthSource,
  clock?: ExchangeClockSource,
): AreaHandlers<'app'> {
  return {
    'app.info': () => ({ version: ctx.app.version, platform: ctx.app.platform }),
    'app.connection': () => connectionView(ctx, feeds, clock),
  };
}
