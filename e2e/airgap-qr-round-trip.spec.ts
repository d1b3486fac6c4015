/**
 * Flow: the air-gapped round trip by QR codes, through a fake camera both ways, on two app cores.
 * The online core watches a master by its address alone (no key) on the devnet; the signing core
 * runs in offline mode and holds the key. The online window shows each unsigned request as QR codes
 * (no file); the test captures them from the screen into a Y4M video that is the camera of a
 * Chromium showing the signer, which scans, reads the same fingerprint and signs (the domain trusted
 * once, through main's dialog). The signer shows the response as codes; those are captured into a
 * second video, the camera of a Chromium showing the online core, which scans, checks and sends
 * them. An order rests on the book; a cancel-all empties it; the winnings of a filled order are
 * claimed once its epoch resolves; a withdrawal, asked in main's dialog on both machines, is paid
 * on chain to a fresh receiver. Screenshots of both sides at each step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { depositAndWait } from '../src/devnet/bot/client-venue';
import {
  newestPending,
  prepareFor,
  roundTripByFile,
  roundTripByQr,
  signerPassword,
  watchMaster,
  type CameraWindow,
} from './harness/airgap';
import type { Browser } from '@playwright/test';
import { harnessClient, type HarnessClient } from './harness/client';
import { startCoreServer, type CoreServer } from './harness/core-server';
import { claimableMarkets } from './harness/devnet';
import { expect, invokeInPage, test } from './harness/fixture';
import {
  USD,
  accountBook,
  addressOf,
  counterparty,
  freshEpoch,
  noProblems,
  open,
  randomKey,
  setPassword,
  shot,
  tokenBalance,
  type MarketRow,
} from './harness/flows';
import { installTerminal } from './harness/install-terminal';

test.use({ withDevnet: true, devnetOptions: { markets: claimableMarkets(20) } });
test.setTimeout(360_000);

const eth = (m: MarketRow): boolean => m.symbol === 'ETH';
const btc = (m: MarketRow): boolean => m.symbol === 'BTC';

test('an order, a cancel-all, a claim and a withdrawal, each by QR codes through a fake camera both ways, watch-only and offline signer', async ({
  app,
  core,
  devnet,
  renderer,
  browser,
  problems,
}) => {
  const net = await devnet.get();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-airgap-qr-'));
  let signerServer: CoreServer | null = null;
  const opened: CameraWindow[] = [];
  const otherProblems: string[] = [];
  try {
    const key = randomKey();
    const master = addressOf(key);
    await net.handle.exchange.credit(master, 100n * USD);

    // The online window: watch the master by its address.
    await setPassword(app);
    await watchMaster(app, master, 'cold master');
    await shot(app, 'airgap-qr-0-online-watch-only');

    // The signer: its own core in offline mode, the master's key; each scan opens it in a window
    // whose camera plays the codes the online side showed.
    signerServer = await startCoreServer({ launchedOffline: true });
    const signerClient = harnessClient(signerServer);
    const trip = {
      dir,
      onlineClient: core,
      signerClient,
      rendererUrl: renderer.url,
      opened,
      problems: otherProblems,
    };

    // An order on the hourly market, shown as codes: no file on the way. It rests on the book.
    const ethMarket = await freshEpoch(app, eth, 120_000);
    const prepare = await prepareFor(app, 'order', ethMarket);
    await prepare.getByTestId('prepare-price').fill('31');
    await prepare.getByTestId('prepare-size').fill('4');
    await prepare.getByTestId('prepare-submit').click();
    await expect((await newestPending(app)).pending).toContainText('Buy 4 contracts at 31¢ (GTC)');
    const firstSigner = await installSigner(signerClient, key, renderer.url, browser);
    const order = await roundTripByQr({
      ...trip,
      onlinePage: app,
      name: 'airgap-qr-order',
      received: /^Received an unsigned order request\.$/,
      trustDomain: true,
    });
    await firstSigner.close();
    await expect(order.received).toContainText('Buy 4 contracts at 31¢ (GTC)');
    await order.pending.getByTestId('send-request').click();
    await expect(order.pending).toContainText('sent: ACCEPTED');
    await expect
      .poll(async () => (await accountBook(net, ethMarket.assetId, ethMarket.epoch, master)).buys.length, {
        timeout: 20_000,
      })
      .toBe(1);
    await expect
      .poll(async () => {
        const view = (await invokeInPage(order.online, 'account.get')).value as { openOrders: { price: string }[] };
        return view.openOrders.map((o) => o.price);
      })
      .toEqual(['310000']);
    await open(order.online, 'Orders', 'Orders and positions');
    await shot(order.online, 'airgap-qr-order-6-online-rests');

    // A cancel-all for that market, by QR both ways again: the resting order is gone from the book.
    await (await prepareFor(order.online, 'cancelAll', ethMarket)).getByTestId('prepare-submit').click();
    const cancelAll = await roundTripByQr({
      ...trip,
      onlinePage: order.online,
      name: 'airgap-qr-cancel-all',
      received: /^Received an unsigned .+ request\.$/,
    });
    await cancelAll.pending.getByTestId('send-request').click();
    await expect(cancelAll.pending).toContainText('sent: CANCELLED');
    await expect
      .poll(async () => (await accountBook(net, ethMarket.assetId, ethMarket.epoch, master)).buys.length, {
        timeout: 20_000,
      })
      .toBe(0);
    await open(cancelAll.online, 'Orders', 'Orders and positions');
    await expect(cancelAll.online.getByText('No open orders')).toBeVisible();
    await shot(cancelAll.online, 'airgap-qr-cancel-all-6-online-empty');

    // A position to claim: an order that fills against another account's sell on the short BTC
    // market, where Up wins (its way by file here: the claim is the QR trip under test).
    let online = cancelAll.online;
    const btcMarket = await freshEpoch(online, btc, 13_000);
    const other = await counterparty(net, 20n);
    await other.client.placeOrder({
      assetId: BigInt(btcMarket.assetId),
      epoch: BigInt(btcMarket.epoch),
      side: 'sell',
      price: 500_000n,
      size: '2',
    });
    const fill = await prepareFor(online, 'order', btcMarket);
    await fill.getByTestId('prepare-price').fill('50');
    await fill.getByTestId('prepare-size').fill('2');
    await fill.getByLabel('Time in force').selectOption('IOC');
    await fill.getByTestId('prepare-submit').click();
    const taken = await roundTripByFile({
      dir,
      online: { page: online, client: core },
      signer: { page: cancelAll.signerPage, client: signerClient },
      name: 'airgap-qr-fill-by-file',
    });
    await taken.pending.getByTestId('send-request').click();
    await expect(taken.pending).toContainText('sent: FILLED');

    // The epoch resolves; the claims panel prepares its claim, which goes by QR both ways.
    await open(online, 'Funds', 'Funds');
    const row = online.getByTestId('claims').locator('tbody tr', { hasText: btcMarket.epoch });
    await expect(row).toContainText('$2.00', { timeout: 60_000 });
    const availableOf = async (page: typeof online): Promise<bigint> => {
      const view = (await invokeInPage(page, 'account.get')).value as { balance: { available: string } | null };
      return BigInt(view.balance?.available ?? '0');
    };
    const before = await availableOf(online);
    await row.getByRole('button', { name: 'Claim' }).click();
    await expect(online.getByTestId('toast').filter({ hasText: 'Prepared for offline signing' }).first()).toBeVisible();
    const claim = await roundTripByQr({
      ...trip,
      onlinePage: online,
      name: 'airgap-qr-claim',
      received: /^Received an unsigned claim request\.$/,
    });
    await expect(claim.received).toContainText(btcMarket.epoch);
    await claim.pending.getByTestId('send-request').click();
    await expect(claim.pending).toContainText('sent: CLAIMED');
    online = claim.online;
    await expect.poll(() => availableOf(online), { timeout: 20_000 }).toBe(before + 2n * USD);
    await open(online, 'Funds', 'Funds');
    await expect(online.getByTestId('claims')).toContainText('Nothing to claim.');
    await shot(online, 'airgap-qr-claim-6-online-claimed');

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
    const withdraw = await prepareFor(online, 'withdrawal');
    await withdraw.getByLabel('Amount (USD)').fill('7');
    await withdraw.getByLabel('Receiver').fill(receiver);
    await withdraw.getByTestId('prepare-submit').click();
    await expect((await newestPending(online)).pending).toContainText('$7.00');
    const paid = await roundTripByQr({
      ...trip,
      onlinePage: online,
      name: 'airgap-qr-withdrawal',
      received: /^Received an unsigned .+ request\.$/,
      confirmSign: true,
    });
    await expect(paid.received).toContainText('$7.00');
    const signDialog = (await signerClient.dialogs()).shown.filter((d) => d.kind === 'confirm').at(-1)!;
    expect(signDialog.request.detail).toContain('$7.00');
    await core.dialogs({ kind: 'confirm', yes: true });
    await paid.pending.getByTestId('send-request').click();
    await expect(paid.pending).toContainText('sent');
    // Paid on chain by the operator: the receiver's tokens rise, and the withdrawals list says PAID.
    await expect.poll(() => tokenBalance(net, receiver), { timeout: 60_000, intervals: [500] }).toBe(7n * USD);
    await expect
      .poll(
        async () => {
          const list = (await invokeInPage(paid.online, 'funds.withdrawals')).value as {
            amount: string;
            status: string;
          }[];
          return list.find((w) => w.amount === '7000000')?.status;
        },
        { timeout: 60_000, intervals: [1000] },
      )
      .toBe('PAID');
    await open(paid.online, 'Funds', 'Funds');
    await shot(paid.online, 'airgap-qr-withdrawal-6-online-paid');

    await noProblems(app, problems);
    expect(otherProblems).toEqual([]);
  } finally {
    for (const window of opened) await window.stop();
    for (const window of opened) await window.browser.close();
    await signerServer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The signer's first window (no camera): its password and the master's key, as the user sets
 * them up once on the offline machine. Closed before the first scan.
 */
async function installSigner(
  signerClient: HarnessClient,
  key: string,
  rendererUrl: string,
  browser: Browser,
): Promise<{ close: () => Promise<void> }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const terminal = await installTerminal(page, signerClient);
  await page.goto(rendererUrl);
  await expect(page.getByTestId('offline-mode')).toBeVisible();
  await signerPassword(page, signerClient);
  expect((await invokeInPage(page, 'keys.importPrivateKey', { privateKey: key, label: 'cold master' })).ok).toBe(true);
  await shot(page, 'airgap-qr-0-signer-offline-mode');
  return {
    close: async () => {
      await terminal.stop();
      await page.close();
    },
  };
}
