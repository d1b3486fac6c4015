/**
 * The trading loop fits the screen: at 1360×860 and 1920×1080 the ladder, ticket, both charts and
 * the orders/positions tables are inside the viewport without scrolling; at 1280×720 nothing is
 * cut off; at 1024×700 nothing is off screen sideways. Both themes, a devnet with bots, one resting
 * order of our own so the tables have a row. At every size a level's size sits by its depth bar; at
 * 1920×1080 the ladder keeps a reading width and nothing is left empty under the ticket; its depth
 * columns keep room for their numbers at every size; from 1360
 * the account summary is one line. Screenshots: test-results/screens/layout-*.png.
 */
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SCREENS_DIR, test } from './harness/fixture';
import { freshFundedMaster, noProblems, placeFromTicket, setPassword, tradeOn } from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { bots: 2 } });
test.setTimeout(180_000);

interface Size {
  width: number;
  height: number;
  /** Every key element wholly inside the viewport (no vertical scrolling needed). */
  allVisible: boolean;
}
const SIZES: Size[] = [
  { width: 1024, height: 700, allVisible: false },
  { width: 1280, height: 720, allVisible: true },
  { width: 1360, height: 860, allVisible: true },
  { width: 1920, height: 1080, allVisible: true },
];

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  expect(b, 'element is laid out').not.toBeNull();
  return b!;
}

/** The element's box lies inside the viewport: sideways always, vertically when `vertical`. */
async function inside(page: Page, name: string, locator: Locator, vertical: boolean): Promise<void> {
  const v = page.viewportSize()!;
  const b = await box(locator);
  expect(b.x, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${name} ends inside the window (${v.width}×${v.height})`).toBeLessThanOrEqual(v.width + 0.5);
  if (vertical) {
    expect(b.y, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height, `${name} ends above the bottom (${v.width}×${v.height})`).toBeLessThanOrEqual(
      v.height + 0.5,
    );
  }
}

/**
 * A level's size sits by its depth bar: the size cells are narrow and touch the depth cells, where
 * the bars are anchored, so a wide window widens the bars, never the gap between a size and its bar.
 * At 1920 wide the ladder keeps a reading width and the column under the ticket is used, not empty.
 */
async function sizesByTheirBars(page: Page, size: Size): Promise<void> {
  const ladder = page.getByTestId('ladder');
  // One read of one row, found inside the same evaluation: rows are re-keyed as the book moves, so
  // a row a locator resolved can be detached (every box 0) by the time a later evaluation reads it.
  const [cumBid, bid, ask, cumAsk] = await ladder.evaluate((root) => {
    type Box = { x: number; width: number };
    type El = { querySelector(s: string): (El & { getBoundingClientRect(): Box }) | null };
    const row = (root as unknown as El).querySelector('[data-price]')!;
    return ['.cum.bid', '.cell.bid', '.cell.ask', '.cum.ask'].map((s) => {
      const r = row.querySelector(s)!.getBoundingClientRect();
      return { x: r.x, width: r.width };
    });
  });
  const at = `at ${size.width}×${size.height}`;
  expect(bid!.width, `bid sizes' column ${at}`).toBeLessThanOrEqual(72.5);
  expect(ask!.width, `ask sizes' column ${at}`).toBeLessThanOrEqual(72.5);
  // The depth columns keep room for a five-digit total at every size (at 1024 wide they were once
  // squeezed to a few pixels, cutting the numbers).
  expect(cumBid!.width, `bid depth column ${at}`).toBeGreaterThanOrEqual(40);
  expect(cumAsk!.width, `ask depth column ${at}`).toBeGreaterThanOrEqual(40);
  // Bid bars grow from the right edge of their cell, ask bars from the left edge of theirs: the size cells touch those edges.
  expect(Math.abs(bid!.x - (cumBid!.x + cumBid!.width)), `bid size beside its bar ${at}`).toBeLessThanOrEqual(1);
  expect(Math.abs(cumAsk!.x - (ask!.x + ask!.width)), `ask size beside its bar ${at}`).toBeLessThanOrEqual(1);
  if (size.width >= 1920) {
    expect((await box(ladder)).width, `ladder width ${at}`).toBeLessThanOrEqual(800);
    // What is under the ticket reaches the ladder's bottom: no empty column beside the ladder.
    const ladderBottom = (await box(ladder)).y + (await box(ladder)).height;
    const tape = await box(page.getByTestId('trades-tape'));
    expect(ladderBottom - (tape.y + tape.height), `room left under the ticket ${at}`).toBeLessThanOrEqual(12);
  }
}

test('the trading loop fits the screen at laptop and desktop sizes, in both themes', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  // Five-figure balances: the account summary must still read on one line at 1360.
  await freshFundedMaster(app, net, 20_000n);
  await tradeOn(app);
  await placeFromTicket(app, 'buy', '2', '3');
  await expect(app.getByTestId('open-orders')).toContainText('2.0¢');

  const keyElements = (): [string, Locator][] => [
    ['ladder', app.getByTestId('ladder')],
    ['ticket', app.getByTestId('ticket')],
    ['Buy button', app.getByTestId('place-order')],
    ['Cancel all / Close position', app.getByTestId('trade-actions')],
    ['contract chart', app.getByTestId('contract-chart')],
    ['oracle chart', app.getByTestId('oracle-chart')],
    ['account summary', app.getByTestId('balance')],
    ['open orders', app.getByTestId('open-orders').locator('tbody tr').first()],
    ['notice strip', app.getByTestId('notice-strip')],
  ];

  for (const theme of ['dark', 'light'] as const) {
    const toggle = app.getByRole('button', {
      name: theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme',
    });
    // The toggle names the other theme: it is there when this theme is on.
    await expect(toggle).toBeVisible();
    for (const size of SIZES) {
      await app.setViewportSize({ width: size.width, height: size.height });
      // The ladder refits its rows to the height it has.
      await expect(app.getByTestId('ladder').locator('[data-price]').first()).toBeVisible();
      await app.screenshot({ path: resolve(SCREENS_DIR, `layout-${size.width}x${size.height}-${theme}.png`) });
      for (const [name, locator] of keyElements()) await inside(app, name, locator, size.allVisible);
      // No sideways scrolling anywhere in the main area.
      const overflow = await app.locator('main.main').evaluate((el) => {
        // The e2e tsconfig has no DOM library: the two widths the check needs.
        const box = el as unknown as { scrollWidth: number; clientWidth: number };
        return box.scrollWidth - box.clientWidth;
      });
      expect(overflow, `main area scrolls sideways at ${size.width}×${size.height}`).toBeLessThanOrEqual(0);
      await sizesByTheirBars(app, size);
      if (size.width >= 1360) {
        // The account summary reads as one line (available + locked + positions = equity, then P&L).
        const items = await app
          .getByTestId('balance')
          .locator('dt')
          .evaluateAll((els) =>
            els.map(
              (el) => (el as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top,
            ),
          );
        expect(new Set(items.map(Math.round)).size, `account summary wraps at ${size.width}`).toBe(1);
      }
    }
    if (theme === 'dark') await toggle.click();
  }
  await noProblems(app, problems);
});
