/**
 * The ticket's max slippage field shows the limit in force: a value main refuses (150, 2.55, 0, −2,
 * "abc") is put back to the one that still applies, with a sentence beside the field that names it
 * as the screen does ("Max slippage …"), never the settings path (maxSlippageCents). A good value
 * is taken and shown.
 */
import type { Page } from '@playwright/test';
import { expect, invokeInPage, test } from './harness/fixture';
import { noProblems, open, setPassword, shot } from './harness/flows';

test.use({ withDevnet: true });

const inForce = async (app: Page): Promise<string> =>
  ((await invokeInPage(app, 'settings.get')).value as { maxSlippageCents: string }).maxSlippageCents;

test('a refused max slippage shows the value in force and says why in words', async ({ app, problems }) => {
  await setPassword(app);
  await open(app, 'Trade', 'Trade');
  const field = app.getByTestId('max-slippage');
  const error = app.getByTestId('slippage-error');
  await expect(field).toHaveValue('5');

  for (const typed of ['150', '2.55', '0', '−2', 'abc']) {
    await field.fill(typed);
    await field.press('Enter');
    await expect(error).toBeVisible();
    await expect(field).toHaveValue('5');
    await expect(error).toContainText('Max slippage must');
    await expect(error).toContainText('5¢ stays in force.');
    await expect(error).not.toContainText('maxSlippageCents');
    expect(await inForce(app)).toBe('5');
    if (typed === '150') await shot(app, 'slippage-refused');
  }

  await field.fill('2.5');
  await field.press('Enter');
  await expect(error).toHaveCount(0);
  await expect(field).toHaveValue('2.5');
  expect(await inForce(app)).toBe('2.5');
  // The refusals were said beside the field; the notice strip was not needed for them.
  await noProblems(app, problems);
});
