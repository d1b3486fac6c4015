/**
 * The installed app's first day: no deployment and no built-in devnet, so the app opens on "Connect
 * to an exchange". The test's devnet plays a remote exchange: its base URL and chain node are typed,
 * main asks before contacting them and shows what it looked up (chain id, contract, domain, both
 * feeds), then asks before trusting the chain, domain and token contracts it read;
 * then the market manager checks a malformed id, an unregistered one and a registered one before
 * the registered one is added and traded on. Each step and each of main's dialogs is saved under
 * test-results/screens/.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { DialogRecord } from '../test/support/scripted-dialogs';
import { packAssetId, unpackAssetId } from '../src/shared/protocol';
import { expect, invokeInPage, SCREENS_DIR, test } from './harness/fixture';
import { noProblems, setPassword, shot } from './harness/flows';

test.use({ withDevnet: true, firstRun: true });
test.setTimeout(120_000);

/** Main's dialog as the user reads it (title, message, detail, buttons), rendered for the screenshot. */
async function dialogShot(page: Page, record: DialogRecord | undefined, name: string): Promise<void> {
  expect(record?.kind).toBe('confirm');
  if (record?.kind !== 'confirm') return;
  const view = await page.context().newPage();
  await view.setViewportSize({ width: 760, height: 560 });
  const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const r = record.request;
  await view.setContent(
    `<main style="font: 13px system-ui, sans-serif; margin: 24px; padding: 18px; border: 1px solid #999; border-radius: 8px; max-width: 680px; background: #fff; color: #111">` +
      `<h2 style="margin: 0 0 8px; font-size: 15px">[main's dialog] ${esc(r.title)}</h2>` +
      `<p style="font-weight: 600">${esc(r.message)}</p>` +
      `<pre style="white-space: pre-wrap; font: 12px ui-monospace, monospace; background: #f3f3f3; padding: 8px">${esc(r.detail)}</pre>` +
      `<p style="text-align: right">[ Cancel ] &nbsp; [ ${esc(r.confirmLabel)} ]</p></main>`,
  );
  await view.screenshot({ path: resolve(SCREENS_DIR, `${name}.png`), fullPage: true });
  await view.close();
}

