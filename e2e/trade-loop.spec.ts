/**
 * The controls a trader reaches for, against a devnet (no bots here: a second account in the test
 * process makes the liquidity, so every fill is ours to count). Cancel all and Close position
 * beside the ticket, Close on a position row, the order history, one notice per fill that names
 * its market and covers nothing, and a ticket that refuses an order the free balance cannot cover
 * before anything is signed. Without an account, the ticket says so and first steps offer one.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, invokeInPage, test } from './harness/fixture';
import {
  counterparty,
  freshFundedMaster,
  ladderBidAt,
  noProblems,
  open,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
} from './harness/flows';

// Exact fills and money: a book no other spec has left orders in.
test.use({ withDevnet: true, devnetOptions: { ownBook: 'trade-loop' } });
test.setTimeout(180_000);

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The notice log, newest first, as the user reads it back (opened and closed again). */
async function noticeLog(page: Page): Promise<string[]> {
  await page.getByTestId('notice-log-button').click();
  const entries = await page.getByTestId('notice-entry').allTextContents();
  await page.getByTestId('notice-log').getByRole('button', { name: 'Close' }).click();
  return entries;
}

test('cancel all, close position, row close, order history; one notice per fill, named, covering nothing', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app, undefined, 90_000);
  const name = `BTC 5m #${market.epoch}`;
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const other = await counterparty(net, 100n);
  const orders = app.getByTestId('open-orders');
  const strip = app.getByTestId('notice-strip');

  // A resting order: its notice names the market, and so does its row.
  await placeFromTicket(app, 'buy', '40', '3');
  await expect(strip).toContainText(`${name}: Buy 3 at 40¢ is resting`);
  await expect(orders.locator('tbody tr').first()).toContainText(name);

  // Another account fills it: exactly one notice for the fill, naming the market.
  const before = (await noticeLog(app)).length;
  await other.client.placeOrder({ ...ref, side: 'sell', price: 400_000n, size: '3', timeInForce: 'IOC' });
  await expect(strip).toContainText(`${name}: bought 3 Up contracts at 40¢`);
  await expect(orders).toContainText('No open orders.');
  const afterFill = await noticeLog(app);
  expect(afterFill.length - before, afterFill.slice(0, 4).join(' | ')).toBe(1);
  expect(afterFill.filter((n) => /bought 3/i.test(n))).toHaveLength(1);

  // The strip covers nothing: not the ladder, the ticket, the buttons or the tables.
  const notice = await boxOf(strip);
  for (const id of ['ladder', 'ticket', 'trade-actions', 'account-tabs', 'contract-chart', 'oracle-chart']) {
    expect(overlap(notice, await boxOf(app.getByTestId(id))), `the notice strip covers ${id}`).toBe(false);
  }

  // Cancel all (this market): two resting orders go in one click.
  await placeFromTicket(app, 'buy', '10', '1');
  await placeFromTicket(app, 'buy', '11', '1');
  const actions = app.getByTestId('trade-actions');
  await expect(actions.getByRole('button', { name: 'Cancel all (2)' })).toBeEnabled();
  await actions.getByRole('button', { name: /^Cancel all/ }).click();
  await expect(strip).toContainText(`${name}: Cancelled 2 orders`);
  await expect(orders).toContainText('No open orders.');

  // Close position beside the ticket: the long 3 is sold into another account's bid.
  await other.client.placeOrder({ ...ref, side: 'buy', price: 450_000n, size: '3', timeInForce: 'GTC' });
  // The close prices from the book this app sees: wait for the bid to reach it (on a slow machine the
  // close could otherwise find no quotes and break the price band, which main asks about).
  await expect(ladderBidAt(app, '450000')).toHaveCount(1, { timeout: 15_000 });
  await actions.getByRole('button', { name: /^Close position \(▲ 3\)/ }).click();
  await app.getByRole('tab', { name: /Positions/ }).click();
  const row = app.getByTestId('positions').locator('tbody tr').first();
  await expect(row).toContainText(name);
  await expect(row).toContainText('Closed');
  await expect(actions.getByRole('button', { name: 'Close position' })).toBeVisible();

  // Close on the position's row: buy 2 against a resting offer, then close from the row.
  await other.client.placeOrder({ ...ref, side: 'sell', price: 500_000n, size: '2', timeInForce: 'GTC' });
  await placeFromTicket(app, 'buy', '50', '2', 'IOC');
  await expect(row).toContainText('▲ Long Up');
  await other.client.placeOrder({ ...ref, side: 'buy', price: 480_000n, size: '2', timeInForce: 'GTC' });
  await expect(ladderBidAt(app, '480000')).toHaveCount(1, { timeout: 15_000 });
  await row.getByRole('button', { name: 'Close' }).click();
  await expect(row).toContainText('Closed');

  // The order history has what became of each order.
  await app.getByRole('tab', { name: /Order history/ }).click();
  const history = app.getByTestId('order-history');
  // Filled: the resting buy, the close, the IOC buy and the row's close.
  await expect(history.locator('tr[data-outcome="filled"]')).toHaveCount(4);
  await expect(history.locator('tr[data-outcome="cancelled"]')).toHaveCount(2);
  await expect(history.locator('tr[data-outcome="cancelled"]').first()).toContainText('cancelled with cancel all');
  await expect(history.locator('tbody tr').first()).toContainText(name);
  await shot(app, 'trade-loop-history');

  // An order the free balance cannot cover: the ticket shows the shortfall and a way to Funds,
  // the button is off, and main refuses it before signing (nothing new in the history).
  const ticket = app.getByTestId('ticket');
  await ticket.getByRole('radio', { name: /Buy Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill('99');
  await ticket.getByLabel('Size', { exact: true }).fill('1000');
  await expect(ticket.getByTestId('shortfall')).toContainText(
    /Not enough free balance: this needs \$990\.00, \$[\d,.]+ more than is free/,
  );
  await expect(ticket.getByTestId('place-order')).toBeDisabled();
  const refused = await invokeInPage(app, 'orders.place', {
    assetId: market.assetId,
    epoch: market.epoch,
    side: 'buy',
    price: '99',
    size: '1000',
    timeInForce: 'GTC',
    signAs: 'master',
  });
  expect(refused.error?.code).toBe('orders.insufficient_balance');
  expect(refused.error?.message).toMatch(/^Not sent: this order needs \$990\.00 of collateral/);
  await expect(history.locator('tbody tr')).toHaveCount(6);
  // "62.50" is 62.5¢, and the size limits are the exchange's.
  await ticket.getByLabel('Price (¢)').fill('62.50');
  await ticket.getByLabel('Size', { exact: true }).fill('2');
  await expect(ticket.getByTestId('quote-cost')).toHaveText('$1.25');
  await expect(ticket.getByTestId('ticket-limits')).toContainText('0.01–100,000 contracts');
  await ticket.getByLabel('Size', { exact: true }).fill('100000.01');
  await expect(ticket.getByRole('alert')).toContainText('Size must be 0.01 to 100,000 contracts in steps of 0.01');
  // An empty field is named in plain words, and the ticket keeps what was typed.
  await ticket.getByLabel('Size', { exact: true }).fill('2');
  await ticket.getByLabel('Price (¢)').fill('');
  await ticket.getByTestId('place-order').click();
  await expect(strip).toContainText('Enter a price in cents (0.1 to 99.9), e.g. 62.5.');
  await expect(ticket.getByLabel('Size', { exact: true })).toHaveValue('2');
  await ticket.getByLabel('Size', { exact: true }).fill('1000');
  await ticket.getByLabel('Price (¢)').fill('99');
  await ticket.getByRole('button', { name: 'Deposit on Funds' }).click();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('Funds');
  await noProblems(app, problems);
});

test('with no account the ticket says so, and first steps offer a demo account', async ({ app, devnet, problems }) => {
  await devnet.get();
  await setPassword(app);
  const steps = app.getByTestId('first-steps');
  await expect(steps).toBeVisible();
  await expect(steps.getByRole('button', { name: 'Create or import a key' })).toBeVisible();
  await expect(steps.getByRole('button', { name: 'Connect to an exchange' })).toBeVisible();
  await open(app, 'Trade', 'Trade');
  const ticket = app.getByTestId('ticket');
  await expect(ticket.getByTestId('ticket-blocked')).toContainText('No account yet');
  await expect(ticket.getByTestId('place-order')).toBeDisabled();
  await shot(app, 'trade-loop-no-account');
  await steps.getByRole('button', { name: 'Use a demo account' }).click();
  await expect(steps).toHaveCount(0);
  await expect(app.getByTestId('account-select')).not.toHaveValue('');
  await expect(ticket).not.toContainText('No account yet');
  await noProblems(app, problems);
});
