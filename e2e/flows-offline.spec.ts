/**
 * Flow: offline signing. An order built on the Offline screen is signed by main with no network,
 * saved as a file (saveFile answered by the test with a temp path), opened again (openFile answered
 * with that file), described (lines, digest, valid signature), submitted, and seen on the book.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './harness/fixture';
import {
  accountBook,
  btc5m,
  freshEpoch,
  freshFundedMaster,
  noProblems,
  open,
  pickMarket,
  setPassword,
  shot,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(120_000);

test('sign offline, save, open, describe and submit', async ({ app, core, devnet, problems }) => {
  const net = await devnet.get();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-offline-'));
  try {
    await setPassword(app);
    const master = await freshFundedMaster(app, net, 100n);
    const market = await freshEpoch(app, btc5m, 40_000);

    await open(app, 'Offline signing', 'Offline signing');
    const build = app.getByTestId('offline-build');
    await build.getByRole('combobox', { name: 'Signer' }).selectOption({ index: 1 });
    await build.getByRole('combobox', { name: 'Action' }).first().selectOption('order');
    await pickMarket(build, market);
    await build.getByRole('combobox', { name: 'Side' }).selectOption('buy');
    await build.getByRole('textbox', { name: 'Price (¢)' }).fill('33');
    await build.getByRole('textbox', { name: 'Size' }).fill('2');
    // An order signed here passes the order gate: with order confirmation on, main's dialog asks.
    await core.dialogs({ kind: 'confirm', yes: true });
    await build.getByRole('button', { name: 'Sign offline' }).click();
    const signed = build.getByTestId('payload-description');
    await expect(signed.locator('.lines li').first()).toContainText(/Buy 2/i);
    await expect(signed).toContainText('✓ valid');
    const digest = (await signed.locator('.digest').textContent())?.trim() ?? '';
    expect(digest).toMatch(/^0x[0-9a-f]{64}$/);

    // Save as a file: main's save dialog, answered with a temp path.
    const file = join(dir, 'order.signed.json');
    await core.dialogs({ kind: 'saveFile', path: file });
    await build.getByRole('button', { name: 'Save as file…' }).click();
    await expect(app.getByTestId('toast').filter({ hasText: file })).toBeVisible();
    const content = readFileSync(file, 'utf8');
    expect(content).toContain('signature');

    // Open it again: main's open dialog, answered with that file.
    const openPanel = app.getByTestId('offline-open');
    await core.dialogs({ kind: 'openFile', content });
    await openPanel.getByRole('button', { name: 'Open a signed file…' }).click();
    const described = openPanel.getByTestId('payload-description');
    await expect(described).toContainText('✓ valid');
    await expect(described).toContainText('✓ matches this deployment');
    await expect(described.locator('.digest')).toHaveText(digest);
    await expect(described.locator('.lines li').first()).toContainText(/Buy 2/i);
    // Sending it passes the gate again (main's order dialog: "Send an order signed earlier").
    await core.dialogs({ kind: 'confirm', yes: true });
    await openPanel.getByRole('button', { name: 'Submit to the exchange' }).click();
    await expect(openPanel.locator('p.muted').last()).toContainText(/answered: resting/);

    // On the book: the exchange's own view, and the terminal's open orders.
    const book = await accountBook(net, market.assetId, market.epoch, master);
    expect(JSON.stringify(book.buys)).toContain('330000');
    await shot(app, 'flows-offline');
    await open(app, 'Orders', 'Orders and positions');
    await expect(app.getByTestId('open-orders')).toContainText('33.0¢');
    await noProblems(app, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
