/**
 * Working orders on screen (issue 28, docs/working-orders.md), against a devnet whose liquidity is a
 * second account in the test process: a bracket sent with the ticket's Bracket switch is drawn on the
 * ladder (take-profit and stop, dashed until its entry fills) and its take-profit is dragged to another
 * row, which moves its trigger in main; the Working orders tab lists it with its state and says that
 * working orders run only while the app runs; an oracle stop attached from the position's row is drawn
 * on the oracle chart at its level; the flatten-before-expiry hotkey sets a time exit that flattens the
 * position, and the notice says what filled. Screenshots: test-results/screens/working-*.png.
 */
import { resolve } from 'node:path';
import { expect, invokeInPage, SCREENS_DIR, test, userAnswers } from './harness/fixture';
import {
  counterparty,
  fairOf,
  freshFundedMaster,
  marketsList,
  noProblems,
  open,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
} from './harness/flows';
import type { WorkingOrderView } from '../src/shared/bridge';

// A book no other spec leaves orders in: every fill here is against the counterparty's quotes.
test.use({ withDevnet: true, devnetOptions: { ownBook: 'working-orders' } });
test.setTimeout(240_000);

const C = 10_000n; // protocol units per cent

test('a bracket on the ladder, dragged; the Working orders tab; an oracle stop on its chart; a time exit flattens', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 1_000n);
  // Room for the whole flow before the time exit is set against this epoch's end.
  const market = await tradeOn(app, undefined, 100_000);
  const ref = { assetId: BigInt(market.assetId), epoch: BigInt(market.epoch) };
  const name = `BTC 5m #${market.epoch}`;
  const other = await counterparty(net, 1_000n);
  await other.client.placeOrder({ ...ref, side: 'buy', price: 38n * C, size: '10', timeInForce: 'GTC' });
  await other.client.placeOrder({ ...ref, side: 'sell', price: 46n * C, size: '10', timeInForce: 'GTC' });

  const ladder = app.getByTestId('ladder');
  const positions = app.getByTestId('positions');
  // Whole cents a row: the prices below are rows of their own.
  await ladder.getByLabel('Ticks per row').selectOption('10');
  await expect(ladder.locator('[data-price="460000"] .cell.ask')).toHaveAttribute('aria-label', /10 offered/);

  // A position to exit: 5 bought from the counterparty's ask.
  await placeFromTicket(app, 'buy', '46', '5', 'IOC');
  await app.getByRole('tab', { name: /Positions/ }).click();
  await expect(positions.locator('tbody tr').first()).toContainText('▲ Long Up');

  // The ticket's Bracket switch: the next order goes with the default take-profit and stop (5¢ each).
  const ticket = app.getByTestId('ticket');
  await ticket.getByTestId('bracket-toggle').click();
  await expect(ticket.getByTestId('bracket-toggle')).toHaveAttribute('aria-pressed', 'true');
  await ticket.getByLabel('Price (¢)').fill('40');
  await expect(ticket.getByTestId('ticket-bracket')).toHaveText('with take-profit 45.0¢, stop 35.0¢');
  await placeFromTicket(app, 'buy', '40', '2', 'GTC');
  // Sent once: the switch turns itself off.
  await expect(ticket.getByTestId('bracket-toggle')).toHaveAttribute('aria-pressed', 'false');

  const marks = ladder.getByTestId('ladder-mark');
  const tp = marks.and(app.locator('[data-kind="take-profit"]'));
  const sl = marks.and(app.locator('[data-kind="stop"]'));
  await expect(marks).toHaveCount(2);
  await expect(tp).toHaveAttribute('data-trigger', '450000');
  await expect(sl).toHaveAttribute('data-trigger', '350000');
  // Drawn on their rows, in the sell side's Mine column (they close a long).
  const rowBox = async (price: bigint) => (await ladder.locator(`[data-price="${price}"]`).boundingBox())!;
  const tpBox = (await tp.boundingBox())!;
  const row45 = await rowBox(45n * C);
  expect(Math.abs(tpBox.y + tpBox.height / 2 - (row45.y + row45.height / 2))).toBeLessThanOrEqual(2);
  expect(tpBox.x).toBeGreaterThan(row45.x + row45.width / 2);
  await expect(tp).toHaveAttribute('title', /armed when the entry fills\. Drag to move it/);
  await shot(app, 'working-ladder-bracket');
  await ladder.screenshot({ path: resolve(SCREENS_DIR, 'working-ladder-bracket-close.png') });

  // Dragged from 45¢ to 48¢: main moves the trigger, the mark stays where it was dropped.
  const row48 = await rowBox(48n * C);
  await app.mouse.move(tpBox.x + tpBox.width / 2, tpBox.y + tpBox.height / 2);
  await app.mouse.down();
  await app.mouse.move(tpBox.x + tpBox.width / 2, row48.y + row48.height / 2, { steps: 8 });
  await app.mouse.up();
  await expect(tp).toHaveAttribute('data-trigger', '480000');
  const listed = async (): Promise<WorkingOrderView[]> =>
    (await invokeInPage(app, 'workingOrders.list')).value as WorkingOrderView[];
  await expect
    .poll(
      async () => (await listed()).find((o) => o.kind === 'bracket')?.legs.find((l) => l.type === 'take-profit')?.price,
    )
    .toBe('480000');
  await expect(app.getByTestId('notice-strip')).toContainText(`${name}: take-profit moved to 48.0¢`);
  const tpMoved = (await tp.boundingBox())!;
  expect(Math.abs(tpMoved.y + tpMoved.height / 2 - (row48.y + row48.height / 2))).toBeLessThanOrEqual(2);
  // The contract chart draws a line per trigger, the entry's too.
  await shot(app, 'working-ladder-dragged');
  await ladder.screenshot({ path: resolve(SCREENS_DIR, 'working-ladder-dragged-close.png') });

  // The Working orders tab: kind, trigger, state and why, and that they run only while the app runs.
  await app.getByRole('tab', { name: /Working orders/ }).click();
  const working = app.getByTestId('working-orders');
  await expect(working.getByTestId('working-note')).toContainText('only while this app is open');
  const bracketRow = working.getByTestId('working-row').filter({ hasText: 'Bracket' });
  await expect(bracketRow).toContainText(name);
  await expect(bracketRow).toContainText('Entry: buy 2 at 40.0¢');
  await expect(bracketRow).toContainText('Take-profit at 48.0¢ → sell nothing armed yet');
  await expect(bracketRow).toContainText('Stop at 35.0¢');
  await expect(bracketRow).toContainText('waiting for its entry');
  await shot(app, 'working-tab');
  await app.getByTestId('account-tabs').screenshot({ path: resolve(SCREENS_DIR, 'working-tab-close.png') });

  // One leg alone: the stop's own Cancel takes only the stop; the take-profit and the entry keep working.
  await bracketRow.getByRole('button', { name: /^Cancel stop leg/ }).click();
  await expect(app.getByTestId('notice-strip')).toContainText(`${name}: stop cancelled; the bracket keeps working`);
  await expect(bracketRow).toHaveAttribute('data-state', 'pending');
  await expect(bracketRow).toContainText('Stop at 35.0¢ → sell nothing armed yet (cancelled)');
  await expect(bracketRow.getByRole('button', { name: /^Cancel stop leg/ })).toHaveCount(0);
  await expect(bracketRow.getByRole('button', { name: /^Cancel take-profit leg/ })).toBeVisible();
  await expect(marks).toHaveCount(1);
  await expect(tp).toHaveAttribute('title', /click to cancel this leg alone/);
  await shot(app, 'working-tab-leg-cancelled');
  await app
    .getByTestId('account-tabs')
    .screenshot({ path: resolve(SCREENS_DIR, 'working-tab-leg-cancelled-close.png') });

  // Cancelled from its row: its entry leaves the exchange, its marks leave the ladder.
  await bracketRow.getByRole('button', { name: /Cancel the bracket/ }).click();
  await expect(bracketRow).toHaveAttribute('data-state', 'stopped');
  await expect(marks).toHaveCount(0);

  // An oracle stop from the position's row, 300 $ under the oracle (far enough not to fire in this test): drawn on the oracle chart at its level.
  const oracle = (await marketsList(app)).find((m) => m.assetId === market.assetId) as unknown as {
    oraclePrice: string | null;
  };
  expect(oracle.oraclePrice).not.toBeNull();
  const level = BigInt(oracle.oraclePrice!) / 1_000_000n - 300n;
  await app.getByRole('tab', { name: /Positions/ }).click();
  await positions.getByRole('button', { name: /^Exits/ }).click();
  const exits = positions.getByTestId('position-exits');
  await expect(exits).toContainText('only while this app is open');
  await exits.getByLabel('Exit kind').selectOption('oracle-stop');
  await exits.getByLabel('Oracle level from').selectOption('absolute');
  await exits.getByLabel('Oracle price ($)').fill(level.toString());
  await exits.getByRole('button', { name: 'Attach' }).click();
  await expect(exits.getByTestId('position-exit')).toContainText(
    `Oracle stop: oracle at or below $${level.toLocaleString('en-US')}.00`,
  );
  const chart = app.getByRole('region', { name: 'Oracle price chart' });
  await expect(chart.locator('header')).toContainText(/strike and oracle stop dashed/i);
  // A refused value keeps what was typed, with main's sentence.
  await exits.getByLabel('Exit kind').selectOption('take-profit');
  await exits.getByLabel('Price (¢)').fill('not a price');
  await exits.getByRole('button', { name: 'Attach' }).click();
  await expect(exits.getByTestId('exit-error')).toBeVisible();
  await expect(exits.getByLabel('Price (¢)')).toHaveValue('not a price');
  await app.waitForTimeout(1_500); // the chart draws its line with the next frame
  await shot(app, 'working-oracle-stop');
  await chart.screenshot({ path: resolve(SCREENS_DIR, 'working-oracle-stop-close.png') });

  // The counterparty's bid moves to 5¢ under fair value: the exit (the bid less the 5¢ slippage) stays
  // inside the 15¢ price band. Should fair value move by then, main's dialog asks before sending an
  // order outside the band, and the user says yes.
  const fairNow = await fairOf(app, market);
  const bid = fairNow === null ? 38n : fairNow / C - 5n;
  await other.client.cancelAll(ref);
  await other.client.placeOrder({ ...ref, side: 'buy', price: bid * C, size: '10', timeInForce: 'GTC' });
  await expect(ladder.locator(`[data-price="${bid * C}"] .cell.bid`)).toHaveAttribute('aria-label', /10 bid/);

  await userAnswers().dialogs({ kind: 'confirm', yes: true });

  // Flatten before expiry by hotkey: the time exit's default set so that it fires in a few seconds.
  await open(app, 'Settings', 'Settings');
  await app.getByTestId('hotkeys').getByLabel('Enable trading hotkeys').check();
  await open(app, 'Trade', 'Trade');
  await app.getByRole('tab', { name: /Working orders/ }).click();
  const left = Math.floor(
    ((await marketsList(app)).find((m) => m.assetId === market.assetId)!.expiration - Date.now()) / 1000,
  );
  expect(left, 'seconds left in the epoch').toBeGreaterThan(20);
  await working.getByRole('button', { name: 'Defaults' }).click();
  const seconds = working.locator('input[name="time-exit-default"]');
  await seconds.fill(String(left - 8));
  await seconds.blur();
  await expect
    .poll(
      async () =>
        ((await invokeInPage(app, 'settings.get')).value as { workingDefaults: { timeExitSeconds: number } })
          .workingDefaults.timeExitSeconds,
    )
    .toBe(left - 8);
  await app.keyboard.press('Shift+T');
  const timeRow = working.getByTestId('working-row').filter({ hasText: 'Time exit' });
  await expect(timeRow).toContainText(`Time exit ${left - 8} s before the end → sell the whole position`);
  await expect(timeRow).toHaveAttribute('data-state', 'armed');
  // It fires: the notice says what filled, at what average, and what is left.
  const strip = app.getByTestId('notice-strip');
  await expect(strip).toContainText(new RegExp(`time exit .* on BTC 5m #\\d+ fired: sold 5 at ${bid}\\.0¢ average`), {
    timeout: 40_000,
  });
  await shot(app, 'working-time-exit-notice');
  await expect(strip).toContainText('position now 0');
  await expect(timeRow).toHaveAttribute('data-state', 'done');
  await app.getByRole('tab', { name: /Positions/ }).click();
  await expect(positions.locator('tbody tr').first()).toContainText('Closed');

  await noProblems(app, problems);
});

