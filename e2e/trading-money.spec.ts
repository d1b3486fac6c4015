/**
 * The trader's numbers and the closing loop against a devnet (no bots: a second account trading
 * from the test process makes the book). A close (Shift+F) into a thin book stops at its limit and
 * says what is left, the stray 1¢ bid untouched; a losing round trip shows a red loss equal to the
 * balance change and the position says closed; Shift+F with nothing to close says so. Cancel-last
 * pressed three times cancels the three newest orders; Escape leaves a field; a join keeps the
 * ticket's time in force.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './harness/fixture';
import {
  available,
  counterparty,
  freshFundedMaster,
  noProblems,
  open,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
  USD,
} from './harness/flows';

// Exact fills and money: a book no other spec has left orders in.
test.use({ withDevnet: true, devnetOptions: { ownBook: 'trading-money' } });
test.setTimeout(180_000);

/** The notice with this text, in the notice area or (when another notice followed it) in the notice log. */
async function seeNotice(page: Page, text: RegExp): Promise<void> {
  try {
    await expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible({ timeout: 10_000 });
    return;
  } catch {
    /* replaced by a later notice: read it back from the log */
  }
  await page.getByTestId('notice-log-button').click();
  await expect(page.getByTestId('notice-entry').filter({ hasText: text }).first()).toBeVisible();
  await page.getByTestId('notice-log-button').click();
}

async function hotkeysOn(page: Page): Promise<void> {
  await open(page, 'Settings', 'Settings');
  await page.getByLabel('Enable trading hotkeys').check();
  await expect(page.getByLabel('Enable trading hotkeys')).toBeChecked();
}

/** Presses a key with the focus on the ladder's Centre button (outside any field). */
async function press(page: Page, key: string): Promise<void> {
  await page.getByTestId('ladder').getByRole('button', { name: 'Centre' }).focus();
  await page.keyboard.press(key);
}

