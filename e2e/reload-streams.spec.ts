/**
 * A window reloaded again and again still streams its ladder: a page that goes away leaves no book
 * stream open in the core (AppCore.windowGone, told by main's window/page-lifetime.ts, here by the
 * harness watching the page's navigations), where the 33rd page used to find every stream taken.
 */
import { expect, test } from './harness/fixture';
import { counterparty, open, setPassword, tradeOn } from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(420_000);

const RELOADS = 40;

test(`the ladder still streams the market after ${RELOADS} reloads`, async ({ app, devnet }) => {
  await setPassword(app);
  const market = await tradeOn(app);
  const ladder = app.getByTestId('ladder');
  for (let i = 0; i < RELOADS; i++) {
    await app.reload();
    await open(app, 'Trade', 'Trade');
    await expect(ladder.locator('[data-price]').first()).toBeVisible();
    await expect(app.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });
  }
  // The last page's book moves with the market: another account's bid appears on its ladder.
  const other = await counterparty(await devnet.get(), 100n);
  try {
    const placed = await other.client.placeOrder({
      assetId: BigInt(market.assetId),
      epoch: BigInt(market.epoch),
      side: 'buy',
      price: 310_000n,
      size: 2_000_000n,
    });
    expect(placed.delivery === 'answered' && placed.response.status).toBe('ACCEPTED');
    await expect(ladder.locator('[data-price="310000"] .cell.bid[aria-label*=" bid"]')).toBeVisible({
      timeout: 15_000,
    });
  } finally {
    other.client.http.close();
  }
});
