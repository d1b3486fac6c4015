/**
 * Flow: a resting order placed from the ticket is filled by a second account trading from the test
 * process (the app's client library, DigestSigner). The fill shows in the fills table, the position
 * in the positions table, the balance moves by the cost, and the order leaves the ladder.
 */
import { expect, test } from './harness/fixture';
import {
  available,
  counterparty,
  freshFundedMaster,
  noProblems,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
  USD,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(120_000);

test('a resting order is filled by another account', async ({ app, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app);
  const ladder = app.getByTestId('ladder');
  const orders = app.getByTestId('open-orders');
  const before = await available(app);

  await placeFromTicket(app, 'buy', '40', '3');
  await expect(
    app
      .getByTestId('toast')
      .filter({ hasText: /resting/ })
      .first(),
  ).toBeVisible();
  await expect(orders).toContainText('40.0¢');
  await ladder.getByRole('button', { name: 'Centre' }).click();
  await expect(ladder.locator('[data-price="400000"] .own').first()).toContainText('● 3');
  // 3 contracts at 40¢ lock $1.20.
  await expect.poll(() => available(app)).toBe(before - (120n * USD) / 100n);

  const other = await counterparty(net, 50n);
  const outcome = await other.client.placeOrder({
    assetId: BigInt(market.assetId),
    epoch: BigInt(market.epoch),
    side: 'sell',
    price: 400_000n,
    size: '3',
    timeInForce: 'IOC',
  });
  expect(outcome.delivery).toBe('answered');

  // The order leaves the book and the ladder's own column.
  await expect(orders).toContainText('No open orders.');
  await expect(ladder.locator('[data-price="400000"] .own', { hasText: '●' })).toHaveCount(0);
  await expect(app.getByTestId('balance').locator('dd').nth(1)).toHaveText('$0.00');
  await expect.poll(() => available(app)).toBe(before - (120n * USD) / 100n);

  await app.getByRole('tab', { name: /Fills/ }).click();
  const fill = app.getByTestId('fills').locator('tbody tr').first();
  await expect(fill).toContainText('▲ Buy');
  await expect(fill).toContainText('40.0¢');
  await expect(fill).toContainText('3');
  await expect(fill).toContainText(/maker/i);
  await app.getByRole('tab', { name: /Positions/ }).click();
  const position = app.getByTestId('positions').locator('tbody tr').first();
  await expect(position).toContainText('▲ Long Up');
  await expect(position).toContainText('$3.00');
  await shot(app, 'flows-fill');
  await noProblems(app, problems);
});
