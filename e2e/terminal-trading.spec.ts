/**
 * Trading from the terminal's screens against the real core trading on a devnet (no bots: the
 * test's own orders are the book). Screens with live data are captured as terminal-live-*.png.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, invokeInPage, SCREENS_DIR, test } from './harness/fixture';
import { setPassword } from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(240_000);

const PASSWORD = 'terminal e2e password';

async function open(page: Page, label: string, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}


async function start(page: Page): Promise<void> {
  await setPassword(page, PASSWORD);
  // First run: take a funded demo account from the offer on the keys screen.
  await open(page, 'Keys', 'Keys');
  await page.getByTestId('first-run').getByRole('button', { name: /^Use / }).first().click();
  await expect(page.getByTestId('keys-table')).toContainText('devnet');
}

/** Deposits through the funds screen and waits for the stepper to reach "Credited". */
async function deposit(page: Page, amount: string): Promise<void> {
  await open(page, 'Funds', 'Funds');
  const panel = page.getByTestId('deposit');
  await panel.getByLabel('Amount (USD)').fill(amount);
  await panel.getByRole('button', { name: 'Deposit' }).click();
  await expect(panel.getByTestId('deposit-stepper').locator('li').last()).toHaveClass(/done/, { timeout: 60_000 });
  await page.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-deposit.png') });
}

/** Devnet epochs are short: start trading only with enough of the current epoch left. */
async function waitForFreshEpoch(page: Page, needMs: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const list = (await invokeInPage(page, 'markets.list')).value as { expiration: number; resolved: boolean }[];
        const first = list[0];
        return first !== undefined && !first.resolved && first.expiration - Date.now() > needMs;
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);
}

test('markets, ladder and order entry by ticket and hotkey; cancel all', async ({ app, problems }) => {
  await start(app);
  await deposit(app, '100');
  const markets = await invokeInPage(app, 'markets.list');
  expect(markets.error).toBeUndefined();

  await open(app, 'Markets', 'Markets');
  await expect(app.getByTestId('markets-table').locator('tbody tr[data-asset]').first()).toBeVisible();
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-markets.png') });

  // Confirmations off and hotkeys on, through the settings screen.
  await open(app, 'Settings', 'Settings');
  await app.getByLabel('Confirm orders before sending').uncheck();
  await app.getByLabel('Enable trading hotkeys').check();

  await open(app, 'Trade', 'Trade');
  const ladder = app.getByTestId('ladder');
  await expect(ladder.locator('[data-price]')).toHaveCount(31);
  await expect(app.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });

  await waitForFreshEpoch(app, 25_000);
  // By ticket: a resting buy shows in open orders and as our own size on the ladder.
  const ticket = app.getByTestId('ticket');
  await ticket.getByRole('radio', { name: /Buy Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill('41.5');
  await ticket.getByLabel('Size', { exact: true }).fill('2');
  await expect(ticket.getByTestId('quote-cost')).toHaveText('$0.83');
  await ticket.getByTestId('place-order').click();
  await expect(app.getByTestId('toast').filter({ hasText: /ACCEPTED/ })).toBeVisible();
  await expect(app.getByTestId('open-orders')).toContainText('41.5¢');
  await ladder.getByRole('button', { name: 'Centre' }).click();
  await expect(ladder.locator('[data-price="415000"] .own').first()).toContainText('● 2');

  // By hotkey: join the bid (our own 41.5¢), from outside any field.
  await ladder.getByRole('button', { name: 'Centre' }).focus();
  await app.keyboard.press('b');
  await expect(app.getByTestId('open-orders').locator('tbody tr')).toHaveCount(2);
  await expect(ladder.locator('[data-price="415000"] .own').first()).toContainText('● 4');
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-trade.png') });

  // Cancel all in this market with its hotkey.
  await app.keyboard.press('Escape');
  await expect(app.getByTestId('open-orders')).toContainText('No open orders.');
  // The empty book recentres the ladder (the pointer is elsewhere); no own size is left anywhere.
  await expect(ladder.locator('.own', { hasText: '●' })).toHaveCount(0);

  expect(await app.evaluate<string[]>('window.__cspViolations')).toEqual([]);
  expect(problems).toEqual([]);
});
