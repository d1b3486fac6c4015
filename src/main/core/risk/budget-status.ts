/**
 * Today's loss budget of the selected account as the window sees it: what risk.status answers and what
 * main pushes as the `risk` event whenever its figure changes (docs/risk-guards.md). One figure, from
 * the same equity at fair value and day record the order gate uses.
 */
import type { RiskStatus } from '../../../shared/bridge';
import type { CoreContext } from '../context';
import type { TradingSession } from '../session/session';
import { parseLimits } from './limits';
import { sessionEquity, sessionGateView } from './session-view';

export type BudgetStatusDeps = Pick<CoreContext, 'settings' | 'orderGate' | 'lossBudget'>;

/** Today's budget of the selected account, as risk.status answers it and the `risk` event pushes it. */
export function statusOf(ctx: BudgetStatusDeps, session: TradingSession | null): RiskStatus {
  const limits = ctx.settings.read((s) => structuredClone(s.riskLimits));
  const base: RiskStatus = {
    limits,
    account: null,
    day: null,
    startEquity: null,
    lossToday: null,
    lossLimit: null,
    openWorst: null,
    spent: false,
    ordersLastMinute: 0,
    note: null,
  };
  const master = session?.desk.selection.master ?? null;
  if (!session || !master) return { ...base, note: 'Choose an account on a connected exchange to see today’s budget.' };
  const equity = sessionEquity(session);
  const ordersLastMinute = ctx.orderGate.sentInLastMinute(master);
  if (equity === null)
    return { ...base, account: master, ordersLastMinute, note: 'The account’s balance has not been read yet.' };
  const parsed = parseLimits(limits);
  const s = ctx.lossBudget.status(master, equity, parsed.dailyLossBps, parsed.dailyLossFixed);
  return {
    limits,
    account: master,
    day: s.day,
    startEquity: (s.startEquity + s.transfers).toString(),
    lossToday: s.loss.toString(),
    lossLimit: s.limit.toString(),
    openWorst: ctx.orderGate.openWorst(master, sessionGateView(session))?.toString() ?? null,
    spent: s.loss >= s.limit,
    ordersLastMinute,
    note: null,
  };
}
