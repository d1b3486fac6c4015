/**
 * Offline mode in the window: a core started with --offline (a devnet runs and is selected, so a
 * connection would succeed) shows "Offline mode" in the status bar, a calm explanation on every
 * screen that needs the exchange, keeps Keys working, and its setting cannot be turned off here.
 */
import { expect, invokeInPage, test } from './harness/fixture';
import { noProblems, open, setPassword, shot } from './harness/flows';

test.use({ withDevnet: true, startedOffline: true });
test.setTimeout(120_000);

test('offline mode: status bar, network screens, keys and settings', async ({ app, problems }) => {
  await setPassword(app);
  const status = app.getByTestId('status-bar');
  await expect(status.getByTestId('offline-mode')).toHaveText('Offline mode (--offline) · no network');
  // No feed is reported: nothing was opened.
  await expect(status.locator('.feed')).toHaveCount(0);

  for (const [label, title] of [
    ['Markets', 'Markets'],
    ['Trade', 'Trade'],
    ['Orders', 'Orders'],
    ['Agents', 'Agents'],
    ['Funds', 'Funds'],
  ] as const) {
    await open(app, label, title);
    const notice = app.getByTestId('offline-notice');
    await expect(notice).toContainText('Offline mode is on');
    await expect(notice).toContainText(`${title} needs the exchange`);
    await expect(notice).toContainText('--offline');
  }
  await open(app, 'Trade', 'Trade');
  await shot(app, 'offline-mode-trade');

  // Keys still work: create one, and it is listed.
  await open(app, 'Keys', 'Keys');
  const created = (await invokeInPage(app, 'keys.create', { label: 'Cold key' })) as { ok: boolean };
  expect(created.ok).toBe(true);
  await expect(app.locator('main').getByText('Cold key', { exact: true })).toBeVisible();

  // The network refuses with a sentence, and the setting cannot be turned off from the window.
  const markets = (await invokeInPage(app, 'markets.list')) as { ok: boolean; error?: { message: string } };
  expect(markets.ok).toBe(false);
  expect(markets.error?.message).toMatch(/^Offline mode is on: /);
  await open(app, 'Settings', 'Settings');
  const setting = app.getByTestId('offline-mode-setting');
  await expect(setting.getByRole('checkbox')).toBeChecked();
  await expect(setting.getByRole('checkbox')).toBeDisabled();
  await expect(setting).toContainText('started with --offline');
  await setting.scrollIntoViewIfNeeded();
  await shot(app, 'offline-mode-settings');
  await noProblems(app, problems);
});
