/**
 * Trading from the terminal's screens against the real core trading on a devnet (no bots: the
 * test's own orders are the book). Screens with live data are captured as terminal-live-*.png.
 */
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, invokeInPage, SCREENS_DIR, test, userAnswers } from './harness/fixture';
import { setPassword } from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(240_000);

const PASSWORD = 'terminal e2e password';

/** The DOM surface inkUnder uses (the e2e tsconfig has no DOM library). */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface InkCanvas {
  width: number;
  getBoundingClientRect(): Box;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}
interface InkCell {
  getBoundingClientRect(): Box;
  closest(selector: string): { querySelector(selector: string): InkCanvas | null } | null;
}

/** Painted (non-transparent) pixels of the ladder's canvas inside `cell`'s box, and their colour sum. */
async function inkUnder(cell: Locator): Promise<{ ink: number; colour: number }> {
  return cell.evaluate((node) => {
    const el = node as unknown as InkCell;
    const canvas = el.closest('[role="grid"]')?.querySelector('canvas');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return { ink: -1, colour: 0 };
    const c = canvas.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const k = canvas.width / c.width;
    const data = ctx.getImageData(
      Math.round((r.left - c.left) * k),
      Math.round((r.top - c.top) * k),
      Math.round(r.width * k),
      Math.round(r.height * k),
    ).data;
    let ink = 0;
    let colour = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue;
      ink++;
      colour += data[i]! + data[i + 1]! + data[i + 2]!;
    }
    return { ink, colour };
  });
}

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
  // Main shows the deposit's token, spender and chain first; the user says yes.
  await userAnswers().dialogs({ kind: 'confirm', yes: true });
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

test('markets, ladder and order entry by ticket and hotkey; cancel all', async ({ app, core, problems }) => {
  await start(app);
  await deposit(app, '100');
  const markets = await invokeInPage(app, 'markets.list');
  expect(markets.error).toBeUndefined();

  await open(app, 'Markets', 'Markets');
  await expect(app.getByTestId('markets-table').locator('tbody tr[data-asset]').first()).toBeVisible();
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-markets.png') });

  // Confirmations off and hotkeys on, through the settings screen.
  await open(app, 'Settings', 'Settings');
  // Turning confirmations off is confirmed in main's dialog: the user says yes.
  await core.dialogs({ kind: 'confirm', yes: true });
  await app.getByLabel('Confirm orders before sending').uncheck();
  await app.getByLabel('Enable trading hotkeys').check();

  await open(app, 'Trade', 'Trade');
  const ladder = app.getByTestId('ladder');
  // As many rows as the ladder's box holds at 1360×860 (an odd number: the spread in the middle).
  await expect
    .poll(async () => {
      const rows = await ladder.locator('[data-price]').count();
      return rows >= 15 && rows % 2 === 1;
    })
    .toBe(true);
  await expect(app.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });

  await waitForFreshEpoch(app, 25_000);
  // By ticket: a resting buy shows in open orders and as our own size on the ladder.
  const ticket = app.getByTestId('ticket');
  await ticket.getByRole('radio', { name: /Buy Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill('41.5');
  await ticket.getByLabel('Size', { exact: true }).fill('2');
  await expect(ticket.getByTestId('quote-cost')).toHaveText('$0.83');
  await ticket.getByTestId('place-order').click();
  await expect(app.getByTestId('toast').filter({ hasText: /resting/ })).toBeVisible();
  await expect(app.getByTestId('open-orders')).toContainText('41.5¢');
  await ladder.getByRole('button', { name: 'Centre' }).click();
  await expect(ladder.locator('[data-price="415000"] .own').first()).toContainText('● 2');

  // By hotkey: join the bid (our own 41.5¢), from outside any field.
  await ladder.getByRole('button', { name: 'Centre' }).focus();
  await app.keyboard.press('b');
  await expect(app.getByTestId('open-orders').locator('tbody tr')).toHaveCount(2);
  await expect(ladder.locator('[data-price="415000"] .own').first()).toContainText('● 4');
  // The size is in the cell's name for screen readers and painted on the canvas over the cell;
  // the ask cell of that row (nothing offered at or below our bid) stays blank.
  const bidCell = ladder.locator('[data-price="415000"] .cell.bid');
  await expect(bidCell).toHaveAttribute('aria-label', 'Buy Up at 41.5¢, 4 bid');
  await expect.poll(async () => (await inkUnder(bidCell)).ink).toBeGreaterThan(10);
  expect((await inkUnder(ladder.locator('[data-price="415000"] .cell.ask'))).ink).toBe(0);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-trade.png') });
  // Another theme repaints the canvas in that theme's colours.
  const dark = await inkUnder(bidCell);
  await app.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(app.locator('html')).toHaveClass(/theme-light/);
  await expect.poll(async () => (await inkUnder(bidCell)).colour).not.toBe(dark.colour);
  expect((await inkUnder(bidCell)).ink).toBeGreaterThan(10);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-live-trade-light.png') });
  await app.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(app.locator('html')).not.toHaveClass(/theme-light/);

  // From the keyboard alone: Tab lands on the best bid (the ladder is one tab stop), arrows move
  // the cursor without reaching the price-tick hotkeys, Enter fills the ticket like a click.
  await ladder.getByRole('button', { name: 'Centre' }).focus();
  await app.keyboard.press('Tab');
  await expect(bidCell).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('ArrowRight');
  const askCell = ladder.locator('[data-price="417000"] .cell.ask');
  await expect(askCell).toBeFocused();
  await expect(ladder.locator('.cell[tabindex="0"]')).toHaveCount(1);
  await app.keyboard.press('Enter');
  await expect(ticket.getByRole('radio', { name: /Sell Up/ })).toBeChecked();
  await expect(ticket.getByLabel('Price (¢)')).toHaveValue('41.7');
  await expect(app.getByTestId('open-orders').locator('tbody tr')).toHaveCount(2); // nothing was sent

  // Cancel all in this market with its hotkey.
  await app.keyboard.press('Escape');
  await expect(app.getByTestId('open-orders')).toContainText('No open orders.');
  // The empty book recentres the ladder (the pointer is elsewhere); no own size is left anywhere.
  await expect(ladder.locator('.own', { hasText: '●' })).toHaveCount(0);

  expect(await app.evaluate<string[]>('window.__cspViolations')).toEqual([]);
  expect(problems).toEqual([]);
});
