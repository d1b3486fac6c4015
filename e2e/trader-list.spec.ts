/**
 * The rest of a trader's list (issue 29): words for people in the status bar and Settings, Settings
 * laid out across the width at 1360 px; on a devnet, a fair value of 0 and of 100 shown as values,
 * the ladder grouped by the spread, hotkeys that say why they sent nothing and leave the ticket as
 * typed, the ticket's close as profit or loss, a refusal cleared by a successful close, Close off on an
 * ended epoch, the market's name in the chart title as the list writes it, and no "polled" through
 * the roll. Screenshots: test-results/screens/trader-*.png.
 */
import { resolve } from 'node:path';
import { expect, SCREENS_DIR, test } from './harness/fixture';
import { DEVNET_SYMBOLS } from '../src/exchange/markets';
import {
  btc5m,
  counterparty,
  freshEpoch,
  freshFundedMaster,
  ladderBidAt,
  marketsList,
  noProblems,
  open,
  placeFromTicket,
  setPassword,
  tradeOn,
  USD,
} from './harness/flows';

// Exact money on the close: a book no other spec has left orders in (the devnet starts only for the tests that use one).
test.use({ devnetOptions: { ownBook: 'trader-list' } });
test.setTimeout(60_000);

test('the app is "connected", not an "app core", and Settings uses the width at 1360 px', async ({ app, problems }) => {
  await setPassword(app);
  await expect(app.getByTestId('connection-status')).toHaveText('Connected');
  await open(app, 'Settings', 'Settings');
  await expect(app.getByTestId('updates-panel')).toBeVisible();
  await expect(app.locator('main')).not.toContainText(/app core/i);
  // Two stacks of panels side by side, each running on under its own: neither leaves half the
  // screen empty beside the other (the shorter is at least four fifths of the taller).
  const stacks = await app
    .getByTestId('settings-stacks')
    .locator(':scope > div')
    .evaluateAll((cols) =>
      cols.map((c) =>
        (c as unknown as { getBoundingClientRect(): { x: number; height: number } }).getBoundingClientRect(),
      ),
    );
  expect(stacks).toHaveLength(2);
  expect(stacks[1]!.x).toBeGreaterThan(stacks[0]!.x + 300);
  const [short, tall] = [stacks[0]!.height, stacks[1]!.height].sort((a, b) => a - b);
  expect(short! / tall!).toBeGreaterThan(0.8);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-settings-1360.png') });
  // The whole screen at once (the main area scrolls inside the window).
  await app.setViewportSize({ width: 1360, height: 2200 });
  await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-settings-1360-whole.png') });
  await noProblems(app, problems);
});

/** What the page records each frame through the roll (the e2e tsconfig has no DOM library). */
interface Frame {
  countdown: string;
  quotesLabel: string;
  closeText: string;
  closeDisabled: boolean;
  closeTitle: string;
}

/** "47" or "47.5" for a price in protocol units (the ticket's cents field). */
const centsText = (price: bigint): string =>
  price % 10_000n === 0n ? `${price / 10_000n}` : `${price / 10_000n}.${(price % 10_000n) / 1_000n}`;

/** Micro-dollars as "$2.35" (whole cents here). */
const dollars = (micro: bigint): string =>
  `$${micro / 1_000_000n}.${((micro % 1_000_000n) / 10_000n).toString().padStart(2, '0')}`;

