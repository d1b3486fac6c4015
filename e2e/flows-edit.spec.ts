/**
 * Flow: editing an open order's price and size in place in the open-orders table is a
 * cancel-and-replace: the old price leaves the ladder's own column, the new one appears, and a
 * notice reports the result.
 */
import { expect, test } from './harness/fixture';
import { freshFundedMaster, noProblems, placeFromTicket, setPassword, shot, tradeOn } from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(120_000);

test('edit an open order in place (cancel and replace)', async ({ app, devnet, problems }) => {
  await setPassword(app);
  await freshFundedMaster(app, await devnet.get(), 100n);
  await tradeOn(app);
  const ladder = app.getByTestId('ladder');
  const orders = app.getByTestId('open-orders');

  await placeFromTicket(app, 'buy', '35', '2');
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await expect(orders).toContainText('35.0¢');
  await ladder.getByRole('button', { name: 'Centre' }).click();
  await expect(ladder.locator('[data-price="350000"] .own').first()).toContainText('● 2');

  const row = orders.locator('tbody tr').first();
  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel('New price in cents').fill('36.5');
  await row.getByLabel('New size').fill('4');
  await row.getByRole('button', { name: 'Save' }).click();

  await expect(
    app
      .getByTestId('toast')
      .filter({ hasText: /Replaced/ })
      .first(),
  ).toBeVisible();
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await expect(orders).toContainText('36.5¢');
  await expect(orders).not.toContainText('35.0¢');
  await expect(ladder.locator('[data-price="365000"] .own').first()).toContainText('● 4');
  await expect(ladder.locator('[data-price="350000"] .own', { hasText: '●' })).toHaveCount(0);
  await shot(app, 'flows-edit');

  // Leave the shared devnet account clean.
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(orders).toContainText('No open orders.');
  await noProblems(app, problems);
});
