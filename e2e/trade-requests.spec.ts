/**
 * The Trade screen asks for a market's recent trades once when it shows the market (the tape and the
 * contract chart, once each), then follows the feed's trade events. The market list is re-sent
 * whenever a book moves, several times a second with bots quoting; none of those may make the tape
 * and the chart ask again and start over, as they did when each new list made a new market ref.
 */
import { expect, test } from './harness/fixture';
import { setPassword, tradeOn } from './harness/flows';

test.use({ withDevnet: true, devnetOptions: { bots: 2 } });
test.setTimeout(120_000);

const WATCH_MS = 8_000;

test('a moving market list does not make the tape and the chart ask for the trades again', async ({ app, core }) => {
  await setPassword(app);
  await tradeOn(app); // at least 40 s left in the epoch: no roll while it is watched
  await expect(app.getByTestId('trades-tape')).toBeVisible();
  // The first asks of the screen (and any of the market picked) are answered before the watch starts.
  await expect
    .poll(async () => (await core.calls())['markets.trades'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  const before = (await core.calls())['markets.trades'] ?? 0;

  let lists = 0;
  const stop = new AbortController();
  await core.eventStream((events) => {
    lists += events.filter((e) => e.event === 'markets').length;
  }, stop.signal);
  await app.waitForTimeout(WATCH_MS);
  stop.abort();

  // The list did move meanwhile (the bots quote), and the trades were not asked for again.
  expect(lists, 'market lists sent while watching').toBeGreaterThanOrEqual(3);
  expect((await core.calls())['markets.trades'] ?? 0).toBe(before);
});
