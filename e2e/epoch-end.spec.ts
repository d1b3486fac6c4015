/**
 * The last seconds of an epoch, on a devnet whose BTC epochs last 20 s (no bots). When the quotes
 * vanish before expiry the header and the market list say "no quotes" (not a 50%
 * mid or a 50¢ mark); once the exchange's clock passes the expiry the ticket of that epoch never
 * offers to send; the chart of the epoch just ended shows that epoch's strike.
 */
import { shortMarkets } from './harness/devnet';
import { expect, invokeInPage, test } from './harness/fixture';
import {
  counterparty,
  freshFundedMaster,
  noProblems,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
} from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { markets: shortMarkets(20) } });
test.setTimeout(180_000);

interface Sample {
  exchangeNow: number;
  epochText: string;
  disabled: boolean;
}

test('quotes vanish before expiry: "no quotes"; the ticket closes at expiry by the exchange clock; the past epoch charts its own strike', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app, (m) => m.symbol === 'BTC', 15_000);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const other = await counterparty(net, 100n);

  await other.client.placeOrder({ ...ref, side: 'buy', price: 450_000n, size: '10', timeInForce: 'GTC' });
  await other.client.placeOrder({ ...ref, side: 'sell', price: 550_000n, size: '10', timeInForce: 'GTC' });
  const header = app.getByTestId('market-header');
  await expect(header.getByTestId('header-quotes')).toHaveAttribute('data-source', 'book');
  await expect(header.getByTestId('header-bid')).toHaveText('45.0¢');
  await expect(header).toContainText('50.0%');
  await placeFromTicket(app, 'buy', '55', '2', 'IOC');
  await app.getByRole('tab', { name: /Positions/ }).click();
  const position = app.getByTestId('positions').locator('tbody tr').first();
  await expect(position).toContainText('2 contracts');
  // Valued at fair value (the budget's valuation), not at the book's mid: the market list's Fair.
  const fairCell = app.locator(`tr[data-asset="${market.assetId}"]`).getByTestId('market-fair');
  await expect
    .poll(async () => {
      const [pos, fair] = [await position.locator('td').nth(4).textContent(), await fairCell.textContent()];
      return pos === fair || (pos === 'no fair value' && fair === '—') ? 'the same' : `${pos} against ${fair}`;
    })
    .toBe('the same');

  // The quotes vanish: no mid, no mark, "no quotes" everywhere (the last trade stays in its own column).
  await other.client.cancelAll(ref);
  await expect(header.getByTestId('header-quotes')).toContainText('no quotes');
  await expect(header).not.toContainText('50.0%');
  await expect(app.locator(`tr[data-asset="${market.assetId}"]`)).toContainText('no quotes');
  // The position keeps its fair value: quotes vanishing does not change what it is worth.
  await expect(position.locator('td').nth(4)).not.toHaveText('no quotes');
  await shot(app, 'epoch-end-no-quotes');

  // Sample the ticket every frame through the expiry: while the header still shows this epoch and
  // the exchange's clock is past its end, the button is never enabled.
  const offset =
    ((await invokeInPage(app, 'app.connection')).value as { clockOffsetMs: number | null }).clockOffsetMs ?? 0;
  await app.evaluate((off: number) => {
    const w = globalThis as unknown as {
      __samples: Sample[];
      document: { querySelector(s: string): { disabled?: boolean; value?: string } | null };
      requestAnimationFrame(f: () => void): void;
    };
    w.__samples = [];
    const tick = (): void => {
      const button = w.document.querySelector('[data-testid="place-order"]');
      const select = w.document.querySelector('[data-testid="market-header"] select');
      w.__samples.push({
        exchangeNow: Date.now() + off,
        epochText: select?.value ?? '',
        disabled: button?.disabled === true,
      });
      if (w.__samples.length < 100_000) w.requestAnimationFrame(tick);
    };
    tick();
  }, offset);
  await expect(header.locator('select')).not.toHaveValue(market.epoch, { timeout: 30_000 });
  const samples = await app.evaluate(() => (globalThis as unknown as { __samples: Sample[] }).__samples);
  // (50 ms of slack: the page and the ticket may read the clock offset a sample apart.)
  const afterEnd = samples.filter((s) => s.epochText === market.epoch && s.exchangeNow >= market.expiration + 50);
  expect(afterEnd.filter((s) => !s.disabled)).toEqual([]);
  expect(
    samples.some((s) => s.epochText === market.epoch && s.exchangeNow < market.expiration - 500 && !s.disabled),
  ).toBe(true);

  // The ended epoch, picked in the header, charts its own strike.
  await expect(header.locator('select option')).toHaveCount(2);
  await expect
    .poll(async () => {
      const list = (await invokeInPage(app, 'markets.resolvedEpochs', market.assetId)).value as
        { epoch: string; strike: string }[] | undefined;
      return list?.find((r) => r.epoch === market.epoch)?.strike ?? null;
    })
    .not.toBeNull();
  await header.locator('select').selectOption(market.epoch);
  await expect(app.getByRole('region', { name: 'Oracle price chart' })).toContainText(
    `epoch ${market.epoch} strike dashed`,
  );
  await shot(app, 'epoch-end-past-strike');
  await noProblems(app, problems);
});
