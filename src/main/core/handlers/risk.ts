/**
 * risk.status and settings.setRiskLimits (docs/risk-guards.md). Stricter limits take effect at once;
 * looser ones only after main's dialog names each limit, from and to. The window has no way to
 * override a limit: that is main's own order dialog, one order at a time.
 */
import type { RiskLimits } from '../../../shared/settings-schema';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import { statusOf } from '../risk/budget-status';
import { LIMIT_NAMES, limitText, loosened, parseLimits } from '../risk/limits';
import type { TradingHost } from '../session/host';
import type { TradingSession } from '../session/session';

export function riskHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'risk'> {
  return {
    'risk.status': () => {
      let session: TradingSession | null = null;
      try {
        session = trading.session();
      } catch {
        session = null;
      }
      return statusOf(ctx, session);
    },
  };
}

export function riskLimitsHandler(ctx: CoreContext): Pick<AreaHandlers<'settings'>, 'settings.setRiskLimits'> {
  return {
    'settings.setRiskLimits': async (change) => {
      const from = ctx.settings.read((s) => structuredClone(s.riskLimits));
      const to: RiskLimits = { ...from, ...change };
      try {
        parseLimits(to);
      } catch {
        throw new BridgeFailure('settings.invalid', 'Limits not saved: one of them is not a valid amount.');
      }
      const looser = loosened(from, to);
      if (looser.length > 0) {
        const yes = await ctx.dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Loosen risk limits',
            action: 'Let orders risk more than your current limits allow',
            confirmLabel: 'Loosen limits',
            notes: [
              ...looser.map((k) => `${LIMIT_NAMES[k]}: from ${limitText(k, from)} to ${limitText(k, to)}.`),
              'These limits are what stops a mistake, or anything running in the app’s window, from losing more in a day.',
            ],
          }),
        );
        if (!yes) return { confirmed: false };
        // What the dialog showed is what is saved: a change made meanwhile means asking again.
        if (JSON.stringify(ctx.settings.read((s) => s.riskLimits)) !== JSON.stringify(from))
          throw new BridgeFailure(
            'settings.changed_meanwhile',
            'Limits not saved: they changed while the dialog was open. Look at them again and retry.',
          );
      }
      return { confirmed: true, value: ctx.settings.updateSettings({ riskLimits: to }) };
    },
  };
}
