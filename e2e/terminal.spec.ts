/**
 * The trading terminal's screens end to end: the built renderer in Chromium under the
 * production CSP, `window.terminal` wired to the real app core by the harness. Every screen is
 * captured under test-results/screens/terminal-*.png.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, invokeInPage, SCREENS_DIR, test } from './harness/fixture';
import { setPassword } from './harness/flows';

const PASSWORD = 'terminal e2e password';
const SCREENS = [
  ['markets', 'Markets', 'Markets'],
  ['trade', 'Trade', 'Trade'],
  ['orders', 'Orders', 'Orders and positions'],
  ['agents', 'Agents', 'Agent wallets'],
  ['funds', 'Funds', 'Funds'],
  ['keys', 'Keys', 'Keys'],
  ['offline', 'Offline signing', 'Offline signing'],
  ['settings', 'Settings', 'Settings'],
] as const;

async function open(page: Page, label: string, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

async function setFirstPassword(page: Page): Promise<void> {
  await setPassword(page, PASSWORD, () =>
    page.screenshot({ path: resolve(SCREENS_DIR, 'terminal-first-password.png') }),
  );
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__cspViolations');
}

test('every screen renders against the real core', async ({ app, problems }) => {
  await setFirstPassword(app);
  for (const [id, label, title] of SCREENS) {
    await open(app, label, title);
    await app.screenshot({ path: resolve(SCREENS_DIR, `terminal-${id}.png`) });
  }
  // Light theme, on the busiest screen.
  await open(app, 'Trade', 'Trade');
  await app.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(app.locator('html')).toHaveClass(/theme-light/);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-trade-light.png') });
  expect(await violations(app)).toEqual([]);
  expect(problems).toEqual([]);
});

test('the trade layout is kept across restarts', async ({ app, core, problems }) => {
  await setFirstPassword(app);
  await open(app, 'Trade', 'Trade');
  await app.getByTestId('oracle-chart').scrollIntoViewIfNeeded();
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-trade-lower.png') });
  const splitter = app.getByRole('separator', { name: 'Markets column width' });
  await expect(splitter).toHaveAttribute('aria-valuenow', '320');
  await splitter.focus();
  await app.keyboard.press('ArrowRight');
  await app.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', '352');
  // The orders and positions panel's height: up makes it taller.
  const tables = app.getByRole('separator', { name: 'Orders and positions height' });
  await expect(tables).toHaveAttribute('aria-valuenow', '210');
  await tables.focus();
  await app.keyboard.press('ArrowUp');
  await expect(tables).toHaveAttribute('aria-valuenow', '226');
  await expect
    .poll(
      async () =>
        ((await invokeInPage(app, 'settings.get')).value as { layout: { panelSizes: Record<string, number> } }).layout
          .panelSizes,
    )
    .toEqual({ 'trade.markets': 352, 'trade.tables': 226 });

  await core.restartCore();
  await app.reload();
  await expect(app.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  const lock = app.getByTestId('lock-screen');
  await lock.getByLabel('App password').fill(PASSWORD);
  await lock.getByRole('button', { name: 'Unlock' }).click();
  await open(app, 'Trade', 'Trade');
  await expect(app.getByRole('separator', { name: 'Markets column width' })).toHaveAttribute('aria-valuenow', '352');
  await expect(app.getByRole('separator', { name: 'Orders and positions height' })).toHaveAttribute(
    'aria-valuenow',
    '226',
  );
  expect(await violations(app)).toEqual([]);
  expect(problems).toEqual([]);
});

test('settings: hotkeys are recorded, a refused change keeps the input and says why', async ({ app, problems }) => {
  await setFirstPassword(app);
  await open(app, 'Settings', 'Settings');
  const hotkeys = app.getByTestId('hotkeys');
  await hotkeys.getByLabel('Enable trading hotkeys').check();
  await hotkeys.getByRole('button', { name: /^Join the bid \(GTC, or ALO when the ticket is ALO\): B/ }).click();
  await expect(
    hotkeys.getByRole('button', { name: 'Join the bid (GTC, or ALO when the ticket is ALO): press the new keys' }),
  ).toHaveText('Press keys…');
  await app.keyboard.press('Shift+J');
  await expect(
    hotkeys.getByRole('button', { name: /^Join the bid \(GTC, or ALO when the ticket is ALO\): Shift\+J/ }),
  ).toHaveText('Shift+J');
  const saved = (await invokeInPage(app, 'settings.get')).value as {
    hotkeys: { enabled: boolean; bindings: Record<string, string> };
  };
  expect(saved.hotkeys.enabled).toBe(true);
  expect(saved.hotkeys.bindings['joinBid']).toBe('Shift+J');

  const preset = app.getByRole('textbox', { name: 'Size preset 1' });
  await preset.fill('0');
  await app.locator('form', { has: preset }).getByRole('button', { name: 'Save' }).click();
  await expect(app.getByTestId('toast').filter({ hasText: /greater than zero/ })).toBeVisible();
  await expect(preset).toHaveValue('0');
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-settings-refused.png') });
  expect(await violations(app)).toEqual([]);
  expect(problems).toEqual([]);
});

test('keys screen: set a password, create, rename and lock', async ({ app, problems }) => {
  await setFirstPassword(app);
  await open(app, 'Keys', 'Keys');

  const create = app.locator('section', { hasText: 'Create a key' });
  await create.getByLabel('Label').fill('Desk one');
  await create.getByRole('button', { name: 'Create key' }).click();
  const table = app.getByTestId('keys-table');
  await expect(table).toContainText('Desk one');

  await table.getByRole('button', { name: 'Rename' }).click();
  await table.getByLabel('New label').fill('Desk main');
  await table.getByRole('button', { name: 'Save' }).click();
  await expect(table).toContainText('Desk main');
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-keys-created.png') });

  // Lock from the top bar; the lock screen keeps a wrong password's sentence, then unlocks.
  await app.getByRole('button', { name: 'Lock now' }).first().click();
  const lock = app.getByTestId('lock-screen');
  await expect(lock).toBeVisible();
  await lock.getByLabel('App password').fill('not it');
  await lock.getByRole('button', { name: 'Unlock' }).click();
  await expect(lock.getByRole('alert')).toContainText(/password/i);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'terminal-locked.png') });
  await lock.getByLabel('App password').fill(PASSWORD);
  await lock.getByRole('button', { name: 'Unlock' }).click();
  await expect(lock).toHaveCount(0);

  expect(await violations(app)).toEqual([]);
  expect(problems).toEqual([]);
});
