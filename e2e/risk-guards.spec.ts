/**
 * The window side of main's risk guards (issue 19), against the real core and a devnet: the limits
 * panel on Settings (a field error in words, a stricter limit saved at once, a looser one waiting for
 * main's dialog and kept as it was when the user says no there), a price-band refusal shown in full
 * in the ticket with the user's input kept, main's order dialog naming the account, and a losing
 * round trip that spends today's loss budget once the limit is lowered to its minimum: the banner,
 * the meter, and a risk-adding order refused. Screenshots at 1360×860 and 1920×1080 in
 * test-results/screens/risk-*.png; main's dialogs drawn as the user reads them.
 */
import type { Locator, Page } from '@playwright/test';
import type { DialogRecord } from '../test/support/scripted-dialogs';
import { dialogShot } from './harness/dialog-shot';
import { expect, invokeInPage, test, type Harness } from './harness/fixture';
import {
  counterparty,
  fairOf,
  freshFundedMaster,
  noProblems,
  open,
  ordersUnconfirmed,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
} from './harness/flows';

// Exact money: a book no other spec has left orders in.
test.use({ withDevnet: true, devnetOptions: { ownBook: 'risk-guards' } });
test.setTimeout(300_000);

const SIZES = [
  { width: 1360, height: 860 },
  { width: 1920, height: 1080 },
] as const;

/** The parts of a DOM element the clipping check reads (e2e is compiled without the DOM types). */
interface Box {
  offsetParent: unknown;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  tagName: string;
  className: string;
  textContent: string | null;
  value?: string;
  querySelectorAll(selector: string): Iterable<Box>;
}

/** Nothing under the element is cut off: no text or field content hidden by a box too small for it. */
async function notClipped(locator: Locator, what: string): Promise<void> {
  const clipped = await locator.evaluate((root: Box) => {
    const style = (el: Box): { overflowX: string; overflowY: string } =>
      (
        globalThis as unknown as { getComputedStyle(el: Box): { overflowX: string; overflowY: string } }
      ).getComputedStyle(el);
    return [root, ...root.querySelectorAll('*')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => {
        const s = style(el);
        const clips = el.tagName === 'INPUT' || [s.overflowX, s.overflowY].some((o) => o === 'hidden' || o === 'clip');
        return clips && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.value ?? el.textContent ?? '').slice(0, 60)}`);
  });
  expect(clipped, `${what}: clipped elements`).toEqual([]);
}

/** Saves one screenshot per window size, with `each` run at each size first. */
async function shotAtSizes(page: Page, name: string, each?: () => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await each?.();
    await shot(page, `${name}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0]);
}

/** Runs `fn` in the light theme (the toggle in the top bar), then back to dark. */
async function inLightTheme(page: Page, fn: () => Promise<unknown>): Promise<void> {
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await fn();
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
}

async function newDialogs(core: Harness, seen: number): Promise<DialogRecord[]> {
  return (await core.dialogPolicy({})).shown.slice(seen);
}

/** A price on the 1¢ grid `offset` cents from `fair`, kept inside 1–99¢ (micro-dollars). */
function centsFrom(fair: bigint, offsetCents: bigint): bigint {
  const grid = ((fair + 5_000n) / 10_000n) * 10_000n + offsetCents * 10_000n;
  return grid < 10_000n ? 10_000n : grid > 990_000n ? 990_000n : grid;
}
const asCents = (price: bigint): string => (price / 10_000n).toString();

