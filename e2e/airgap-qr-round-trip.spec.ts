/**
 * Flow: the air-gapped round trip by QR codes, through a fake camera both ways, on two app cores.
 * The online core watches a master by its address alone (no key) on the devnet; the signing core
 * runs in offline mode and holds the key. The online window shows the unsigned order as QR codes
 * (no file); the test captures them from the screen into a Y4M video that is the camera of a
 * Chromium showing the signer, which scans, reads the same fingerprint, trusts the domain through
 * main's dialog and signs. The signer shows the response as codes; those are captured into a second
 * video, the camera of a Chromium showing the online core, which scans, checks and sends them: the
 * order rests on the devnet's book. A cancel-all takes the same way back and forth and empties the
 * book; a withdrawal, asked in main's dialog on both machines, is paid on chain to a fresh receiver.
 * Screenshots of both sides at each step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import type { RgbaImage } from '../src/renderer/lib/qr/qr-code';
import { readQr } from '../src/renderer/lib/qr/qr-code';
import { CHROMIUM_ARGS, findChromium } from './chromium';
import { harnessClient, type HarnessClient } from './harness/client';
import { startCoreServer, type CoreServer } from './harness/core-server';
import { fakeCameraArgs, writeImageVideo } from './harness/fake-camera';
import { expect, invokeInPage, test } from './harness/fixture';
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
  tokenBalance,
} from './harness/flows';
import { installTerminal } from './harness/install-terminal';
import { depositAndWait } from '../src/devnet/bot/client-venue';
import { decodePng } from './harness/png';

test.use({ withDevnet: true });
test.setTimeout(300_000);

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

/**
 * Codes a QR display shows, captured as the screen draws it: paused, larger, one after another. The
 * display was already playing, so the first plain parts may have gone by: twice as many codes as
 * parts (the later ones fountain mixes) let the reader rebuild the whole from any starting point.
 */
async function captureCodes(display: Locator, dir: string, name: string): Promise<RgbaImage[]> {
  const counter = await display.getByTestId('qr-counter').textContent();
  const parts = Number(/(\d+) codes? makes? the whole/.exec(counter ?? '')?.[1] ?? '1');
  await display.getByRole('button', { name: 'Pause' }).click();
  await display.getByRole('button', { name: 'Larger view' }).click();
  const code = display.getByTestId('qr-code');
  const frames: RgbaImage[] = [];
  for (let i = 0; i < 2 * parts + 4; i++) {
    const shown = Number(await code.getAttribute('data-shown'));
    const part = await code.getAttribute('data-part');
    // What the screen shows is the part main handed out, readable as captured (once the larger
    // view has settled: a capture mid-resize is taken again).
    let frame: RgbaImage | null = null;
    await expect
      .poll(async () => {
        frame = decodePng(await code.screenshot({ path: join(dir, `${name}-${i}.png`) }));
        return readQr(frame);
      })
      .toBe(part);
    frames.push(frame!);
    await display.getByRole('button', { name: 'Next code' }).click();
    await expect(code).toHaveAttribute('data-shown', String(shown + 1));
  }
  await display.getByRole('button', { name: 'Smaller view' }).click();
  return frames;
}

/** A Chromium whose camera plays `frames`, and a page on it showing the renderer wired to `client`'s core. */
async function cameraPage(
  frames: RgbaImage[],
  video: string,
  rendererUrl: string,
  client: HarnessClient,
  problems: string[],
): Promise<{ browser: Browser; page: Page; stop: () => Promise<void> }> {
  const file = await writeImageVideo(video, frames, { width: 720, height: 680 });
  const browser = await chromium.launch({
    executablePath: findChromium()!,
    headless: true,
    args: [...CHROMIUM_ARGS, ...fakeCameraArgs(file)],
  });
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  await context.grantPermissions(['camera'], { origin: new URL(rendererUrl).origin });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  const terminal = await installTerminal(page, client);
  await page.goto(rendererUrl);
  return { browser, page, stop: () => terminal.stop() };
}

/** Scan the codes the camera shows in the QR panel's scan dialog, until main has received them whole. */
async function scanWithCamera(page: Page, fingerprint: string, what: RegExp, screen: string): Promise<void> {
  await open(page, 'Offline signing', 'Offline signing');
  await page.getByTestId('qr-transfer').getByRole('button', { name: 'Scan QR codes…' }).click();
  const dialog = page.getByTestId('scan-dialog');
  const progress = dialog.getByTestId('scan-progress');
  await expect(progress).toHaveAttribute('data-state', 'complete', { timeout: 120_000 });
  await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(fingerprint);
  await expect(dialog.getByTestId('scan-status')).toHaveText(what);
  await shot(page, screen);
  await dialog.getByRole('button', { name: 'Done' }).click();
}