test.describe('on a devnet', () => {
  test.use({ withDevnet: true });
  test.setTimeout(480_000);

  test('fair 0 and 100, grouping by the spread, hotkeys that say why, the close in P&L, an ended epoch', async ({
    app,
    devnet,
    problems,
  }) => {
    const net = await devnet.get();
    await setPassword(app);
    await freshFundedMaster(app, net, 200n);
    await open(app, 'Settings', 'Settings');
    await app.getByLabel('Enable trading hotkeys').check();
    const market = await tradeOn(app, btc5m, 120_000);
    const name = `BTC 5m #${market.epoch}`;
    const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
    const ticket = app.getByTestId('ticket');
    const ladder = app.getByTestId('ladder');
    const strip = app.getByTestId('notice-strip');
    const actions = app.getByTestId('trade-actions');
    const centre = ladder.getByRole('button', { name: 'Centre' });

    // The chart's title names the market as the list does ("5m", not "5M": headers are upper case).
    const chartHead = app.getByRole('region', { name: 'Contract price chart' }).locator('header');
    await expect.poll(() => chartHead.innerText()).toMatch(new RegExp(`^BTC 5m #${market.epoch}\\s+UP \\(¢\\)`));

    // What the person typed in the ticket.
    await ticket.getByRole('radio', { name: /Buy Up/ }).click();
    await ticket.getByLabel('Price (¢)').fill('30');
    await ticket.getByLabel('Size', { exact: true }).fill('2');

    // Nothing quoted: Shift+B and B say why nothing was sent, naming the market.
    await centre.focus();
    await app.keyboard.press('Shift+B');
    await expect(strip).toContainText(`No ask to buy from on ${name}.`);
    await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-no-ask.png') });
    await app.keyboard.press('b');
    await expect(strip).toContainText(`No bid to join on ${name}.`);

    // Another account quotes 6¢ wide around fair value (inside the 15¢ band main checks orders against).
    const fairNow = (await marketsList(app)).find((m) => m.assetId === market.assetId) as { fairPrice?: string | null };
    const mid = (() => {
      const f = BigInt(fairNow?.fairPrice ?? '500000');
      const c = ((f + 5_000n) / 10_000n) * 10_000n;
      return c < 100_000n ? 100_000n : c > 900_000n ? 900_000n : c;
    })();
    const bid = mid - 30_000n;
    const ask = mid + 30_000n;
    const other = await counterparty(net, 200n);
    await other.client.placeOrder({ ...ref, side: 'buy', price: bid, size: '10', timeInForce: 'GTC' });
    await other.client.placeOrder({ ...ref, side: 'sell', price: ask, size: '10', timeInForce: 'GTC' });

    // Automatic grouping: both inside quotes on the ladder, at a grouping wider than 0.1¢.
    const group = ladder.getByLabel('Ticks per row');
    await expect(group).toHaveValue('auto');
    await expect
      .poll(async () => Number(await group.getAttribute('data-ticks')), { timeout: 15_000 })
      .toBeGreaterThan(1);
    const ticks = BigInt((await group.getAttribute('data-ticks')) ?? '1');
    const step = ticks * 1_000n;
    const bidRow = (bid / step) * step;
    const askRow = ((ask + step - 1n) / step) * step;
    await expect(ladderBidAt(app, bidRow)).toHaveCount(1, { timeout: 15_000 });
    await expect(ladder.locator(`[data-price="${askRow}"] .cell.ask[aria-label*=" offered"]`)).toHaveCount(1);
    await expect(group.locator('option[value="auto"]')).toHaveText(/^Auto · \d+(\.5)?¢$/);
    await ladder.screenshot({ path: resolve(SCREENS_DIR, 'trader-ladder-auto.png') });
    // The person's choice wins: 0.1¢ rows, and at 0.1¢ a 6¢ spread leaves both quotes off the rows.
    await group.selectOption('1');
    await expect(group).toHaveAttribute('data-ticks', '1');
    const prices = await ladder
      .locator('[data-price]')
      .evaluateAll((rows) =>
        rows.slice(0, 2).map((r) => Number((r as unknown as { dataset: { price: string } }).dataset.price)),
      );
    expect(prices[0]! - prices[1]!).toBe(1_000);
    await expect(ladderBidAt(app, bid)).toHaveCount(0);
    await ladder.screenshot({ path: resolve(SCREENS_DIR, 'trader-ladder-tenths.png') });
    await group.selectOption('auto');
    await expect(ladderBidAt(app, bidRow)).toHaveCount(1);

    // Hotkey orders (join the bid, join the ask) leave the ticket as the person typed it.
    await centre.focus();
    await app.keyboard.press('b');
    await expect(strip).toContainText(`${name}: Buy 2 at ${centsText(bid)}¢ is resting`);
    await app.keyboard.press('s');
    await expect(strip).toContainText(`${name}: Sell 2 at ${centsText(ask)}¢ is resting`);
    await expect(ticket.getByLabel('Price (¢)')).toHaveValue('30');
    await expect(ticket.getByRole('radio', { name: /Buy Up/ })).toBeChecked();
    await expect(ticket.getByTestId('place-order')).toContainText('▲ Buy Up · 2 @ 30.0¢');
    await ticket.screenshot({ path: resolve(SCREENS_DIR, 'trader-ticket-after-hotkeys.png') });
    await app.keyboard.press('Escape');
    await expect(strip).toContainText(`${name}: Cancelled 2 orders`);

    // Long 5 at the ask; the ticket's sale of them at the bid reads as the loss it is (6¢ × 5).
    await placeFromTicket(app, 'buy', centsText(ask), '5', 'IOC');
    await expect(actions.getByRole('button', { name: /^Close position \(▲ 5\)/ })).toBeVisible();
    await ticket.getByRole('radio', { name: /Sell Up/ }).click();
    await ticket.getByLabel('Price (¢)').fill(centsText(bid));
    const closes = ticket.getByTestId('quote-closes');
    await expect(closes).toHaveText('5 contracts · P&L −$0.30');
    await expect(closes).toHaveAttribute(
      'title',
      `Brings in ${dollars(bid * 5n)}; these contracts cost ${dollars(ask * 5n)}`,
    );
    await expect(closes.locator('.down')).toHaveCount(1);
    await ticket.screenshot({ path: resolve(SCREENS_DIR, 'trader-close-pnl.png') });

    // A refusal in the ticket goes once a close succeeds.
    await ticket.getByLabel('Price (¢)').fill('');
    await ticket.getByTestId('place-order').click();
    await expect(ticket.getByTestId('order-refusal')).toContainText('Enter a price in cents');
    await ticket.screenshot({ path: resolve(SCREENS_DIR, 'trader-refusal.png') });
    await actions.getByRole('button', { name: /^Close position \(▲ 5\)/ }).click();
    await expect(actions.getByRole('button', { name: 'Close position' })).toBeVisible({ timeout: 15_000 });
    await expect(ticket.getByTestId('order-refusal')).toHaveCount(0);
    await ticket.screenshot({ path: resolve(SCREENS_DIR, 'trader-refusal-cleared.png') });

    // BTC 1m: a position through its epoch's end. Close is off on the ended epoch, with the reason.
    const m1 = await freshEpoch(app, (m) => m.symbol === 'BTC' && m.timeframe === '1m', 40_000);
    const ref1 = { assetId: BigInt(m1.assetId), epoch: BigInt(m1.epoch) };
    await app.locator(`tr[data-asset="${m1.assetId}"] button.pick`).click();
    await expect(app.locator(`tr[data-asset="${m1.assetId}"]`)).toHaveClass(/selected/);
    await expect(app.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });
    const fair1 = (await marketsList(app)).find((m) => m.assetId === m1.assetId) as { fairPrice?: string | null };
    const p1 = (() => {
      const c = ((BigInt(fair1?.fairPrice ?? '500000') + 5_000n) / 10_000n) * 10_000n;
      return c < 100_000n ? 100_000n : c > 900_000n ? 900_000n : c;
    })();
    await other.client.placeOrder({ ...ref1, side: 'sell', price: p1, size: '1', timeInForce: 'GTC' });
    await expect(ladder.locator('.cell.ask[aria-label*=" offered"]').first()).toBeVisible({ timeout: 15_000 });
    await placeFromTicket(app, 'buy', centsText(p1), '1', 'IOC');
    await expect(actions.getByRole('button', { name: /^Close position \(▲ 1\)/ })).toBeEnabled();

    // Every frame through the end and the roll: the countdown, the header's quotes label, Close.
    await app.evaluate(() => {
      const w = globalThis as unknown as {
        __frames: Frame[];
        document: {
          querySelector(s: string): {
            textContent: string | null;
            disabled?: boolean;
            getAttribute(a: string): string | null;
          } | null;
        };
        requestAnimationFrame(f: () => void): void;
      };
      w.__frames = [];
      const tick = (): void => {
        const close = w.document.querySelector('[data-testid="trade-actions"] .btn:not(.danger)');
        w.__frames.push({
          countdown: w.document.querySelector('[data-testid="countdown"]')?.textContent ?? '',
          quotesLabel: w.document.querySelector('[data-testid="header-quotes"] .k')?.textContent ?? '',
          closeText: close?.textContent ?? '',
          closeDisabled: close?.disabled ?? false,
          closeTitle: close?.getAttribute('title') ?? '',
        });
        if (w.__frames.length < 100_000) w.requestAnimationFrame(tick);
      };
      tick();
    });
    const epochSelect = app.getByTestId('market-header').getByLabel('Epoch');
    await expect(epochSelect).not.toHaveValue(m1.epoch, { timeout: 90_000 });
    await expect(epochSelect.locator(`option[value="${m1.epoch}"]`)).toHaveCount(1);
    const frames = await app.evaluate(() => (globalThis as unknown as { __frames: Frame[] }).__frames);
    // Never "polled" (nor "not live": the book was live, then the next epoch's was on its way).
    expect(frames.filter((f) => /poll|not live/i.test(f.quotesLabel))).toEqual([]);
    // Ended, not yet rolled: Close ▲ 1 is off, and says why.
    // Before the end, the position's Close was on.
    expect(frames.some((f) => f.countdown !== 'ended' && f.closeText.includes('▲ 1') && !f.closeDisabled)).toBe(true);
    const ended = frames.filter((f) => f.countdown === 'ended' && f.closeText.includes('▲ 1'));
    test.info().annotations.push({ type: 'ended frames', description: `${ended.length} of ${frames.length}` });
    for (const f of ended) {
      expect(f).toMatchObject({ closeDisabled: true, closeTitle: 'This epoch has ended; the next one opens shortly.' });
    }
    // The ended epoch picked again: Close is off with the reason as its title.
    await epochSelect.selectOption(m1.epoch);
    const close1 = actions.getByRole('button', { name: /^Close position \(▲ 1\)/ });
    await expect(close1).toBeDisabled();
    await expect(close1).toHaveAttribute('title', 'This epoch is no longer trading.');
    await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-ended-close.png') });
    await epochSelect.selectOption({ index: 0 });

    // Fair value 0 and 100 are values: the oracle steered far below, then far above, the strike.
    const btc = DEVNET_SYMBOLS.BTC.symbolId;
    const row = app.locator(`tr[data-asset="${m1.assetId}"]`);
    try {
      net.handle.exchange.steerOracle(btc, { offset: -30_000n * USD });
      await expect(ladder.getByTestId('ladder-fair')).toHaveText(/^Fair 0\.0¢/, { timeout: 60_000 });
      await expect(ticket.getByTestId('ticket-fair')).toHaveText(/fair 0\.0¢$/i);
      await expect(row.getByTestId('market-fair')).toHaveText('0.0¢');
      await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-fair-zero.png') });
      net.handle.exchange.steerOracle(btc, { offset: 30_000n * USD });
      await expect(ladder.getByTestId('ladder-fair')).toHaveText(/^Fair 100\.0¢/, { timeout: 60_000 });
      await expect(ticket.getByTestId('ticket-fair')).toHaveText(/fair 100\.0¢$/i);
      await expect(row.getByTestId('market-fair')).toHaveText('100.0¢');
      await app.screenshot({ path: resolve(SCREENS_DIR, 'trader-fair-hundred.png') });
    } finally {
      net.handle.exchange.steerOracle(btc, { offset: 0n });
    }
    await noProblems(app, problems);
  });
});
