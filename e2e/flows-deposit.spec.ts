/**
 * Flow: deposits both ways from the Funds screen — approve-then-deposit and permit-then-deposit —
 * each stepping through its stages to "Credited", the exchange balance rising by exactly the amount.
 */
import { expect, test } from './harness/fixture';
import { depositBy, noProblems, open, setPassword, shot, useDemoAccount } from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(150_000);

test('deposit by approve and by permit, each to Credited', async ({ app, problems }) => {
  await setPassword(app);
  // A funded demo account (its wallet holds tokens and gas).
  await useDemoAccount(app, 1);
  await open(app, 'Funds', 'Funds');
  await expect(app.getByTestId('balance').locator('dd').first()).toHaveText(/\$/);

  await depositBy(app, 'approve', '7.25', 725n);
  await shot(app, 'flows-deposit-approve');
  await depositBy(app, 'permit', '5', 500n);
  await shot(app, 'flows-deposit');
  await noProblems(app, problems);
});
