/**
 * The fair value where a trader decides, on a devnet with a liquidity bot: the sentence while the
 * oracle has sent too little, then the ladder's mark, the Fair and Edge columns, the ticket's
 * distance from fair and the contract chart's fair line. Screenshots: test-results/screens/fair-*.png.
 */
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SCREENS_DIR, test } from './harness/fixture';
import { freshFundedMaster, noProblems, open, setPassword, tradeOn } from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { bots: 1 } });
test.setTimeout(180_000);

/** The DOM surface the pixel probes use (the e2e tsconfig has no DOM library). */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface ProbeCanvas {
  width: number;
  height: number;
  getBoundingClientRect(): Box;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}
interface ProbeElement {
  getBoundingClientRect(): Box;
  closest(selector: string): { querySelector(selector: string): ProbeCanvas | null } | null;
  querySelectorAll(selector: string): ArrayLike<ProbeCanvas>;
}

/** The theme's fair colour as [r, g, b]. */
async function fairColour(page: Page): Promise<[number, number, number]> {
  const hex = await page.evaluate<string>(
    "getComputedStyle(document.documentElement).getPropertyValue('--fair').trim()",
  );
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Pixels of the ladder's canvas over the left quarter of `cell` drawn in `rgb` (±40 per channel). */
async function markPixels(cell: Locator, rgb: [number, number, number]): Promise<number> {
  return cell.evaluate((node, colour) => {
    const el = node as unknown as ProbeElement;
    const canvas = el.closest('[role="grid"]')?.querySelector('canvas');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return -1;
    const c = canvas.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const k = canvas.width / c.width;
    const data = ctx.getImageData(
      Math.round((r.left - c.left) * k),
      Math.round((r.top - c.top) * k),
      Math.max(1, Math.round((r.width / 4) * k)),
      Math.round(r.height * k),
    ).data;
    let hits = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near = [0, 1, 2].every((j) => Math.abs(data[i + j]! - colour[j]!) <= 40);
      if (data[i + 3]! > 128 && near) hits++;
    }
    return hits;
  }, rgb);
}

/** Pixels in `rgb` (±40) across every canvas of the chart (lightweight-charts draws on several). */
async function chartPixels(chart: Locator, rgb: [number, number, number]): Promise<number> {
  return chart.evaluate((node, colour) => {
    const el = node as unknown as ProbeElement;
    let hits = 0;
    for (const canvas of Array.from(el.querySelectorAll('canvas'))) {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        const near = [0, 1, 2].every((j) => Math.abs(data[i + j]! - colour[j]!) <= 40);
        if (data[i + 3]! > 128 && near) hits++;
      }
    }
    return hits;
  }, rgb);
}

const cents = (text: string): bigint => {
  const m = /(\d+)\.(\d)¢/.exec(text);
  if (!m) throw new Error(`no price in "${text}"`);
  return BigInt(m[1]!) * 10n + BigInt(m[2]!);
};

