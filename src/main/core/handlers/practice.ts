/**
 * practice.*: enter practice, add play money, start over (docs/practice-mode.md). Leaving practice
 * for a real deployment is deployments.select, with its dialog.
 *
 * The dialog rule of practice.start: from no deployment (first run) or from practice itself nothing
 * real is left and no host off this computer is contacted, so main starts practice at once; from a
 * real deployment it asks first, as every switch of deployment does (the keys offered, the exchange
 * orders go to and the panic kit's deployment all change).
 */
import { PRACTICE_DEPLOYMENT_ID, PRACTICE_GRANT } from '../../../shared/practice';
import { formatDollars } from '../../../shared/protocol';
import { NO_DEPLOYMENT, selectedDeployment } from '../../settings';
import { BridgeFailure, unavailable, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import { isPractice } from '../practice/practice-domain';
import type { PracticeMode } from '../practice/practice-mode';
import type { TradingHost } from '../session/host';

function notAvailable(): BridgeFailure {
  return unavailable('Practice is not available in this copy of the app.');
}

function notInPractice(what: string): BridgeFailure {
  return new BridgeFailure('practice.not_selected', `${what} only in practice: choose Practice first.`);
}

export function practiceHandlers(
  ctx: CoreContext,
  trading: TradingHost,
  practice: PracticeMode | null,
): AreaHandlers<'practice'> {
  const need = (): PracticeMode => {
    if (!practice) throw notAvailable();
    return practice;
  };
  return {
    'practice.status': () =>
      practice?.status() ?? {
        active: false,
        state: 'off',
        stage: null,
        startupMs: null,
        problem: 'Practice is not available in this copy of the app.',
        keys: [],
      },

    'practice.start': async () => {
      const mode = need();
      const current = ctx.settings.getSettings();
      const leaving = selectedDeployment(current);
      const real = current.selectedDeploymentId !== NO_DEPLOYMENT && leaving !== null && !isPractice(leaving);
      if (real) {
        const yes = await ctx.dialogs.confirm(
          confirmRequest({
            capability: 'changes-trust',
            title: 'Switch to Practice',
            action: 'Leave this deployment for practice with play money on this computer',
            confirmLabel: 'Practice',
            deploymentName: leaving.name,
            notes: [
              'Practice trades play money on an exchange that runs on this computer, with a practice key made for it. Your real keys are not offered there, and nothing signed in practice is valid anywhere else.',
              'Your orders on this deployment stay where they are; come back to it with the deployment picker.',
            ],
          }),
        );
        if (!yes) return { confirmed: false };
      }
      await mode.enter(false);
      return { confirmed: true, value: mode.status() };
    },

    'practice.addFunds': async () => {
      const mode = need();
      if (!mode.active()) throw notInPractice('Play money is added');
      const session = await trading.connected();
      const master = session.desk.master('Choose the practice account first.');
      if (
        !mode.keys().some((k) => k.address.toLowerCase() === master.toLowerCase()) &&
        !ctx.vault.watchOnly.has(master)
      )
        throw new BridgeFailure('practice.not_practice_key', 'Play money goes only to a practice account.');
      await mode.host.credit(master, PRACTICE_GRANT);
      // Money in is not a gain: today's loss baseline moves with it (risk/loss-budget.ts).
      ctx.lossBudget.noteTransfer(master, PRACTICE_GRANT);
      await session.desk.refresh();
      ctx.events.emit('notice', { level: 'info', message: `${formatDollars(PRACTICE_GRANT)} of play money added.` });
      return { amount: PRACTICE_GRANT.toString(), account: master };
    },

    'practice.reset': async () => {
      const mode = need();
      if (!mode.active()) throw notInPractice('Practice is reset');
      const yes = await ctx.dialogs.confirm(
        confirmRequest({
          capability: 'changes-trust',
          title: 'Reset practice',
          action: 'Start practice over: its orders, positions, balances and history are removed',
          confirmLabel: 'Reset practice',
          notes: ['Only practice is affected: play money, on this computer. Your practice keys stay.'],
        }),
      );
      if (!yes) return { confirmed: false };
      // The day's fills and history kept for practice go with the rest (session/day-records.ts).
      ctx.dayRecords.forget(PRACTICE_DEPLOYMENT_ID);
      await mode.enter(true);
      return { confirmed: true, value: mode.status() };
    },
  };
}
