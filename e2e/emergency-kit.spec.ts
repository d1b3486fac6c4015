/**
 * The Kit panel on both sides. Key side: a master key in the vault makes an emergency kit for the
 * BTC 5m market (main's dialog answered yes) and saves it as a file. Watch side, a core with no key
 * at all: the kit is taken in from that file, an order of the master placed afterwards (from the
 * test process, with the master's key) rests, and the big Panic button cancels it, on the person's
 * click only: a click the page's script dispatches, or a bare bridge call, is refused and sends nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetClient } from '../src/exchange/bots/devnet-client';
import type { Address, Hex } from '../src/shared/protocol';
import { GESTURE_WINDOW_MS } from '../src/main/core/user-presence';
import { expect, invokeInPage, test } from './harness/fixture';
import {
  USD,
  accountBook,
  addressOf,
  btc5m,
  freshEpoch,
  importMaster,
  noProblems,
  open,
  randomKey,
  setPassword,
  shot,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(120_000);
test.describe.configure({ mode: 'serial' });

const dir = mkdtempSync(join(tmpdir(), 'e2e-kit-'));
const kitFile = join(dir, 'kit.json');
let masterKey: Hex;
let master: Address;

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('key side: make an emergency kit and save it', async ({ app, core, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  masterKey = randomKey();
  master = addressOf(masterKey);
  await net.handle.exchange.credit(master, 100n * USD);
  await importMaster(app, masterKey, 'Kit master');
  await freshEpoch(app, btc5m, 60_000);

  await open(app, 'Offline signing', 'Offline signing');
  const make = app.getByTestId('kit-make');
  await make.getByRole('combobox', { name: 'Master key' }).selectOption({ index: 1 });
  await make.getByRole('checkbox', { name: 'BTC 5m' }).check();
  await make.getByRole('spinbutton', { name: 'Epochs from now' }).fill('6');
  await make.getByRole('spinbutton', { name: 'Cancel-alls per epoch' }).fill('3');
  await expect(make).toContainText('19 signatures.');
  await core.dialogs({ kind: 'confirm', yes: true });
  await make.getByRole('button', { name: 'Sign the kit…' }).click();
  const coverage = make.getByTestId('kit-coverage');
  await expect(coverage).toContainText('0 used · 18 unused of 18');
  await expect(coverage).toContainText('BTC 5m');

  await core.dialogs({ kind: 'saveFile', path: kitFile });
  await make.getByRole('button', { name: 'Save as file…' }).click();
  await expect(app.getByTestId('toast').filter({ hasText: kitFile })).toBeVisible();
  await expect(app.getByTestId('kit-kept')).toContainText('Made here');
  await app.getByRole('heading', { name: 'Emergency kit' }).scrollIntoViewIfNeeded();
  await shot(app, 'kit-key-side');
  await noProblems(app, problems);
});

test('watch side, no key: take the kit in and panic', async ({ app, core, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  await open(app, 'Offline signing', 'Offline signing');
  const kept = app.getByTestId('kit-kept');
  await core.dialogs({ kind: 'openFile', content: readFileSync(kitFile, 'utf8') });
  await kept.getByRole('button', { name: 'Open a kit file…' }).click();
  await expect(kept).toContainText('Taken in');
  await expect(kept.getByTestId('kit-coverage')).toContainText('0 used · 18 unused of 18');

  // The master's order, placed after the kit was made, from the test process with the master's key.
  const market = await freshEpoch(app, btc5m, 20_000);
  const client = devnetClient(net.handle, masterKey);
  const placed = await client.placeOrder({
    assetId: BigInt(market.assetId),
    epoch: BigInt(market.epoch),
    side: 'buy',
    price: 250_000n,
    size: 2n * USD,
    timeInForce: 'GTC',
  });
  expect(placed.delivery).toBe('answered');
  expect((await accountBook(net, market.assetId, market.epoch, master)).buys).toHaveLength(1);

  // The window's own script cannot panic: a click it dispatches is not the person's, nor is a bare
  // call. (Once the person's last press, opening the file, is older than the gesture window: a
  // script firing right after any press of the person is the limit, see user-presence.ts.)
  await core.advanceClock(GESTURE_WINDOW_MS + 1_000);
  await kept.getByTestId('panic').evaluate((button) => (button as unknown as { click(): void }).click());
  await expect(
    app.getByTestId('toast').filter({ hasText: 'Panic needs your click or key press: press the Panic button' }),
  ).toBeVisible();
  expect(await invokeInPage(app, 'kit.panic', null)).toMatchObject({
    ok: false,
    error: { code: 'kit.needs_person' },
  });
  await expect(kept.getByTestId('kit-coverage')).toContainText('0 used · 18 unused of 18');
  expect((await accountBook(net, market.assetId, market.epoch, master)).buys).toHaveLength(1);

  // The person's click (Playwright's, trusted: the harness forwards it as Electron's input events would).
  await kept.getByTestId('panic').click();
  await expect(kept.getByTestId('panic-result')).toContainText('Cancel all on BTC 5m');
  await expect(kept.getByTestId('panic-result')).toContainText('answered: cancelled');
  await expect(kept.getByTestId('kit-coverage')).toContainText('1 used · 17 unused of 18');
  await expect.poll(async () => (await accountBook(net, market.assetId, market.epoch, master)).buys.length).toBe(0);
  await kept.scrollIntoViewIfNeeded();
  await shot(app, 'kit-watch-side');
  await noProblems(app, problems);
});