test('a roll started from the Working orders tab: refused input kept with a sentence, quotes placed, stopped', async ({
  app,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await freshFundedMaster(app, net, 100n);
  const market = await tradeOn(app, undefined, 30_000);
  const name = `BTC 5m #${market.epoch}`;
  const openOrders = app.getByTestId('open-orders');

  await app.getByRole('tab', { name: /Working orders/ }).click();
  const working = app.getByTestId('working-orders');
  await working.getByTestId('working-new-roll').click();
  const form = working.getByTestId('roll-form');
  await expect(form).toContainText(`Quotes on ${name} placed again in each new epoch`);
  // Two quotes to start with: a bid a cent under fair value and an ask a cent over.
  await expect(form.getByTestId('roll-quote-row')).toHaveCount(2);
  await form.getByLabel('Quote 1: size in contracts').fill('2');
  await form.getByLabel('Quote 2: size in contracts').fill('2');
  await form.getByLabel('Quote 2: cents from fair value').fill('+2');

  // An epoch count that is not a whole number: said here, nothing sent, every field as typed.
  await form.getByLabel('How many epochs (empty: until stopped)').fill('2.5');
  await form.getByTestId('roll-start').click();
  await expect(form.getByTestId('roll-error')).toHaveText(/^Epochs: a whole number from 1/);
  await expect(form.getByLabel('Quote 2: cents from fair value')).toHaveValue('+2');
  // A size main refuses: its sentence, the input kept.
  await form.getByLabel('How many epochs (empty: until stopped)').fill('');
  await form.getByLabel('Quote 1: size in contracts').fill('two');
  await form.getByTestId('roll-start').click();
  await expect(form.getByTestId('roll-error')).toBeVisible();
  await expect(form.getByTestId('roll-error')).not.toContainText('quotes.0');
  await expect(form.getByLabel('Quote 1: size in contracts')).toHaveValue('two');
  await shot(app, 'working-roll-form-refused');
  await app.getByTestId('account-tabs').screenshot({ path: resolve(SCREENS_DIR, 'working-roll-form-close.png') });

  // Started once the market has a fair value (a new core needs 30 s of oracle prices for its σ):
  // the form closes, the notice says so, the row runs and main places both quotes.
  await expect.poll(() => fairOf(app, market), { timeout: 60_000 }).not.toBeNull();
  await form.getByLabel('Quote 1: size in contracts').fill('2');
  await form.getByTestId('roll-start').click();
  await expect(app.getByTestId('notice-strip')).toContainText('roll started');
  await expect(form).toHaveCount(0);
  const rollRow = working.getByTestId('working-row').and(app.locator('[data-kind="roll"]'));
  await expect(rollRow).toHaveAttribute('data-state', 'armed');
  await expect(rollRow.locator('.tag')).toHaveText('running');
  await expect(rollRow.getByTestId('working-roll-quote')).toHaveCount(2);
  await expect(rollRow.getByTestId('working-roll-quote').first()).toContainText(/^bid 2 fair−1\.0¢ → \d+\.\d¢/);
  await expect(rollRow.getByTestId('working-roll-quote').nth(1)).toContainText(/^ask 2 fair\+2\.0¢ → \d+\.\d¢/);
  await shot(app, 'working-roll-running');
  await app.getByTestId('account-tabs').screenshot({ path: resolve(SCREENS_DIR, 'working-roll-running-close.png') });
  await app.getByRole('tab', { name: /Open orders/ }).click();
  await expect(openOrders.locator('tbody tr')).toHaveCount(2);

  // Stopped from its row: its quotes leave the exchange.
  await app.getByRole('tab', { name: /Working orders/ }).click();
  await rollRow.getByRole('button', { name: /Cancel the roll/ }).click();
  await expect(rollRow).toHaveAttribute('data-state', 'stopped');
  await app.getByRole('tab', { name: /Open orders/ }).click();
  await expect(openOrders).toContainText('No open orders');
  await noProblems(app, problems);
});
