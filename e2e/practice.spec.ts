/**
 * Practice on the installed app's first day, on the shipped preload and the real core with the built
 * practice worker (out/main/practice-worker.js, no devnet anywhere): first run → "Practice with $1,000
 * of play money" → Add $1,000 → buy with a hotkey (a bot fills it) → close → in a 1-minute market,
 * buy the side the oracle favours just before the end, wait for the resolution and claim. Every
 * screenshot carries the PRACTICE badge and practice's accent; each is saved at 1360×860 and at
 * 1920×1080 under test-results/screens/practice-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, invokeInPage, test } from './harness/fixture';
import {
  freshEpoch,
  noProblems,
  open,
  ordersUnconfirmed,
  resolutionOf,
  setPassword,
  shot,
  type MarketRow,
} from './harness/flows';

test.use({ firstRun: true, practice: true });
test.setTimeout(600_000);

const btc1m = (m: MarketRow): boolean => m.symbol === 'BTC' && m.timeframe === '1m';

/** Saves the page at 1360×860 and at 1920×1080, each with the PRACTICE badge on it. */
async function shots(page: Page, name: string): Promise<void> {
  await expect(page.getByTestId('practice-badge')).toBeVisible();
  await shot(page, `${name}-1360`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect(page.getByTestId('practice-badge')).toBeVisible();
  await shot(page, `${name}-1920`);
  await page.setViewportSize({ width: 1360, height: 860 });
}

/** Opens Trade on a market and waits for its live book. */
async function trade(page: Page, market: MarketRow): Promise<void> {
  await open(page, 'Trade', 'Trade');
  await page.locator(`tr[data-asset="${market.assetId}"] button.pick`).click();
  await expect(page.locator(`tr[data-asset="${market.assetId}"]`)).toHaveClass(/selected/);
  await expect(page.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });
}

/** A hotkey pressed outside any field (the ladder's Centre button has the focus), as a trader does. */
async function hotkey(page: Page, key: string): Promise<void> {
  await page.getByTestId('ladder').getByRole('button', { name: 'Centre' }).focus();
  await page.keyboard.press(key);
}

/**
 * One press of the buy (Shift+B) or sell (Shift+S) hotkey at the best price: true once it filled,
 * false when the answer was "Nothing filled" or nothing was seen in 15 s (the bots requote several
 * times a second, so an IOC at the price just shown can find it gone; near an epoch's end the quotes
 * go). A core failure is thrown: the test must show it.
 */
async function takeOnce(page: Page, side: 'buy' | 'sell', epoch: string): Promise<boolean> {
  const strip = page.getByTestId('notice-strip');
  const filled = `#${epoch}: ${side === 'buy' ? 'Bought' : 'Sold'}`;
  // The fills tab counts every fill, so a fill notice pushed off the strip by a roll's notices is not missed.
  const fills = async (): Promise<number> =>
    Number(/Fills\s*(\d+)/.exec((await page.getByRole('tab', { name: /Fills/ }).textContent()) ?? '')?.[1] ?? 0);
  const before = await fills();
  await hotkey(page, side === 'buy' ? 'Shift+B' : 'Shift+S');
  const taken = await expect
    .poll(
      async () => {
        const text = (await strip.textContent()) ?? '';
        if (text.includes(filled) || (await fills()) > before) return 'filled';
        return text.includes('Nothing filled') ? 'missed' : 'waiting';
      },
      { timeout: 15_000 },
    )
    .not.toBe('waiting')
    .then(
      async () => (await fills()) > before || ((await strip.textContent()) ?? '').includes(filled),
      // Neither answer seen on the strip (a roll's notices can push it off).
      async () => {
        const text = (await strip.textContent()) ?? '';
        if (text.includes('failed while doing this')) throw new Error(`the ${side} hotkey failed: ${text}`);
        return false;
      },
    );
  if (!taken) {
    const dismiss = strip.getByRole('button', { name: 'Dismiss notice' });
    if (await dismiss.isVisible()) await dismiss.click();
  }
  return taken;
}

/** Presses the hotkey until it fills, as a trader does; six misses in a row fail the test. */
async function takeWithHotkey(page: Page, side: 'buy' | 'sell', epoch: string): Promise<void> {
  for (let attempt = 0; attempt < 6; attempt++) if (await takeOnce(page, side, epoch)) return;
  throw new Error(`the ${side} hotkey found nothing to fill six times in a row`);
}