test('the limits panel: each limit with its unit and why; stricter at once, looser only through main’s dialog', async ({
  app,
  core,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 1000n, 'Risk trader');
  await open(app, 'Settings', 'Settings');
  const panel = app.getByTestId('risk-limits');
  await panel.scrollIntoViewIfNeeded();

  await test.step('every limit is shown with its value, unit and why, and today’s budget with a bar', async () => {
    await expect(panel.locator('li')).toHaveCount(7);
    await expect(panel.getByLabel('Price band around fair value')).toHaveValue('15');
    await expect(panel.getByTestId('risk-limit-priceBandCents')).toContainText('¢ either side');
    await expect(panel.getByLabel('Largest order cost')).toHaveValue('500');
    await expect(panel.getByLabel('Largest position per market')).toHaveValue('2000');
    await expect(panel.getByLabel('Most open orders')).toHaveValue('50');
    await expect(panel.getByLabel('Most orders per minute')).toHaveValue('120');
    await expect(panel.getByLabel('Daily loss limit', { exact: true })).toHaveValue('10');
    await expect(panel.getByTestId('risk-limit-dailyLossPercent')).toContainText('% of the day’s starting equity');
    await expect(panel.getByLabel('Daily loss limit, fixed amount')).toHaveValue('');
    await expect(panel.getByTestId('risk-limit-dailyLossAmount')).toContainText('empty: the percentage above applies');
    await expect(panel.getByTestId('loss-budget-full')).toContainText('$0.00 of $100.00 used today');
    await expect(panel.getByRole('meter', { name: 'Today’s loss budget used' })).toHaveAttribute('aria-valuenow', '0');
  });

  const band = panel.getByLabel('Price band around fair value');
  const bandRow = panel.getByTestId('risk-limit-priceBandCents');
  const seen = (await core.dialogPolicy({})).shown.length;

  await test.step('a field error is a sentence, and nothing reaches main', async () => {
    await band.fill('fifteen');
    await band.press('Enter');
    await expect(bandRow.getByRole('alert')).toHaveText('Type the band in cents, such as 15 or 2.5.');
    await band.fill('120');
    await bandRow.getByRole('button', { name: 'Save' }).click();
    await expect(bandRow.getByRole('alert')).toHaveText('The band must be between 0.1¢ and 99.9¢.');
    await expect(band).toHaveValue('120');
    expect(await newDialogs(core, seen)).toEqual([]);
    for (const size of SIZES) {
      await app.setViewportSize(size);
      await notClipped(panel, `limits panel with a field error at ${size.width}×${size.height}`);
      await panel.screenshot({ path: `test-results/screens/risk-limits-field-error-${size.width}x${size.height}.png` });
    }
    await app.setViewportSize(SIZES[0]);
  });

  await test.step('a stricter limit is saved at once, with no dialog', async () => {
    await band.fill('10');
    await band.press('Enter');
    await expect(bandRow.getByRole('status')).toHaveText('Tightened: 10¢ is in force now.');
    expect(await newDialogs(core, seen)).toEqual([]);
    const status = (await invokeInPage(app, 'risk.status')).value as { limits: { priceBandCents: string } };
    expect(status.limits.priceBandCents).toBe('10');
  });

  await test.step('a looser limit waits for main’s dialog; a no there keeps the value in force', async () => {
    await core.dialogPolicy({ unscripted: 'never' });
    await band.fill('20');
    await band.press('Enter');
    await expect(bandRow.getByRole('status')).toHaveText('Waiting for your answer in the app’s dialog…');
    await expect.poll(async () => (await core.dialogPolicy({})).waiting).toBe(1);
    // Another limit cannot be sent meanwhile (main would refuse it as changed while its dialog was open).
    await panel.getByLabel('Most open orders').fill('40');
    await expect(panel.getByTestId('risk-limit-maxOpenOrders').getByRole('button', { name: 'Save' })).toBeDisabled();
    await shotAtSizes(app, 'risk-limits-waiting', () => panel.scrollIntoViewIfNeeded());
    const [dialog] = await newDialogs(core, seen);
    expect(dialog).toMatchObject({ kind: 'confirm', request: { title: 'Loosen risk limits' } });
    expect(dialog?.kind === 'confirm' && dialog.request.detail).toContain(
      'Price band around fair value: from 10¢ either side of fair value to 20¢ either side of fair value.',
    );
    await dialogShot(app, dialog!, 'risk-dialog-loosen-limits');

    await core.dialogPolicy({ release: true, unscripted: 'fail' });
    await expect(bandRow.getByRole('status')).toHaveText(
      'Not changed: 10¢ stays in force, as you answered in the app’s dialog.',
    );
    await expect(band).toHaveValue('10');
    await panel.getByLabel('Most open orders').fill('50');
    await shotAtSizes(app, 'risk-limits-declined', () => panel.scrollIntoViewIfNeeded());
    await inLightTheme(app, () => panel.screenshot({ path: 'test-results/screens/risk-limits-declined-light.png' }));
    for (const size of SIZES) {
      await app.setViewportSize(size);
      await notClipped(panel, `limits panel at ${size.width}×${size.height}`);
    }
    await app.setViewportSize(SIZES[0]);
  });

  await test.step('a yes in main’s dialog loosens it', async () => {
    await core.dialogs({ kind: 'confirm', yes: true });
    await band.fill('15');
    await band.press('Enter');
    await expect(bandRow.getByRole('status')).toHaveText('Loosened: 15¢ is in force now.');
    await expect(band).toHaveValue('15');
  });
  await noProblems(app, problems);
});

