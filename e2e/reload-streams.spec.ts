/**
 * A window reloaded again and again still streams its ladder: a page that goes away leaves no book
 * stream open in the core (AppCore.windowGone, told by main's window/page-lifetime.ts, here by the
 * harness watching the page's navigations), where the 33rd page used to find every stream taken.
 */
import { expect, invokeInPage, test } from './harness/fixture';
import { counterparty, ladderBidAt, open, setPassword, tradeOn } from './harness/flows';

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
  // The last page's book moves with the market: another account's bid appears on its ladder. The
  // devnet is shared with earlier specs, so the bid goes half a cent above the best bid left there (the
  // ladder's rows are centred on the best prices), at a level that has none yet.
  const rows = (await invokeInPage(app, 'markets.list')).value as {
    assetId: string;
    bestBid: string | null;
    bestAsk: string | null;
  }[];
  const top = rows.find((m) => m.assetId === market.assetId);
  const bestBid = top?.bestBid && top.bestBid !== '0' ? BigInt(top.bestBid) : null;
  const price = bestBid === null ? 310_000n : bestBid + 5_000n;
  expect(top?.bestAsk ? BigInt(top.bestAsk) > price : true, 'the new bid stays below the best ask').toBe(true);
  const level = ladderBidAt(app, price);
  await expect(level).toHaveCount(0);
  const other = await counterparty(await devnet.get(), 100n);
  try {
    const placed = await other.client.placeOrder({
      assetId: BigInt(market.assetId),
      epoch: BigInt(market.epoch),
      side: 'buy',
      price,
      size: 2_000_000n,
    });
    expect(placed.delivery === 'answered' && placed.response.status).toBe('ACCEPTED');
    await expect(level).toBeVisible({
      timeout: 15_000,
    });
  } finally {
    other.client.http.close();
  }
});
