/**
 * The roll, told: on a devnet whose BTC epochs last 20 s on a flat oracle path (Up wins each one),
 * the trader holds 5 Up bought at 50¢ and two resting buys. When the other trader's quotes go, the
 * header's Up % says "only your orders" (not 50% from the trader's own bids). At the epoch's end a
 * notice says how many resting orders ended with it and in which market; sampled every frame
 * through the roll, equity counts the position at fair value while it trades, at the worst it can pay
 * (nothing, never less) while its epoch settles, then at its claim: the valuation the daily loss
 * budget uses (docs/risk-guards.md).
 */
import { claimableMarkets } from './harness/devnet';
import { expect, test } from './harness/fixture';
import {
  counterparty,
  freshFundedMaster,
  noProblems,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
  usdText,
} from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { markets: claimableMarkets(20) } });
test.setTimeout(180_000);

interface Sample {
  at: number;
  epoch: string;
  equity: string;
}

test('a notice names the market and counts the orders the roll took; equity through the roll is the budget’s', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app, (m) => m.symbol === 'BTC', 12_000);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const name = `BTC 20s #${market.epoch}`;
  const other = await counterparty(net, 100n);
  const header = app.getByTestId('market-header');
  const strip = app.getByTestId('notice-strip');

  // Long 5 Up at 50¢, and two buys that rest under the other trader's bid.
  await other.client.placeOrder({ ...ref, side: 'sell', price: 500_000n, size: '5', timeInForce: 'GTC' });
  await other.client.placeOrder({ ...ref, side: 'buy', price: 300_000n, size: '5', timeInForce: 'GTC' });
  await placeFromTicket(app, 'buy', '50', '5', 'IOC');
  await expect(strip).toContainText(`${name}: Bought 5`);
  await placeFromTicket(app, 'buy', '10', '2', 'GTC');
  await placeFromTicket(app, 'buy', '5', '1', 'GTC');
  await expect(app.getByTestId('open-orders').locator('tbody tr')).toHaveCount(2);
  await expect(header.getByTestId('header-up')).toHaveText('no quotes'); // the other trader bids, nobody offers

  // The other trader leaves: the trader's own bids are all that is left, and Up % says so.
  await other.client.cancelAll(ref);
  await expect(header.getByTestId('header-up')).toHaveText('only your orders');
  // The narrow list carries Fair and Edge instead of Up %: it shows no probability made of one's own orders.
  await expect(app.locator(`tr[data-asset="${market.assetId}"]`)).not.toContainText('%');
  await shot(app, 'roll-only-your-orders');

  // Equity, every frame, from here through the roll until the claim is known.
  await app.evaluate(() => {
    const w = globalThis as unknown as {
      __equity: Sample[];
      document: { querySelector(s: string): { textContent: string | null; value?: string } | null };
      requestAnimationFrame(f: () => void): void;
    };
    w.__equity = [];
    const tick = (): void => {
      w.__equity.push({
        at: Date.now(),
        epoch: w.document.querySelector('[data-testid="market-header"] select')?.value ?? '',
        equity: w.document.querySelector('[data-testid="equity"]')?.textContent ?? '',
      });
      if (w.__equity.length < 100_000) w.requestAnimationFrame(tick);
    };
    tick();
  });

  // The roll: one notice, with the market's name and how many orders ended with it.
  await expect(strip).toContainText(`${name} ended with 2 of your orders resting (2 buys)`, { timeout: 30_000 });
  await shot(app, 'roll-notice');
  await expect(app.getByTestId('open-orders').locator('tbody tr')).toHaveCount(1); // "No open orders."
  await expect(app.getByTestId('open-orders')).toContainText('No open orders');

  // The claim is known: 5 Up pay $5.00.
  await app.getByRole('tab', { name: /Positions/ }).click();
  const row = app.getByTestId('positions').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText('claim $5.00', { timeout: 30_000 });
  // Its Claim button is whole inside the tables' panel at 1360 wide (not cut at the edge).
  const claimBox = await row.getByRole('button', { name: 'Claim' }).boundingBox();
  const panelBox = await app.getByTestId('account-tabs').boundingBox();
  expect(claimBox!.x + claimBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
  await shot(app, 'roll-claim-known');
  const samples = await app.evaluate(() => (globalThis as unknown as { __equity: Sample[] }).__equity);

  const before = samples.filter((s) => s.epoch === market.epoch && s.equity !== '');
  const first = usdText(before[0]!.equity);
  const values = samples.filter((s) => s.equity !== '').map((s) => usdText(s.equity));
  // After the roll, its $5.00 claim: at least what it was worth at fair before (Up won: fair was at most $1 a contract).
  const last = values.at(-1)!;
  expect(last).toBeGreaterThanOrEqual(first);
  // While it settles it counts at the worst it can pay, nothing: never less, so equity never falls
  // below the cash (the last figure less the $5.00 claim).
  expect(values.filter((v) => v < last - 5_000_000n)).toEqual([]);
  // The roll happened while sampling (the header went to the next epoch).
  expect(samples.some((s) => s.epoch !== market.epoch)).toBe(true);
  await noProblems(app, problems);
});