test('first run: connect to an exchange, confirm what it is, add its markets, trade', async ({
  app,
  core,
  devnet,
  problems,
}) => {
  const net = (await devnet.get()).forCore;
  const status = (await invokeInPage(app, 'lock.status')).value as { locked: boolean };
  if (status.locked) await setPassword(app);

  const firstRun = app.getByTestId('first-run');
  await expect(firstRun.getByRole('heading', { level: 1 })).toHaveText('Connect to an exchange');
  await shot(app, 'first-run-1-connect');

  // Two addresses are asked for: the exchange's base URL and its chain node's; the rest is looked up.
  const form = firstRun.getByTestId('connect-form');
  await form.getByLabel(/^Name/).fill('Test exchange');
  // An unencrypted remote host is refused with a sentence, before any dialog; the input stays.
  await form.getByLabel(/^Base URL/).fill('http://exchange.example.com/api');
  await form.getByLabel(/^Chain RPC URL/).fill(net.rpcUrl);
  await form.getByRole('button', { name: 'Look up…' }).click();
  await expect(form.getByTestId('deployment-error')).toHaveText(
    /^The base URL must use https: unencrypted http is allowed only for this computer .* exchange\.example\.com is not\.$/,
  );
  await expect(form.getByLabel(/^Base URL/)).toHaveValue('http://exchange.example.com/api');
  expect((await core.dialogs()).shown).toHaveLength(0);
  await shot(app, 'first-run-2-refused');

  // The devnet's own address (loopback: plain http is fine). Main asks before contacting it, then shows
  // what the node and the exchange said: the chain id, the exchange contract, its signing domain, and
  // the two feeds found answering at their usual addresses.
  await form.getByLabel(/^Base URL/).fill(net.httpUrl);
  await core.dialogs({ kind: 'confirm', yes: true });
  await form.getByRole('button', { name: 'Look up…' }).click();
  const found = form.getByTestId('discovered');
  await expect(found).toBeVisible({ timeout: 20_000 });
  const fact = (what: string) => found.getByTestId('discovered-fact').filter({ hasText: what });
  await expect(fact('Chain id')).toContainText(net.chainId.toString());
  await expect(fact('Chain id')).toContainText('✓');
  await expect(fact('Exchange contract')).toContainText(/0x[0-9a-fA-F]{40}/);
  await expect(fact('Signing domain')).toContainText('Service Exchange');
  await expect(fact('Market feed')).toContainText(net.marketWsUrl);
  await expect(fact('Oracle feed')).toContainText(net.oracleWsUrl);
  await expect(found.getByTestId('discovered-fact').filter({ hasText: '✕' })).toHaveCount(0);
  const [lookUp] = (await core.dialogs()).shown;
  expect(lookUp).toMatchObject({ kind: 'confirm', request: { title: 'Look up an exchange' } });
  await shot(app, 'first-run-3-discovered');
  await dialogShot(app, lookUp, 'first-run-3-dialog-look-up');

  // Connecting with what was found: the contact was just allowed, so main's next dialog is the trust one.
  await core.dialogs({ kind: 'confirm', yes: true });
  await form.getByRole('button', { name: 'Connect…' }).click();
  await expect(firstRun.getByRole('heading', { level: 1 })).toHaveText('Add markets to Test exchange');
  const shown = (await core.dialogs()).shown;
  expect(shown).toHaveLength(2);
  const trust = shown[1];
  expect(trust).toMatchObject({ kind: 'confirm', request: { title: 'Trust this exchange' } });
  expect(trust?.kind === 'confirm' ? trust.request.detail : '').toContain(`Chain id: ${net.chainId}`);
  await dialogShot(app, trust, 'first-run-4-dialog-trust');
  await shot(app, 'first-run-5-connected');

  const manager = firstRun.getByTestId('market-manager');
  const pasteAndCheck = async (text: string): Promise<void> => {
    await manager.getByLabel('Asset id').fill(text);
    await manager.getByRole('button', { name: 'Check' }).click();
  };
  // A malformed id: the sentence, nothing asked.
  await pasteAndCheck('12abc');
  await expect(manager.getByTestId('market-error')).toContainText('decimal digits only');
  await shot(app, 'first-run-6-market-malformed');

  // A well-formed id the exchange does not list: decoded, "not registered", no way to add it.
  const registered = net.markets[0]!.assetId;
  const f = unpackAssetId(registered);
  const unregistered = packAssetId({ ...f, id: 77n, startTime: f.startTime + 60n });
  await pasteAndCheck(unregistered.toString());
  const inspected = manager.getByTestId('market-inspected');
  await expect(inspected).toContainText('Not registered', { timeout: 15_000 });
  await expect(inspected).toContainText('77');
  await expect(inspected.getByRole('button', { name: 'Add market' })).toHaveCount(0);
  await shot(app, 'first-run-7-market-unregistered');

  // A registered one: decoded, registered, the oracle has a price; named and added after main's yes.
  await pasteAndCheck(registered.toString());
  await expect(inspected).toContainText('Registered', { timeout: 15_000 });
  await expect(inspected).toContainText('and the oracle has a price for it');
  await shot(app, 'first-run-8-market-registered');
  await inspected.getByLabel('Market name').fill('BTC');
  await core.dialogs({ kind: 'confirm', yes: true });
  await inspected.getByRole('button', { name: 'Add market' }).click();
  await expect(manager.getByTestId('market-list')).toContainText('BTC');
  await dialogShot(app, (await core.dialogs()).shown.at(-1), 'first-run-9-dialog-add-market');
  await shot(app, 'first-run-10-market-added');

  await firstRun.getByRole('button', { name: 'Start trading' }).click();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('Markets');
  await expect(app.getByText('BTC').first()).toBeVisible({ timeout: 20_000 });
  await shot(app, 'first-run-11-markets');

  // Settings: the deployment with its pinned domain, and its market manager.
  await app.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Settings' }).click();
  const panel = app.getByTestId('deployments');
  await expect(panel.locator('tbody tr').first()).toContainText('Service Exchange');
  await panel.getByRole('button', { name: 'Markets (1)' }).click();
  await expect(panel.getByTestId('market-list')).toContainText('BTC');
  await shot(app, 'first-run-12-settings');

  // A rename is one more yes in main's dialog; the addresses and the pin stay.
  await panel.getByRole('button', { name: 'Edit' }).click();
  const edit = panel.getByTestId('deployment-form');
  await edit.getByLabel(/^Name/).fill('Test exchange (renamed)');
  await core.dialogs({ kind: 'confirm', yes: true });
  await edit.getByRole('button', { name: 'Save changes…' }).click();
  await expect(panel.locator('tbody tr').first()).toContainText('Test exchange (renamed)');
  expect((await core.dialogs()).shown.at(-1)).toMatchObject({
    kind: 'confirm',
    request: { title: 'Rename deployment' },
  });
  await expect(panel.locator('tbody tr').first()).toContainText('Service Exchange');
  await noProblems(app, problems);
});
