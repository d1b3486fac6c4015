/**
 * Flow: the air-gapped round trip by file, in two windows on two app cores. The online core watches
 * a master by its address alone (no key) on the devnet; the signing core holds the key and has no
 * exchange at all. An order is prepared online, saved as a file (main's save dialog), opened on the
 * signer (main's open dialog), read in words with the same fingerprint, its domain trusted through
 * main's dialog, signed, saved, opened online, checked and sent: it rests on the devnet's book.
 * Screenshots of both sides at each step.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, invokeInPage, test } from './harness/fixture';
import { harnessClient, type HarnessClient } from './harness/client';
import { startCoreServer, type CoreServer } from './harness/core-server';
import { installTerminal } from './harness/install-terminal';
import {
  PASSWORD,
  accountBook,
  addressOf,
  btc5m,
  freshEpoch,
  noProblems,
  open,
  randomKey,
  setPassword,
  shot,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(150_000);

/** The signer's own password: on the lock screen (file vault), or through the bridge after its own dialog (keychain). */
async function signerPassword(page: Page, signer: HarnessClient): Promise<void> {
  const status = (await invokeInPage(page, 'lock.status')).value as { locked: boolean; hasPassword: boolean };
  if (status.locked) {
    const lock = page.getByTestId('lock-screen');
    await lock.getByLabel('New app password', { exact: true }).fill(PASSWORD);
    await lock.getByLabel('New app password again').fill(PASSWORD);
    await lock.getByRole('button', { name: 'Set password' }).click();
    await expect(lock).toHaveCount(0);
  } else if (!status.hasPassword) {
    await signer.dialogs({ kind: 'confirm', yes: true });
    expect((await invokeInPage(page, 'lock.setPassword', { password: PASSWORD, passwordAgain: PASSWORD })).ok).toBe(
      true,
    );
  }
}

test('an order round trip by file between a watch-only window and a signing window', async ({
  app,
  core,
  devnet,
  renderer,
  browser,
  problems,
}) => {
  const net = await devnet.get();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-airgap-'));
  let signerServer: CoreServer | null = null;
  const signerPage = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  try {
    const key = randomKey();
    const master = addressOf(key);
    await net.handle.exchange.credit(master, 100_000_000n);

    // The signing window: its own core, no exchange, alice's key.
    signerServer = await startCoreServer({});
    const signer = { ...harnessClient(signerServer), server: signerServer };
    const terminal = await installTerminal(signerPage, signer);
    await signerPage.goto(renderer.url);
    await signerPassword(signerPage, signer);
    expect(
      (await invokeInPage(signerPage, 'keys.importPrivateKey', { privateKey: key, label: 'cold master' })).ok,
    ).toBe(true);

    // The online window: watch the master by its address.
    await setPassword(app);
    await open(app, 'Keys', 'Keys');
    const watch = app.getByTestId('watch-only');
    await watch.getByTestId('watch-address').fill(master);
    await watch.getByLabel('Label').fill('cold master');
    await watch.getByTestId('watch-add').click();
    await expect(watch).toContainText('watch-only');
    await expect(app.getByTestId('account-select')).toHaveValue(master);
    await shot(app, 'airgap-1-online-watch-only');

    // Prepare the order for offline signing.
    const market = await freshEpoch(app, btc5m, 60_000);
    await open(app, 'Offline signing', 'Offline signing');
    const prepare = app.getByTestId('airgap-prepare');
    await expect(prepare).toContainText('watch-only');
    await prepare.getByTestId('prepare-kind').selectOption('order');
    await prepare
      .locator('label.row')
      .filter({ hasText: /^Market/ })
      .locator('select')
      .selectOption(market.assetId);
    await expect(prepare.getByRole('textbox', { name: 'Epoch' })).toHaveValue(market.epoch);
    await prepare.getByTestId('prepare-price').fill('31');
    await prepare.getByTestId('prepare-size').fill('4');
    await prepare.getByTestId('prepare-submit').click();
    const pending = app.getByTestId('pending-request').first();
    await expect(pending).toContainText('Buy 4 contracts at 31¢ (GTC)');
    const fingerprint = ((await pending.getByTestId('fingerprint').textContent()) ?? '').trim();
    expect(fingerprint).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
    await shot(app, 'airgap-2-online-prepared');

    // Save it: main's save dialog, answered with a temp path.
    const requestFile = join(dir, 'request.json');
    await core.dialogs({ kind: 'saveFile', path: requestFile });
    await pending.getByTestId('save-request').click();
    await expect(app.getByTestId('toast').filter({ hasText: requestFile })).toBeVisible();

    // The signer opens it: the same words and fingerprint; its domain is new here.
    await open(signerPage, 'Offline signing', 'Offline signing');
    await signer.dialogs({ kind: 'openFile', content: readFileSync(requestFile, 'utf8') });
    await signerPage.getByTestId('open-request').click();
    const received = signerPage.getByTestId('received-request').first();
    await expect(received.getByTestId('fingerprint')).toHaveText(fingerprint);
    await expect(received).toContainText('Buy 4 contracts at 31¢ (GTC)');
    await expect(received).toContainText('never trusted this signing domain');
    await shot(signerPage, 'airgap-3-signer-opened');

    // Trust the domain only through main's dialog, which shows the fingerprint.
    await signer.dialogs({ kind: 'confirm', yes: true });
    await received.getByTestId('trust-domain').click();
    await expect(received.getByTestId('sign-request')).toBeVisible();
    const shown = await signer.dialogs();
    const trustDialog = shown.shown.filter((d) => d.kind === 'confirm').at(-1)!;
    expect(trustDialog.request.detail).toContain(fingerprint);

    await received.getByTestId('sign-request').click();
    await expect(received).toContainText('signed');
    const responseFile = join(dir, 'response.json');
    await signer.dialogs({ kind: 'saveFile', path: responseFile });
    await received.getByTestId('save-response').click();
    await expect(signerPage.getByTestId('toast').filter({ hasText: responseFile })).toBeVisible();
    await shot(signerPage, 'airgap-4-signer-signed');

    // Back online: open the response, main checks it matches, then send it.
    await core.dialogs({ kind: 'openFile', content: readFileSync(responseFile, 'utf8') });
    await app.getByTestId('open-response').click();
    await expect(pending).toContainText('ready to send');
    await shot(app, 'airgap-5-online-response-checked');
    await pending.getByTestId('send-request').click();
    await expect(pending).toContainText('sent: ACCEPTED');
    await expect
      .poll(async () => (await accountBook(net, market.assetId, market.epoch, master)).buys.length, { timeout: 20_000 })
      .toBe(1);
    // The watch-only window shows it among the account's open orders, as for a key it holds.
    await expect
      .poll(async () => {
        const view = (await invokeInPage(app, 'account.get')).value as { openOrders: { price: string }[] };
        return view.openOrders.map((o) => o.price);
      })
      .toEqual(['310000']);
    await open(app, 'Orders', 'Orders and positions');
    await shot(app, 'airgap-6-online-order-rests');

    await noProblems(app, problems);
    await terminal.stop();
  } finally {
    await signerPage.close();
    await signerServer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
