/**
 * Flow: claim after an epoch resolves, on a devnet of its own whose only market has 15-second
 * epochs. The UI buys Up against a resting sell placed from the test process, holds the position
 * across resolution, then claims it from the Funds screen's claims panel: the balance rises by
 * exactly the payout, or, on the losing side, the claims panel says there is nothing to claim.
 */
import { shortMarkets } from './harness/devnet';
import { expect, invokeInPage, test } from './harness/fixture';
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
} from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { markets: shortMarkets(15) } });
test.setTimeout(150_000);

interface Position {
  assetId: string;
  epoch: string;
  resolved: boolean;
  claimable: string;
}

test('hold a position across resolution and claim it', async ({ app, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 50n);
  const market = await tradeOn(app, (m) => m.symbol === 'BTC', 9_000);

  const other = await counterparty(net, 50n);
  await other.client.placeOrder({
    assetId: BigInt(market.assetId),
    epoch: BigInt(market.epoch),
    side: 'sell',
    price: 500_000n,
    size: '4',
  });
  await placeFromTicket(app, 'buy', '50', '4', 'IOC');
  await expect(
    app
      .getByTestId('toast')
      .filter({ hasText: /filled/ })
      .first(),
  ).toBeVisible();
  await app.getByRole('tab', { name: /Positions/ }).click();
  await expect(app.getByTestId('positions').locator('tbody tr').first()).toContainText('▲ Long Up');
  await expect.poll(() => available(app)).toBe(48n * USD);

  // The epoch ends and resolves (15 s epochs). The outcome comes from the resolution itself: the
  // account's claimable amount may still be catching up at the moment the epoch shows resolved.
  const upWon = await resolutionOf(app, market);
  // 4 contracts long Up pay $4 if Up won, nothing otherwise.
  const payout = upWon ? 4n * USD : 0n;
  await expect
    .poll(
      async () => {
        const view = (await invokeInPage(app, 'account.get')).value as { positions: Position[] } | null;
        const position = view?.positions.find((p) => p.assetId === market.assetId && p.epoch === market.epoch);
        return position?.resolved === true ? BigInt(position.claimable) : null;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(payout);

  await open(app, 'Funds', 'Funds');
  const claims = app.getByTestId('claims');
  const before = await available(app);
  if (upWon) {
    const row = claims.locator('tbody tr', { hasText: `${market.epoch}` });
    await expect(row).toContainText('$4.00', { timeout: 30_000 });
    await row.getByRole('button', { name: 'Claim' }).click();
    await expect(
      app
        .getByTestId('toast')
        .filter({ hasText: /claimed/ })
        .first(),
    ).toContainText('Claimed');
    await expect.poll(() => available(app)).toBe(before + payout);
    await expect(claims).toContainText('Nothing to claim.');
  } else {
    // Up lost: nothing to claim, and the panel says so.
    await expect(claims).toContainText('Nothing to claim.');
    await expect.poll(() => available(app)).toBe(before);
  }
  await shot(app, 'flows-claim');
  await noProblems(app, problems);
});
