/**
 * Flow: a cut market feed pauses order entry and recovers. The core reaches the devnet's market
 * WebSocket through a proxy on loopback; the test cuts it and refuses reconnects for a while: the
 * ladder says the book is not live and why, and the ticket's send button is disabled with that
 * reason; once the proxy lets connections through, the book goes live and an order goes in.
 * Then the same proxy freezes (sockets stay open, no frame and no pong passes): the heartbeat
 * notices within seconds, order entry pauses with the reason, and it all recovers on thaw.
 */
import { expect, test } from './harness/fixture';
import { freshFundedMaster, noProblems, placeFromTicket, setPassword, shot, tradeOn } from './harness/flows';

test.use({ withDevnet: true, proxyMarketFeed: true });
test.setTimeout(120_000);

test('a cut feed disables order entry, and it recovers', async ({ app, devnet, marketFeedProxy, problems }) => {
  const proxy = marketFeedProxy!;
  await setPassword(app);
  await freshFundedMaster(app, await devnet.get(), 100n);
  await tradeOn(app);
  expect(proxy.stats.connections).toBeGreaterThan(0);
  const ticket = app.getByTestId('ticket');
  await ticket.getByLabel('Price (¢)').fill('31');
  await ticket.getByLabel('Size', { exact: true }).fill('1');
  await expect(ticket.getByTestId('place-order')).toBeEnabled();

  proxy.cut(8_000);
  const blocked = app.getByTestId('book-blocked');
  await expect(blocked).toBeVisible({ timeout: 10_000 });
  await expect(blocked).toHaveText(/^Book (down|stale|resyncing): .+\. Order entry is paused\.$/);
  const reason = (await blocked.textContent())!.trim();
  await expect(ticket.getByTestId('place-order')).toBeDisabled();
  await expect(ticket).toContainText(reason);
  // The status bar tells the same story: the market feed is not shown as live while cut.
  const marketFeed = app.getByTestId('feed-market');
  await expect(marketFeed.locator('.state')).not.toHaveText('live', { timeout: 5_000 });
  await shot(app, 'flows-feed-cut');
  expect(proxy.stats.refused + proxy.stats.cuts).toBeGreaterThan(0);

  proxy.restore();
  await expect(blocked).toHaveCount(0, { timeout: 30_000 });
  await expect(ticket.getByTestId('place-order')).toBeEnabled();
  await expect(marketFeed.locator('.state')).toHaveText('live', { timeout: 10_000 });
  await placeFromTicket(app, 'buy', '31', '1');
  await expect(app.getByTestId('open-orders')).toContainText('31.0¢');
  await shot(app, 'flows-feed');
  await app.getByTestId('open-orders').getByRole('button', { name: 'Cancel' }).click();
  await expect(app.getByTestId('open-orders')).toContainText('No open orders.');
  await noProblems(app, problems);
});

test('a frozen feed (open socket, no frames, no pongs) pauses order entry within seconds, and it recovers', async ({
  app,
  devnet,
  marketFeedProxy,
  problems,
}) => {
  const proxy = marketFeedProxy!;
  await setPassword(app);
  await freshFundedMaster(app, await devnet.get(), 100n);
  await tradeOn(app);
  const ticket = app.getByTestId('ticket');
  await ticket.getByLabel('Price (¢)').fill('32');
  await ticket.getByLabel('Size', { exact: true }).fill('1');
  const marketFeed = app.getByTestId('feed-market');
  await expect(marketFeed.locator('.state')).toHaveText('live', { timeout: 10_000 });
  await expect(ticket.getByTestId('place-order')).toBeEnabled();

  proxy.freeze();
  const frozenAt = Date.now();
  const blocked = app.getByTestId('book-blocked');
  // The heartbeat gives up 1.5 s after an unanswered ping (at most 2.5 s after the last frame); the
  // generous wait only absorbs a busy machine.
  await expect(blocked).toBeVisible({ timeout: 8_000 });
  await expect(blocked).toHaveText(
    /^Book (down|resyncing): market feed reconnecting: the feed went silent \(no answer to a ping within 1\.5 s\)\. Order entry is paused\.$/,
  );
  test.info().annotations.push({ type: 'freeze-noticed-ms', description: String(Date.now() - frozenAt) });
  await expect(ticket.getByTestId('place-order')).toBeDisabled();
  await expect(ticket).toContainText('the feed went silent');
  await expect(marketFeed.locator('.state')).not.toHaveText('live', { timeout: 8_000 });
  await shot(app, 'flows-feed-frozen');
  expect(proxy.stats.pingsUnanswered).toBeGreaterThan(0);

  proxy.thaw();
  await expect(blocked).toHaveCount(0, { timeout: 30_000 });
  await expect(ticket.getByTestId('place-order')).toBeEnabled();
  await expect(marketFeed.locator('.state')).toHaveText('live', { timeout: 10_000 });
  await placeFromTicket(app, 'buy', '32', '1');
  await expect(app.getByTestId('open-orders')).toContainText('32.0¢');
  await shot(app, 'flows-feed-thawed');
  await app.getByTestId('open-orders').getByRole('button', { name: 'Cancel' }).click();
  await expect(app.getByTestId('open-orders')).toContainText('No open orders.');
  await noProblems(app, problems);
});