test('a close into a thin book stops at its limit; a losing round trip is a red loss equal to the balance change', async ({
  app,
  core,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  await hotkeysOn(app);
  const market = await tradeOn(app);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const other = await counterparty(net, 500n);
  const before = await available(app);
  expect(before).toBe(100n * USD);

  // Buy 20 at 99¢: far above fair value, so main's order dialog asks for a one-off override, and the person says yes.
  await other.client.placeOrder({ ...ref, side: 'sell', price: 990_000n, size: '20', timeInForce: 'GTC' });
  await core.dialogs({ kind: 'confirm', yes: true });
  await placeFromTicket(app, 'buy', '99', '20', 'IOC');
  const override = (await core.dialogs()).shown.filter((d) => d.kind === 'confirm').at(-1)!;
  expect(override.request.confirmLabel).toBe('Buy anyway');
  // Whichever limit it breaks (the band once fair value is known; the day's loss budget either way), it is listed.
  expect(override.request.detail).toMatch(/This order breaks your risk limits:\n• /);
  await app.getByRole('tab', { name: /Positions/ }).click();
  const position = app.getByTestId('positions').locator('tbody tr').first();
  await expect(position).toContainText('▲ Long Up');
  await expect(position).toContainText('20 contracts');

  // A thin book: 5 bid at 60¢ and a stray 100 at 1¢. Shift+F sells the 5 and stops at 55¢ (5¢ slippage).
  // With a fair value, a close at no cost against it needs no dialog. Without one (the oracle's first
  // minute, which a loaded machine can stretch past this point) the close counts at the most it could
  // lose and main would ask: so wait for the fair value, as a trader would see it on the market list.
  await expect(app.locator(`tr[data-asset="${market.assetId}"]`).getByTestId('market-fair')).toHaveText(/^\d+\.\d¢$/, {
    timeout: 90_000,
  });
  await other.client.placeOrder({ ...ref, side: 'buy', price: 600_000n, size: '5', timeInForce: 'GTC' });
  await other.client.placeOrder({ ...ref, side: 'buy', price: 10_000n, size: '100', timeInForce: 'GTC' });
  await press(app, 'Shift+F');
  await seeNotice(
    app,
    /Partly closed BTC 5m #\d+, 15 contracts still open: sold 5 contracts at 60¢ average \(worst 60¢\), stopped at the 55¢ limit \(best 60¢ − 5¢ slippage\)\./,
  );
  await expect(position).toContainText('15 contracts');
  const bids = (await other.client.getOrderBook(ref.assetId, ref.epoch)).bids;
  expect(bids.map((l) => [l.price, l.size])).toEqual([[10_000n, 100_000_000n]]);
  await shot(app, 'trading-money-thin-close');

  // Sell the rest into the 1¢ bid on purpose: 19.80 paid, 3.00 + 0.15 back: a $16.65 loss. The
  // ticket says the close of 15 loses $14.70 (their $14.85 cost less $0.15 in; not "+$0.15", which
  // read as a profit) and needs no collateral (not "Cost $14.85").
  const ticket = app.getByTestId('ticket');
  await ticket.getByRole('radio', { name: /Sell Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill('1');
  await ticket.getByLabel('Size', { exact: true }).fill('15');
  await ticket.getByLabel('Time in force').selectOption('IOC');
  await expect(ticket.getByTestId('quote-closes')).toHaveText('15 contracts · P&L −$14.70');
  await expect(ticket.getByTestId('quote-closes')).toHaveAttribute(
    'title',
    'Brings in $0.15; these contracts cost $14.85',
  );
  await expect(ticket.getByTestId('quote-cost')).toHaveText('$0.00');
  await core.dialogs({ kind: 'confirm', yes: true });
  await ticket.getByTestId('place-order').click();
  await expect(position).toContainText('Closed');
  await expect(position).toContainText('closed');
  const realised = position.locator('td').nth(6);
  await expect(realised).toHaveText('−$16.65');
  await expect(realised).toHaveClass(/down/);
  await expect.poll(() => available(app)).toBe(before - 16_650_000n);
  await shot(app, 'trading-money-loss');

  // Nothing left to close: it says so, and sends nothing.
  await press(app, 'Shift+F');
  await seeNotice(app, /Nothing to close: no position in BTC 5m #\d+\./);
  await noProblems(app, problems);
});

test("cancel-last ×3 cancels the three newest orders; Escape leaves a field; a join keeps the ticket's time in force", async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  await hotkeysOn(app);
  await tradeOn(app);
  const orders = app.getByTestId('open-orders');
  for (const price of ['30', '31', '32', '33']) {
    await placeFromTicket(app, 'buy', price, '1');
    await expect(orders).toContainText(`${price}.0¢`);
  }
  await expect(orders.locator('tbody tr')).toHaveCount(4);

  // Three presses before any cancel is answered: 33, 32 and 31 go; the oldest (30) stays.
  await app.getByTestId('ladder').getByRole('button', { name: 'Centre' }).focus();
  await app.keyboard.press('Backspace');
  await app.keyboard.press('Backspace');
  await app.keyboard.press('Backspace');
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await expect(orders).toContainText('30.0¢');

  // Escape in the price field leaves the field (no cancel-all); the next Escape is the hotkey.
  const price = app.getByTestId('ticket').getByLabel('Price (¢)');
  await price.focus();
  await app.keyboard.press('Escape');
  await expect(price).not.toBeFocused();
  await expect(orders.locator('tbody tr')).toHaveCount(1);

  // A post-only ticket joins the bid post-only and stays post-only.
  await app.getByTestId('ticket').getByLabel('Time in force').selectOption('ALO');
  await press(app, 'b');
  await expect(orders.locator('tbody tr')).toHaveCount(2);
  await expect(orders.locator('tbody tr').filter({ hasText: 'ALO' })).toHaveCount(1);
  await expect(app.getByTestId('ticket').getByLabel('Time in force')).toHaveValue('ALO');

  await press(app, 'Escape');
  await expect(orders).toContainText('No open orders.');
  await noProblems(app, problems);
});

test("the ticket's cost never blanks while its inputs stay the same, however the book moves; the header is the ladder's book", async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const other = await counterparty(net, 500n);
  const ticket = app.getByTestId('ticket');
  await ticket.getByLabel('Price (¢)').fill('40');
  await ticket.getByLabel('Size', { exact: true }).fill('3');
  await expect(ticket.getByTestId('quote-cost')).toHaveText('$1.20');
  // Every frame from here: the cost shown, and whether the header's bid is the ladder's best bid.
  await app.evaluate(() => {
    const w = globalThis as unknown as {
      __costs: string[];
      __stop: boolean;
      document: { querySelector(s: string): { textContent: string | null } | null };
      requestAnimationFrame(f: () => void): void;
    };
    w.__costs = [];
    w.__stop = false;
    const tick = (): void => {
      w.__costs.push(w.document.querySelector('[data-testid="quote-cost"]')?.textContent?.trim() ?? '');
      if (!w.__stop) w.requestAnimationFrame(tick);
    };
    tick();
  });
  for (let i = 0; i < 12; i++) {
    const bid = 450_000n + BigInt(i % 4) * 10_000n;
    await other.client.cancelAll(ref);
    await other.client.placeOrder({ ...ref, side: 'buy', price: bid, size: '5', timeInForce: 'GTC' });
    await other.client.placeOrder({ ...ref, side: 'sell', price: bid + 50_000n, size: '5', timeInForce: 'GTC' });
    await expect(app.getByTestId('header-bid')).toHaveText(`${bid / 10_000n}.0¢`);
    await expect(app.getByTestId('market-header').getByTestId('header-quotes')).toHaveAttribute('data-source', 'book');
  }
  const costs = await app.evaluate(() => {
    const w = globalThis as unknown as { __costs: string[]; __stop: boolean };
    w.__stop = true;
    return w.__costs;
  });
  expect(costs.length).toBeGreaterThan(0);
  expect(costs.filter((c) => c !== '$1.20')).toEqual([]);
  await noProblems(app, problems);
});