test('an order, a cancel-all and a withdrawal, each by QR codes through a fake camera both ways, watch-only and offline signer', async ({
  app,
  core,
  devnet,
  renderer,
  problems,
}) => {
  const net = await devnet.get();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-airgap-qr-'));
  let signerServer: CoreServer | null = null;
  const browsers: Browser[] = [];
  const stops: (() => Promise<void>)[] = [];
  const otherProblems: string[] = [];
  try {
    const key = randomKey();
    const master = addressOf(key);
    await net.handle.exchange.credit(master, 100_000_000n);

    // The online window: watch the master by its address.
    await setPassword(app);
    await open(app, 'Keys', 'Keys');
    const watch = app.getByTestId('watch-only');
    await watch.getByTestId('watch-address').fill(master);
    await watch.getByLabel('Label').fill('cold master');
    await watch.getByTestId('watch-add').click();
    await expect(watch).toContainText('watch-only');
    await expect(app.getByTestId('account-select')).toHaveValue(master);
    await shot(app, 'airgap-qr-1-online-watch-only');

    // Prepare the order for offline signing and show it as QR codes: no file on the way.
    const market = await freshEpoch(app, btc5m, 60_000);
    await open(app, 'Offline signing', 'Offline signing');
    const prepare = app.getByTestId('airgap-prepare');
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
    await pending.getByTestId('show-request-qr').click();
    const requestDisplay = pending.getByTestId('qr-display');
    await expect(requestDisplay.getByTestId('qr-fingerprint')).toHaveText(fingerprint);
    await expect(requestDisplay).toContainText('An unsigned order request');
    await requestDisplay.scrollIntoViewIfNeeded();
    await shot(app, 'airgap-qr-2-online-request-codes');
    const requestFrames = await captureCodes(requestDisplay, dir, 'request');

    // The signer: its own core in offline mode, alice's key, and a camera that plays the request codes.
    signerServer = await startCoreServer({ launchedOffline: true });
    const signer = harnessClient(signerServer);
    const signerSide = await cameraPage(requestFrames, join(dir, 'request.y4m'), renderer.url, signer, otherProblems);
    browsers.push(signerSide.browser);
    stops.push(signerSide.stop);
    const signerPage = signerSide.page;
    await expect(signerPage.getByTestId('offline-mode')).toBeVisible();
    await signerPassword(signerPage, signer);
    expect(
      (await invokeInPage(signerPage, 'keys.importPrivateKey', { privateKey: key, label: 'cold master' })).ok,
    ).toBe(true);
    await scanWithCamera(
      signerPage,
      fingerprint,
      /^Received an unsigned order request\.$/,
      'airgap-qr-3-signer-scanned',
    );

    // The same words and fingerprint; the domain is trusted only through main's dialog.
    const received = signerPage.getByTestId('received-request').first();
    await expect(received.getByTestId('fingerprint')).toHaveText(fingerprint);
    await expect(received).toContainText('Buy 4 contracts at 31¢ (GTC)');
    await expect(received).toContainText('never trusted this signing domain');
    await shot(signerPage, 'airgap-qr-4-signer-opened');
    await signer.dialogs({ kind: 'confirm', yes: true });
    await received.getByTestId('trust-domain').click();
    await received.getByTestId('sign-request').click();
    await expect(received).toContainText('signed');

    // The signer shows the response as codes; they are captured for the online machine's camera.
    await received.getByTestId('show-response-qr').click();
    const responseDisplay = received.getByTestId('qr-display');
    await expect(responseDisplay).toContainText(/signed/i);
    await responseDisplay.scrollIntoViewIfNeeded();
    await shot(signerPage, 'airgap-qr-5-signer-response-codes');
    const responseFrames = await captureCodes(responseDisplay, dir, 'response');

    // Online, a window on the same watch-only core whose camera plays the response codes.
    const onlineSide = await cameraPage(responseFrames, join(dir, 'response.y4m'), renderer.url, core, otherProblems);
    browsers.push(onlineSide.browser);
    stops.push(onlineSide.stop);
    const online = onlineSide.page;
    await scanWithCamera(online, fingerprint, /^Received a signed response\.$/, 'airgap-qr-6-online-scanned');
    const checked = online.getByTestId('pending-request').first();
    await expect(checked).toContainText('ready to send');
    await shot(online, 'airgap-qr-7-online-response-checked');
    await checked.getByTestId('send-request').click();
    await expect(checked).toContainText('sent: ACCEPTED');
    await expect
      .poll(async () => (await accountBook(net, market.assetId, market.epoch, master)).buys.length, { timeout: 20_000 })
      .toBe(1);
    await expect
      .poll(async () => {
        const view = (await invokeInPage(online, 'account.get')).value as { openOrders: { price: string }[] };
        return view.openOrders.map((o) => o.price);
      })
      .toEqual(['310000']);
    await open(online, 'Orders', 'Orders and positions');
    await shot(online, 'airgap-qr-8-online-order-rests');

    // A cancel-all for that market, by QR both ways again: the resting order is gone from the book.
    await open(online, 'Offline signing', 'Offline signing');
    const prepareAll = online.getByTestId('airgap-prepare');
    await prepareAll.getByTestId('prepare-kind').selectOption('cancelAll');
    await prepareAll
      .locator('label.row')
      .filter({ hasText: /^Market/ })
      .locator('select')
      .selectOption(market.assetId);
    await expect(prepareAll.getByRole('textbox', { name: 'Epoch' })).toHaveValue(market.epoch);
    await prepareAll.getByTestId('prepare-submit').click();
    const cancelAll = online.getByTestId('pending-request').first();
    await expect(cancelAll).toContainText('waiting for its signature');
    const cancelPrint = ((await cancelAll.getByTestId('fingerprint').textContent()) ?? '').trim();
    expect(cancelPrint).not.toBe(fingerprint);
    await cancelAll.getByTestId('show-request-qr').click();
    const cancelDisplay = cancelAll.getByTestId('qr-display');
    await expect(cancelDisplay.getByTestId('qr-fingerprint')).toHaveText(cancelPrint);
    await cancelDisplay.scrollIntoViewIfNeeded();
    await shot(online, 'airgap-qr-9-online-cancel-all-codes');
    const cancelFrames = await captureCodes(cancelDisplay, dir, 'cancel-request');

    const signerAgain = await cameraPage(cancelFrames, join(dir, 'cancel.y4m'), renderer.url, signer, otherProblems);
    browsers.push(signerAgain.browser);
    stops.push(signerAgain.stop);
    await scanWithCamera(
      signerAgain.page,
      cancelPrint,
      /^Received an unsigned .+ request\.$/,
      'airgap-qr-10-signer-scanned-cancel-all',
    );
    const cancelReceived = signerAgain.page.getByTestId('received-request').first();
    await expect(cancelReceived.getByTestId('fingerprint')).toHaveText(cancelPrint);
    // The domain is already trusted here: the request goes straight to its signature.
    await cancelReceived.getByTestId('sign-request').click();
    await expect(cancelReceived).toContainText('signed');
    await cancelReceived.getByTestId('show-response-qr').click();
    const cancelResponse = cancelReceived.getByTestId('qr-display');
    await expect(cancelResponse.getByTestId('qr-fingerprint')).toHaveText(cancelPrint);
    await cancelResponse.scrollIntoViewIfNeeded();
    await shot(signerAgain.page, 'airgap-qr-11-signer-cancel-all-response-codes');
    const cancelResponseFrames = await captureCodes(cancelResponse, dir, 'cancel-response');

    const onlineAgain = await cameraPage(
      cancelResponseFrames,
      join(dir, 'cancel-response.y4m'),
      renderer.url,
      core,
      otherProblems,
    );
    browsers.push(onlineAgain.browser);
    stops.push(onlineAgain.stop);
    await scanWithCamera(
      onlineAgain.page,
      cancelPrint,
      /^Received a signed response\.$/,
      'airgap-qr-12-online-scanned-cancel-all',
    );
    const cancelChecked = onlineAgain.page.getByTestId('pending-request').first();
    await expect(cancelChecked).toContainText('ready to send');
    await cancelChecked.getByTestId('send-request').click();
    await expect(cancelChecked).toContainText('sent: CANCELLED');
    await expect
      .poll(async () => (await accountBook(net, market.assetId, market.epoch, master)).buys.length, { timeout: 20_000 })
      .toBe(0);
    await open(onlineAgain.page, 'Orders', 'Orders and positions');
    await expect(onlineAgain.page.getByText('No open orders')).toBeVisible();
    await shot(onlineAgain.page, 'airgap-qr-13-online-cancel-all-done');

    // A withdrawal to a fresh receiver, by QR both ways: asked in main's dialog on both machines, paid on chain.
    // Credits are off chain: a real deposit by another account puts tokens in the ledger to pay it from.
    const depositor = net.handle.accounts.at(-1)!;
    await depositAndWait({
      account: depositor,
      amount: '50',
      rpcUrl: net.handle.rpcUrl,
      chainId: net.handle.chainId,
      contracts: net.handle.contracts,
      domainName: net.handle.domainName,
      confirmations: 1,
      httpUrl: net.handle.httpUrl,
    });
    const receiver = addressOf(randomKey());
    expect(await tokenBalance(net, receiver)).toBe(0n);
    const onlineW = onlineAgain.page;
    await open(onlineW, 'Offline signing', 'Offline signing');
    const prepareW = onlineW.getByTestId('airgap-prepare');
    await prepareW.getByTestId('prepare-kind').selectOption('withdrawal');
    await prepareW.getByLabel('Amount (USD)').fill('7');
    await prepareW.getByLabel('Receiver').fill(receiver);
    await prepareW.getByTestId('prepare-submit').click();
    const withdrawal = onlineW.getByTestId('pending-request').first();
    await expect(withdrawal).toContainText('waiting for its signature');
    await expect(withdrawal).toContainText('$7.00');
    const withdrawPrint = ((await withdrawal.getByTestId('fingerprint').textContent()) ?? '').trim();
    await withdrawal.getByTestId('show-request-qr').click();
    const withdrawDisplay = withdrawal.getByTestId('qr-display');
    await expect(withdrawDisplay.getByTestId('qr-fingerprint')).toHaveText(withdrawPrint);
    await withdrawDisplay.scrollIntoViewIfNeeded();
    await shot(onlineW, 'airgap-qr-14-online-withdrawal-codes');
    const withdrawFrames = await captureCodes(withdrawDisplay, dir, 'withdraw-request');

    const signerW = await cameraPage(withdrawFrames, join(dir, 'withdraw.y4m'), renderer.url, signer, otherProblems);
    browsers.push(signerW.browser);
    stops.push(signerW.stop);
    await scanWithCamera(
      signerW.page,
      withdrawPrint,
      /^Received an unsigned .+ request\.$/,
      'airgap-qr-15-signer-scanned-withdrawal',
    );
    const withdrawReceived = signerW.page.getByTestId('received-request').first();
    await expect(withdrawReceived.getByTestId('fingerprint')).toHaveText(withdrawPrint);
    await expect(withdrawReceived).toContainText('$7.00');
    // A withdrawal is always asked in main's dialog, which names the fingerprint and the amount.
    await signer.dialogs({ kind: 'confirm', yes: true });
    await withdrawReceived.getByTestId('sign-request').click();
    await expect(withdrawReceived).toContainText('signed');
    const signDialog = (await signer.dialogs()).shown.filter((d) => d.kind === 'confirm').at(-1)!;
    expect(signDialog.request.detail).toContain(withdrawPrint);
    expect(signDialog.request.detail).toContain('$7.00');
    await withdrawReceived.getByTestId('show-response-qr').click();
    const withdrawResponse = withdrawReceived.getByTestId('qr-display');
    await expect(withdrawResponse.getByTestId('qr-fingerprint')).toHaveText(withdrawPrint);
    await withdrawResponse.scrollIntoViewIfNeeded();
    await shot(signerW.page, 'airgap-qr-16-signer-withdrawal-response-codes');
    const withdrawResponseFrames = await captureCodes(withdrawResponse, dir, 'withdraw-response');

    const onlineW2 = await cameraPage(
      withdrawResponseFrames,
      join(dir, 'withdraw-response.y4m'),
      renderer.url,
      core,
      otherProblems,
    );
    browsers.push(onlineW2.browser);
    stops.push(onlineW2.stop);
    await scanWithCamera(
      onlineW2.page,
      withdrawPrint,
      /^Received a signed response\.$/,
      'airgap-qr-17-online-scanned-withdrawal',
    );
    const withdrawChecked = onlineW2.page.getByTestId('pending-request').first();
    await expect(withdrawChecked).toContainText('ready to send');
    await core.dialogs({ kind: 'confirm', yes: true });
    await withdrawChecked.getByTestId('send-request').click();
    await expect(withdrawChecked).toContainText('sent');
    // Paid on chain by the operator: the receiver's tokens rise, and the withdrawals list says PAID.
    await expect.poll(() => tokenBalance(net, receiver), { timeout: 60_000, intervals: [500] }).toBe(7_000_000n);
    await expect
      .poll(
        async () => {
          const list = (await invokeInPage(onlineW2.page, 'funds.withdrawals')).value as {
            amount: string;
            status: string;
          }[];
          return list.find((w) => w.amount === '7000000')?.status;
        },
        { timeout: 60_000, intervals: [1000] },
      )
      .toBe('PAID');
    await open(onlineW2.page, 'Funds', 'Funds');
    await shot(onlineW2.page, 'airgap-qr-18-online-withdrawal-paid');

    await noProblems(app, problems);
    expect(otherProblems).toEqual([]);
  } finally {
    for (const stop of stops) await stop();
    for (const browser of browsers) await browser.close();
    await signerServer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