test('practice: first run, play money, buy with a hotkey, close, claim after the resolution', async ({
  app,
  core,
  problems,
}) => {
  await setPassword(app);
  const firstRun = app.getByTestId('first-run');
  await expect(firstRun.getByTestId('practice-offer')).toBeVisible();
  await expect(app.getByTestId('practice-badge')).toHaveCount(0);
  // Before practice: the offer beside connecting to an exchange (no badge yet: nothing is practice).
  await shot(app, 'practice-0-first-run-offer');

  // One click: no dialog (nothing real is left), a live exchange on this computer.
  const shownBefore = (await core.dialogs()).shown.length;
  await firstRun.getByTestId('practice-start').click();
  await expect(app.getByTestId('practice-badge')).toHaveText('PRACTICE');
  await expect(app.locator('html')).toHaveClass(/practice/);
  expect((await core.dialogs()).shown.length).toBe(shownBefore);
  await expect(app.getByTestId('deployment')).toHaveText('Practice');
  await expect(app.getByTestId('markets-table').locator('tbody tr[data-asset]').first()).toBeVisible({
    timeout: 15_000,
  });
  await shots(app, 'practice-1-markets');

  // Funds: play money instead of deposits; the account began with $1,000 and Add gives $1,000 more.
  await open(app, 'Funds', 'Funds');
  const funds = app.getByTestId('practice-funds');
  await expect(funds).toBeVisible();
  await expect(app.getByTestId('balance').locator('dd').first()).toHaveText('$1,000.00');
  await funds.getByTestId('practice-add').click();
  await expect(app.getByTestId('balance').locator('dd').first()).toHaveText('$2,000.00');
  await expect(app.getByTestId('notice-strip')).toContainText('$1,000.00 of play money added.');
  await expect(app.getByTestId('notice-strip').getByTestId('notice-practice')).toHaveText('Practice');
  await shots(app, 'practice-2-funds');

  // Confirmations off (main's dialog says Practice), hotkeys on.
  await ordersUnconfirmed(app);
  const dialogs = (await core.dialogs()).shown.filter((d) => d.kind === 'confirm');
  expect(dialogs.at(-1)?.kind === 'confirm' && dialogs.at(-1)?.request.title).toMatch(/^Practice · /);
  await app.getByLabel('Enable trading hotkeys').check();

  // Buy with a hotkey in the 1-minute market: Shift+B buys at the best ask, which a bot quotes.
  const market = await freshEpoch(app, btc1m, 25_000);
  await trade(app, market);
  // The empty state says what to try.
  await app.getByRole('tab', { name: /Positions/ }).click();
  await expect(app.getByTestId('positions')).toContainText('No position yet. Try it: Shift+B');
  await takeWithHotkey(app, 'buy', market.epoch);
  await app.getByRole('tab', { name: /Positions/ }).click();
  const row = app.getByTestId('positions').locator('tbody tr', { hasText: `#${market.epoch}` });
  await expect(row).toBeVisible();
  await shots(app, 'practice-3-bought');

  // Close: reduce-only, limited to the live book ± the maximum slippage.
  await row.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByTestId('notice-strip')).toContainText(`Closed BTC 1m #${market.epoch}`, { timeout: 15_000 });
  await shots(app, 'practice-4-closed');

  // Claim after the resolution: just before an epoch ends, buy the side the oracle favours; the
  // oracle decides, so a losing epoch (nothing to claim), or a press that found no quotes left, is
  // followed by another try.
  let claimed = false;
  for (let attempt = 0; attempt < 5 && !claimed; attempt++) {
    const epoch = await freshEpoch(app, btc1m, 15_000);
    await expect
      .poll(async () => (await marketsOf(app)).find((m) => m.assetId === epoch.assetId)!.expiration - Date.now(), {
        timeout: 60_000,
        intervals: [250],
      })
      .toBeLessThan(9_000);
    const now = (await marketsOf(app)).find((m) => m.assetId === epoch.assetId)!;
    const upFavoured = BigInt(now.oraclePrice ?? '0') >= BigInt(now.strike);
    await trade(app, epoch);
    // Seconds before the end: a slow machine can reach it with the quotes gone. Then the next epoch.
    if (!(await takeOnce(app, upFavoured ? 'buy' : 'sell', epoch.epoch))) continue;
    const won = await resolutionOf(app, epoch, 90_000);
    if (won !== upFavoured) continue;
    await app.getByRole('tab', { name: /Positions/ }).click();
    const held = app.getByTestId('positions').locator('tbody tr', { hasText: `#${epoch.epoch}` });
    const claim = held.getByRole('button', { name: 'Claim' });
    await expect(claim).toBeVisible({ timeout: 30_000 });
    await claim.click();
    await expect(app.getByTestId('notice-strip')).toContainText(`Claimed`, { timeout: 15_000 });
    await shots(app, 'practice-5-claimed');
    claimed = true;
  }
  expect(claimed).toBe(true);
  await noProblems(app, problems);
});

async function marketsOf(page: Page): Promise<(MarketRow & { oraclePrice: string | null; strike: string })[]> {
  const r = await invokeInPage(page, 'markets.list');
  expect(r.error).toBeUndefined();
  return r.value as (MarketRow & { oraclePrice: string | null; strike: string })[];
}
