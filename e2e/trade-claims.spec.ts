/**
 * Claims from the trade screen, on a devnet of its own whose only market has 15-second epochs:
 * the position row's Claim button, then auto-claim (Settings) claiming the next resolved epoch by
 * itself with one notice. The outcome is the oracle's: on a losing epoch there is nothing to
 * claim, and the row offers no Claim and auto-claim says nothing.
 */
import type { Page } from '@playwright/test';
import { shortMarkets } from './harness/devnet';
import { expect, test } from './harness/fixture';
import {
  available,
  counterparty,
  freshFundedMaster,
  noProblems,
  open,
  placeFromTicket,
  resolutionOf,
  setPassword,
  shot,
  tradeOn,
  USD,
  type MarketRow,
} from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { markets: shortMarkets(15) } });
test.setTimeout(180_000);

/** Buys 4 Up from the ticket against a resting offer of another account. */
async function holdLongUp(
  page: Page,
  market: MarketRow,
  other: Awaited<ReturnType<typeof counterparty>>,
): Promise<void> {
  await other.client.placeOrder({
    assetId: BigInt(market.assetId),
    epoch: BigInt(market.epoch),
    side: 'sell',
    price: 500_000n,
    size: '4',
  });
  await placeFromTicket(page, 'buy', '50', '4', 'IOC');
  await expect(page.getByTestId('notice-strip')).toContainText(`BTC 15s #${market.epoch}: Bought 4`);
}

test('claim from the position row, then auto-claim the next epoch', async ({ app, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 50n);
  const other = await counterparty(net, 100n);

  // Row Claim (auto-claim is off by default).
  const first = await tradeOn(app, (m) => m.symbol === 'BTC', 9_000);
  await holdLongUp(app, first, other);
  const firstWon = await resolutionOf(app, first);
  await app.getByRole('tab', { name: /Positions/ }).click();
  const row = app.getByTestId('positions').locator('tbody tr', { hasText: `BTC 15s #${first.epoch}` });
  if (firstWon) {
    const claim = row.getByRole('button', { name: 'Claim' });
    await expect(claim).toBeVisible({ timeout: 30_000 });
    const before = await available(app);
    await claim.click();
    await expect(app.getByTestId('notice-strip')).toContainText(`Claimed $4.00 from BTC 15s #${first.epoch}`);
    await expect.poll(() => available(app)).toBe(before + 4n * USD);
    await expect(row.getByRole('button', { name: 'Claim' })).toHaveCount(0);
  } else {
    await expect(row).toContainText('resolved');
    await expect(row.getByRole('button', { name: 'Claim' })).toHaveCount(0);
  }
  await shot(app, 'trade-claims-row');

  // Auto-claim on: the next epoch is claimed by itself, with one notice.
  await open(app, 'Settings', 'Settings');
  await app.getByLabel('Claim resolved epochs automatically').check();
  await expect(app.getByLabel('Claim resolved epochs automatically')).toBeChecked();
  const second = await tradeOn(app, (m) => m.symbol === 'BTC' && m.epoch !== first.epoch, 9_000);
  await holdLongUp(app, second, other);
  const before = await available(app);
  const secondWon = await resolutionOf(app, second);
  if (secondWon) {
    await expect.poll(() => available(app), { timeout: 30_000 }).toBe(before + 4n * USD);
    await app.getByTestId('notice-log-button').click();
    await expect(
      app.getByTestId('notice-entry').filter({ hasText: `Auto-claim: Claimed $4.00 from BTC 15s #${second.epoch}.` }),
    ).toHaveCount(1);
    await app.getByTestId('notice-log').getByRole('button', { name: 'Close' }).click();
  } else {
    // Nothing to claim on a losing epoch: no claim, no notice.
    await expect.poll(() => available(app)).toBe(before);
    await app.getByTestId('notice-log-button').click();
    await expect(app.getByTestId('notice-entry').filter({ hasText: 'Auto-claim' })).toHaveCount(0);
    await app.getByTestId('notice-log').getByRole('button', { name: 'Close' }).click();
  }
  await noProblems(app, problems);
});
