/**
 * The daily loss budget as a trader meets it (docs/risk-guards.md): an account funded outside the app
 * gets a budget and trades at once; Shift+B at an ask inside the band buys, at the band's edge when the
 * slippage went past it; a one-sided book does not value a position (fair value does); a close whose
 * slippage would break the budget goes at the worst price the budget allows when that reaches the
 * bid; and the meter is main's own figure. Screenshots: test-results/screens/loss-budget-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, invokeInPage, test, userAnswers } from './harness/fixture';
import {
  USD,
  addressOf,
  counterparty,
  importMaster,
  noProblems,
  open,
  placeFromTicket,
  randomKey,
  setPassword,
  shot,
  tradeOn,
  usdText,
} from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { bots: 0 } });
test.setTimeout(300_000);

/** The shown fair value of the market, in price units (0.1¢ steps). */
async function fairOf(app: Page, assetId: string): Promise<bigint> {
  const cell = app.locator(`tr[data-asset="${assetId}"]`).getByTestId('market-fair');
  await expect(cell).toHaveText(/^\d+\.\d¢$/, { timeout: 90_000 });
  const m = /(\d+)\.(\d)¢/.exec((await cell.textContent()) ?? '')!;
  return BigInt(m[1]!) * 10_000n + BigInt(m[2]!) * 1_000n;
}

