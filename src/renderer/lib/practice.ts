/**
 * Practice mode in the window: whether it is on (from main's connection view), entering it, play
 * money, starting over, and what each screen's empty state suggests trying. Main decides everything:
 * these only ask, and show main's sentence when it says no.
 */
import { derived } from 'svelte/store';
import { attempt } from './attempt';
import { pushNotice } from './notices';
import { connectionView, refreshAccount } from './terminal';

/** True while practice is the selected deployment. */
export const inPractice = derived(connectionView, (c) => c?.practice === true);

/**
 * "$1,000": what one Add gives. Written here rather than formatted from PRACTICE_GRANT, whose module
 * carries zod (its schemas would bring zod's eval probe into the window, which the CSP refuses);
 * practice.test.ts holds the two together.
 */
export const PRACTICE_GRANT_TEXT = '$1,000';

/** Enters practice; the sentence to show when main did not (declined in its dialog, or refused). */
export async function startPractice(): Promise<string | null> {
  const r = await attempt('practice.start');
  if (!r.ok) return r.message;
  return r.value.confirmed ? null : 'Still on this deployment: you declined in the app’s dialog.';
}

export async function addPlayMoney(): Promise<string | null> {
  const r = await attempt('practice.addFunds');
  if (!r.ok) return r.message;
  await refreshAccount();
  return null;
}

export async function resetPractice(): Promise<string | null> {
  const r = await attempt('practice.reset');
  if (!r.ok) return r.message;
  if (!r.value.confirmed) return 'Nothing was reset: you declined in the app’s dialog.';
  pushNotice('info', `Practice started over with ${PRACTICE_GRANT_TEXT} of play money.`);
  await refreshAccount();
  return null;
}

/** What to try, per empty place, while in practice: practice is where the tools are learnt. */
export const PRACTICE_TRY = {
  orders:
    'Nothing resting. Try it: click a price on the ladder to place a limit order, or turn on hotkeys in Settings and press B to join the bid.',
  positions:
    'No position yet. Try it: Shift+B (with hotkeys on) buys at the best ask; then Close it with a slippage limit.',
  claims:
    'Nothing to claim yet. Buy in a 1-minute market and wait for its end: the claim shows here, or turn on auto-claim in Settings.',
  history: 'No orders yet: every order you send in practice is listed here with what became of it.',
  agents:
    'Try an agent: create a second practice key on the Keys screen, approve it here, trade as the agent, then revoke it.',
  airgap:
    'Try the air-gapped round trip with the app on a second computer, in practice there too: watch its practice key’s address here, prepare an order for it, carry the request over by QR codes or a file, sign it there, and bring the answer back.',
} as const;