test('refusals in the ticket, main’s order dialog naming the account, and a spent loss budget', async ({
  app,
  core,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  const address = await freshFundedMaster(app, net, 1000n, 'Risk trader');
  const market = await tradeOn(app, undefined, 100_000);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const ticket = app.getByTestId('ticket');
  const refusal = ticket.getByTestId('order-refusal');

  let fair = 0n;
  await test.step('the market has a fair value (needs MarketBoard.fairValue, the fair-value branch)', async () => {
    await expect
      .poll(async () => (await fairOf(app, market)) !== null, { timeout: 60_000, message: 'fair value known' })
      .toBe(true);
    fair = (await fairOf(app, market))!;
  });

  await test.step('a band refusal: shown in full in the ticket, the input kept, a link to the limits', async () => {
    // 30¢ off fair: outside the 15¢ band whichever way the oracle moves meanwhile.
    const buy = fair < 600_000n;
    const price = asCents(centsFrom(fair, buy ? 30n : -30n));
    const seen = (await core.dialogPolicy({})).shown.length;
    // Breaking a limit is main's one-off override dialog; the user says no, so it is refused.
    await core.dialogs({ kind: 'confirm', yes: false });
    await placeFromTicket(app, buy ? 'buy' : 'sell', price, '10');
    await expect(refusal).toHaveText(
      new RegExp(
        `^Refused: ${price}¢ is [\\d.]+¢ ${buy ? 'above' : 'below'} fair value [\\d.]+¢; your band is 15¢\\.\\s*Risk limits in Settings$`,
      ),
    );
    await expect(ticket.getByLabel('Price (¢)')).toHaveValue(price);
    await expect(ticket.getByLabel('Size', { exact: true })).toHaveValue('10');
    const [override] = await newDialogs(core, seen);
    expect(override?.kind === 'confirm' && override.request.detail).toMatch(/This order breaks your risk limits/);
    await dialogShot(app, override!, 'risk-dialog-band-override');
    for (const size of SIZES) {
      await app.setViewportSize(size);
      await notClipped(refusal, `band refusal at ${size.width}×${size.height}`);
      await expect(ticket.getByTestId('place-order')).toBeInViewport();
    }
    await shotAtSizes(app, 'risk-band-refusal');
    await ticket.screenshot({ path: 'test-results/screens/risk-band-refusal-ticket.png' });
    await refusal.getByRole('button', { name: 'Risk limits in Settings' }).click();
    await expect(app.getByRole('heading', { level: 1 })).toHaveText('Settings');
    await expect(app.getByTestId('risk-limits')).toBeInViewport();
  });

  await test.step('with confirmation on, main’s order dialog names the account', async () => {
    await app.getByLabel('Confirm orders before sending').check();
    await expect(app.getByLabel('Confirm orders before sending')).toBeChecked();
    await open(app, 'Trade', 'Trade');
    const price = asCents(centsFrom(fair, -5n));
    const seen = (await core.dialogPolicy({})).shown.length;
    await core.dialogs({ kind: 'confirm', yes: false });
    await placeFromTicket(app, 'buy', price, '1');
    await expect(refusal).toHaveText('The order was not confirmed, so nothing was sent.');
    await expect(refusal.getByRole('button')).toHaveCount(0);
    const [dialog] = await newDialogs(core, seen);
    if (dialog?.kind !== 'confirm') throw new Error('main showed no order dialog');
    expect(dialog.request.title).toBe('Place order');
    expect(dialog.request.detail).toContain('Account: “Risk trader” (your label), master key ');
    expect(dialog.request.detail.toLowerCase()).toContain(address.toLowerCase());
    expect(dialog.request.detail).toMatch(/Market: “BTC 5m/);
    expect(dialog.request.detail).toMatch(new RegExp(`Order: Buy 1 Up at ${price}¢, GTC`));
    await dialogShot(app, dialog, 'risk-dialog-order-names-account');
  });

  await test.step('a losing round trip, then the daily limit at its minimum: the budget is spent', async () => {
    await ordersUnconfirmed(app);
    await open(app, 'Trade', 'Trade');
    const other = await counterparty(net, 1000n);
    // Buy 100 at 8¢ over fair and sell them back at 8¢ under: $16.00 lost, all of it realised.
    const mid = centsFrom((await fairOf(app, market)) ?? fair, 0n);
    const ask = mid + 80_000n;
    const bid = mid - 80_000n;
    await other.client.placeOrder({ ...ref, side: 'sell', price: ask, size: '100', timeInForce: 'GTC' });
    await placeFromTicket(app, 'buy', asCents(ask), '100', 'IOC');
    await app.getByRole('tab', { name: /Positions/ }).click();
    const position = app.getByTestId('positions').locator('tbody tr').first();
    await expect(position).toContainText('100 contracts');
    await other.client.placeOrder({ ...ref, side: 'buy', price: bid, size: '100', timeInForce: 'GTC' });
    await placeFromTicket(app, 'sell', asCents(bid), '100', 'IOC');
    await expect(position).toContainText('Closed');
    await expect(app.getByTestId('loss-budget')).toContainText('$16.00 of $100.00');
    await expect(app.getByTestId('budget-spent')).toHaveCount(0);

    await open(app, 'Settings', 'Settings');
    const panel = app.getByTestId('risk-limits');
    const daily = panel.getByLabel('Daily loss limit', { exact: true });
    await daily.fill('0.1');
    await daily.press('Enter');
    await expect(panel.getByTestId('risk-limit-dailyLossPercent').getByRole('status')).toHaveText(
      'Tightened: 0.1% is in force now.',
    );
    await expect(panel.getByTestId('loss-budget-full')).toContainText('$16.00 of $1.00 used today');
    await expect(panel.getByTestId('loss-budget-full')).toContainText('Spent: only orders that reduce a position go');
    await shotAtSizes(app, 'risk-limits-spent', () => panel.scrollIntoViewIfNeeded());
  });

  await test.step('the banner on Trade; an order that adds risk is refused, in full, with a link', async () => {
    await open(app, 'Trade', 'Trade');
    const banner = app.getByTestId('budget-spent');
    await expect(banner).toHaveText(
      /Today’s loss limit is reached \(\$16\.00 of \$1\.00 used today\): only orders that reduce a position go until 00:00 UTC, or raise the limit in Settings\./,
    );
    await expect(app.getByTestId('loss-budget')).toContainText('$16.00 of $1.00');
    const seen = (await core.dialogPolicy({})).shown.length;
    await core.dialogs({ kind: 'confirm', yes: false });
    await placeFromTicket(app, 'buy', asCents(centsFrom((await fairOf(app, market)) ?? fair, -2n)), '5', 'GTC');
    await expect(refusal).toHaveText(
      /^Refused: today's loss of \$16\.00 has reached your daily limit of \$1\.00\. Orders that reduce a position at or better than fair value still go if they fill at once \(IOC\), not resting\.\s*Risk limits in Settings$/,
    );
    expect((await newDialogs(core, seen)).length).toBe(1);
    for (const size of SIZES) {
      await app.setViewportSize(size);
      await notClipped(banner, `banner at ${size.width}×${size.height}`);
      await notClipped(refusal, `loss refusal at ${size.width}×${size.height}`);
      await notClipped(app.getByTestId('balance'), `account summary at ${size.width}×${size.height}`);
      await expect(ticket.getByTestId('place-order')).toBeInViewport();
      // The banner takes its room from the tables: the whole trading loop still fits the window.
      await expect(app.getByTestId('account-tabs')).toBeInViewport({ ratio: 1 });
    }
    await shotAtSizes(app, 'risk-budget-spent');
    await inLightTheme(app, () => shot(app, 'risk-budget-spent-light-1360x860'));
    await banner.getByRole('button', { name: 'Risk limits…' }).click();
    await expect(app.getByTestId('risk-limits')).toBeInViewport();
  });
  await noProblems(app, problems);
});