/** "$x of $y" as the meter shows it, and as main's risk.status says it, in the meter's words. */
async function meterAndMain(app: Page): Promise<[string, string]> {
  const meter = ((await app.getByTestId('loss-budget').locator('.num').textContent()) ?? '').trim();
  const s = (await invokeInPage(app, 'risk.status')).value as { lossToday: string | null; lossLimit: string | null };
  const usd = (v: string | null): string =>
    v === null ? '—' : `$${(Number(BigInt(v) / 10_000n) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  return [meter, s.lossToday === null ? '—' : `${usd(s.lossToday)} of ${usd(s.lossLimit)}`];
}

test('the loss budget where a trader meets it', async ({ app, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  // A key with nothing on the exchange yet: the day's record starts at $0.
  const key = randomKey();
  const address = addressOf(key);
  await importMaster(app, key, 'Funded elsewhere');
  const market = await tradeOn(app);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const meter = app.getByTestId('loss-budget');
  await expect(meter).toContainText('$0.00 of $0.00');

  await test.step('money that arrives from outside the app gives the day its budget', async () => {
    await net.handle.exchange.credit(address, 200n * USD);
    await expect(meter).toContainText('$0.00 of $20.00', { timeout: 20_000 });
    await shot(app, 'loss-budget-funded-elsewhere');
  });

  // Fair value known before the trading steps (the oracle has sent enough prices).
  await fairOf(app, market.assetId);
  const other = await counterparty(net, 1_000n);
  const onTick = (p: bigint): bigint => (p / 1_000n) * 1_000n;

  await test.step('Shift+B at an ask inside the band buys, at the band’s edge', async () => {
    await open(app, 'Settings', 'Settings');
    await app.getByLabel('Enable trading hotkeys').check();
    await open(app, 'Trade', 'Trade');
    // 10¢ over fair (inside the 15¢ band); with 20¢ of slippage the hotkey's limit is 30¢ over it. Fair
    // value moves with the oracle meanwhile: a few cents either way still leave the ask inside the band
    // and the limit past it.
    const slippage = app.getByTestId('max-slippage');
    await slippage.fill('20');
    await slippage.press('Enter');
    await expect(slippage).toHaveValue('20');
    const ask = onTick((await fairOf(app, market.assetId)) + 100_000n);
    await other.client.placeOrder({ ...ref, side: 'sell', price: ask, size: 10n * USD, timeInForce: 'GTC' });
    await expect(app.getByTestId('ladder').locator(`[data-price="${ask}"]`)).toBeVisible({ timeout: 15_000 });
    await app.getByTestId('ladder').getByRole('button', { name: 'Centre' }).focus();
    await app.keyboard.press('Shift+B');
    const strip = app.getByTestId('notice-strip');
    await expect(strip).toContainText('Bought', { timeout: 15_000 });
    await expect(strip).toContainText('to stay inside your price band around fair value');
    await shot(app, 'loss-budget-shift-b-tightened');
  });

  await test.step('a one-sided book does not value the position: fair value does', async () => {
    const f = await fairOf(app, market.assetId);
    const ask = onTick(f + 80_000n);
    await other.client.cancelAll(ref);
    await other.client.placeOrder({ ...ref, side: 'sell', price: ask, size: 20n * USD, timeInForce: 'GTC' });
    await expect(app.getByTestId('ladder').locator(`[data-price="${ask}"]`)).toBeVisible({ timeout: 15_000 });
    await placeFromTicket(app, 'buy', (Number(ask) / 10_000).toFixed(1), '20', 'IOC');
    await expect(app.getByTestId('notice-strip')).toContainText('Bought 20', { timeout: 15_000 });
    // Only a bid is left, above fair: it would mark the long at a gain; fair value marks it at a loss.
    await other.client.cancelAll(ref);
    const bid = onTick(f + 20_000n);
    await other.client.placeOrder({ ...ref, side: 'buy', price: bid, size: 5n * USD, timeInForce: 'GTC' });
    await app.getByRole('tab', { name: /Positions/ }).click();
    const row = app.getByTestId('positions').locator('tbody tr').first();
    const fairCell = app.locator(`tr[data-asset="${market.assetId}"]`).getByTestId('market-fair');
    const cents = (t: string | null): bigint => {
      const m = /(\d+)(?:\.(\d))?¢/.exec(t ?? '')!;
      return BigInt(m[1]!) * 10_000n + BigInt(m[2] ?? '0') * 1_000n;
    };
    await expect
      .poll(async () => {
        const cells = row.locator('td');
        const shownFair = await cells.nth(4).textContent();
        if (shownFair !== (await fairCell.textContent()))
          return `fair ${shownFair} against ${await fairCell.textContent()}`;
        const size = BigInt(/(\d+)/.exec((await cells.nth(2).textContent()) ?? '')![1]!);
        const expected = size * (cents(shownFair) - cents(await cells.nth(3).textContent()));
        const unrealised = usdText(await cells.nth(5).textContent());
        // At fair value (the shown one, to 0.1¢ a contract), never at the lone bid's paper gain.
        return unrealised - expected <= size * 1_000n + 10_000n && expected - unrealised <= size * 1_000n + 10_000n
          ? 'at fair'
          : `unrealised ${unrealised} against ${expected} at fair`;
      })
      .toBe('at fair');
    await shot(app, 'loss-budget-one-sided-book');
  });

  await test.step('the meter is main’s own figure, within a second', async () => {
    await expect
      .poll(
        async () => {
          const [shown, mains] = await meterAndMain(app);
          return shown === mains ? 'equal' : `${shown} against ${mains}`;
        },
        { timeout: 1_000 },
      )
      .toBe('equal');
  });

  await test.step('what a resting order could still lose is on the meter, as main counts it', async () => {
    // A bid 5¢ under fair for 10: nothing given away now, 10 × its price if fair fell to 0 before main
    // could cancel it. Main's figure, and the settings meter says the same in words.
    const price = onTick((await fairOf(app, market.assetId)) - 50_000n);
    await placeFromTicket(app, 'buy', (Number(price) / 10_000).toFixed(1), '10', 'GTC');
    const worst = 10n * price; // amount units (10^-6 dollars)
    await expect
      .poll(async () => ((await invokeInPage(app, 'risk.status')).value as { openWorst: string | null }).openWorst, {
        timeout: 15_000,
      })
      .toBe(worst.toString());
    await open(app, 'Settings', 'Settings');
    const held = app.getByTestId('loss-budget-held');
    await expect(held).toContainText(`up to $${(Number(worst) / 1e6).toFixed(2)}`);
    await held.scrollIntoViewIfNeeded();
    await shot(app, 'loss-budget-open-orders-held');
    await open(app, 'Trade', 'Trade');
    await invokeInPage(app, 'orders.cancelAll', { assetId: market.assetId, epoch: market.epoch, signAs: 'master' });
  });

  await test.step('a close whose slippage would break the budget goes at the worst price the budget allows, which reaches the bid', async () => {
    // A fixed limit of $1 a day: a close 20¢ of slippage under the bid would give away more than that.
    await open(app, 'Settings', 'Settings');
    const fixed = app.getByLabel('Daily loss limit, fixed amount');
    await userAnswers().dialogs({ kind: 'confirm', yes: true });
    await fixed.fill('1');
    await fixed.press('Enter');
    await open(app, 'Trade', 'Trade');
    await expect(meter).toContainText('of $1.00', { timeout: 10_000 });
    // The bid sits 8¢ over fair; the close's limit, 20¢ of slippage under it, is 12¢ under fair.
    await other.client.cancelAll(ref);
    const bid = onTick((await fairOf(app, market.assetId)) + 80_000n);
    await other.client.placeOrder({ ...ref, side: 'buy', price: bid, size: 100n * USD, timeInForce: 'GTC' });
    await expect(app.getByTestId('ladder').locator(`[data-price="${bid}"]`)).toBeVisible({ timeout: 15_000 });
    await app.getByRole('button', { name: 'Close position' }).click();
    const strip = app.getByTestId('notice-strip');
    await expect(strip).toContainText('to stay inside your daily loss budget', { timeout: 15_000 });
    await expect(strip).toContainText(/Closed|Partly closed/);
    await shot(app, 'loss-budget-close-at-limit');
  });

  await noProblems(app, problems);
});