test('the fair value is on the ladder, in the market list, on the ticket and on the chart', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  const ticket = app.getByTestId('ticket');
  const ladder = app.getByTestId('ladder');

  // Straight after connecting, before the oracle has sent 30 s of prices, the ticket, the ladder and
  // the market list say why there is no fair value yet.
  await open(app, 'Trade', 'Trade');
  const early = ticket.getByTestId('ticket-fair');
  const why = /^No fair value yet: the oracle has sent \d+ prices? for BTC, 60 are needed\.$/;
  await expect(early).toHaveText(why);
  await expect(ladder.getByTestId('ladder-fair')).toHaveText('No fair value');
  await expect(ladder.getByTestId('ladder-fair')).toHaveAttribute('title', why);
  const firstFair = app.getByTestId('markets-table').getByTestId('market-fair').first();
  await expect(firstFair).toHaveText('—');
  await expect(firstFair).toHaveAttribute('title', why);
  await ticket.screenshot({ path: resolve(SCREENS_DIR, 'fair-ticket-unknown.png') });

  await freshFundedMaster(app, net, 200n);
  const market = await tradeOn(app);
  const row = app.locator(`tr[data-asset="${market.assetId}"]`);

  // Thirty seconds of oracle prices later: a value everywhere.
  await expect(row.getByTestId('market-fair')).toHaveText(/^\d+\.\d¢$/, { timeout: 90_000 });
  await expect(ladder.getByTestId('ladder-fair')).toHaveText(/^Fair \d+\.\d¢/);
  await expect(row.getByTestId('market-edge')).toHaveText(/^([+−]\d+\.\d¢|0\.0¢)$/, { timeout: 15_000 });

  // The ticket's line: the typed price's distance from the fair value it names, in its words.
  const fairNow = cents((await row.getByTestId('market-fair').textContent()) ?? '');
  const price = fairNow + 123n > 999n ? fairNow - 40n : fairNow + 123n;
  await ticket.getByRole('radio', { name: /Buy Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill(`${price / 10n}.${price % 10n}`);
  const line = ticket.getByTestId('ticket-fair');
  await expect(line).toHaveText(/^(\d+\.\d¢ (above|below) fair|at fair) · fair \d+\.\d¢$/);
  await expect
    .poll(async () => {
      // The fair value moves with the oracle: the line is checked against the fair value it shows.
      const text = (await line.textContent()) ?? '';
      const m = /^(?:(\d+\.\d)¢ (above|below) fair|at fair) · fair (\d+\.\d)¢$/.exec(text.trim());
      if (!m) return `unreadable: ${text}`;
      const fair = cents(`${m[3]}¢`);
      const gap = m[1] === undefined ? 0n : (m[2] === 'above' ? 1n : -1n) * cents(`${m[1]}¢`);
      return price - fair === gap ? 'consistent' : `${text} for a price of ${price}`;
    })
    .toBe('consistent');
  // Buying above fair is the costly side: the line is in the warning colour then.
  if ((await line.textContent())?.includes('above fair')) await expect(line).toHaveClass(/costly/);
  await ticket.screenshot({ path: resolve(SCREENS_DIR, 'fair-ticket.png') });

  // The ladder marks the fair value's row in the fair colour. Rows of 1¢ keep it in view however far
  // the book's mid (where the ladder centres) is from it; the row is the whole cent nearest to fair.
  const rgb = await fairColour(app);
  await ladder.screenshot({ path: resolve(SCREENS_DIR, 'fair-ladder-tenths.png') });
  await ladder.getByLabel('Ticks per row').selectOption('10');
  await expect
    .poll(
      async () => {
        const text = (await ladder.getByTestId('ladder-fair').textContent()) ?? '';
        if (/[↑↓]/.test(text)) return `off the rows shown: ${text}`;
        const fair = cents(text) * 1_000n;
        const rowPrice = ((fair + 5_000n) / 10_000n) * 10_000n;
        return markPixels(ladder.locator(`[data-price="${rowPrice}"] .p`), rgb);
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(4);
  await ladder.screenshot({ path: resolve(SCREENS_DIR, 'fair-ladder.png') });

  // The contract chart draws a fair line (dashed, in the fair colour) and says so in its title.
  const chart = app.getByTestId('contract-chart');
  await expect(app.getByRole('region', { name: 'Contract price chart' })).toContainText('mid, last, fair');
  // Generous: the line needs the chart's code loaded and a few fair values drawn, slow on a loaded machine.
  await expect.poll(() => chartPixels(chart, rgb), { timeout: 45_000 }).toBeGreaterThan(20);
  // And it follows the market: its time axis scrolls every second, so its picture changes (a chart
  // that stopped following, e.g. at the first fair value, stays the same to the byte).
  const still = await chart.screenshot();
  await expect.poll(async () => (await chart.screenshot()).equals(still), { timeout: 10_000 }).toBe(false);
  await app.getByRole('region', { name: 'Contract price chart' }).screenshot({
    path: resolve(SCREENS_DIR, 'fair-chart.png'),
  });
  await app.getByTestId('markets-table').screenshot({ path: resolve(SCREENS_DIR, 'fair-markets-compact.png') });
  await app.screenshot({ path: resolve(SCREENS_DIR, 'fair-trade-screen.png') });
  // The light theme has its own fair colour: the ladder repaints its mark in it.
  await app.getByRole('button', { name: 'Switch to light theme' }).click();
  // The theme comes back through main's settings: wait for it to apply.
  await expect.poll(() => fairColour(app)).not.toEqual(rgb);
  const light = await fairColour(app);
  await expect
    .poll(async () => {
      const text = (await ladder.getByTestId('ladder-fair').textContent()) ?? '';
      if (/[↑↓]/.test(text)) return `off the rows shown: ${text}`;
      const rowPrice = ((cents(text) * 1_000n + 5_000n) / 10_000n) * 10_000n;
      return markPixels(ladder.locator(`[data-price="${rowPrice}"] .p`), light);
    })
    .toBeGreaterThan(4);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'fair-trade-screen-light.png') });

  // The Markets screen: Fair and Edge for every market.
  await open(app, 'Markets', 'Markets');
  const table = app.getByTestId('markets-table');
  await expect(table.locator('th')).toContainText(['Fair', 'Edge']);
  await expect(table.getByTestId('market-fair').first()).toHaveText(/^\d+\.\d¢$/);
  await table.screenshot({ path: resolve(SCREENS_DIR, 'fair-markets.png') });

  await noProblems(app, problems);
});
