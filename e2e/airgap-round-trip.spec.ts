/**
 * Flow: the air-gapped round trip by file, in two windows on two app cores. The online core watches
 * a master by its address alone (no key) on the devnet; the signing core runs in offline mode and
 * holds the key. Each action is prepared online, saved as a file (main's save dialog), opened on the
 * signer (main's open dialog), read with the same fingerprint, signed, saved, opened online, checked
 * and sent: an order that rests, a cancel-all that takes it off the book, an order that fills, the
 * claim of its winnings once the epoch resolves, and a withdrawal paid on chain. Screenshots of both
 * sides at each step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { depositAndWait } from '../src/devnet/bot/client-venue';
import { newestPending, prepareFor, roundTripByFile, signerPassword, watchMaster } from './harness/airgap';
import { harnessClient } from './harness/client';
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
test.setTimeout(240_000);

const eth = (m: MarketRow): boolean => m.symbol === 'ETH';
const btc = (m: MarketRow): boolean => m.symbol === 'BTC';

test('an order, a cancel-all, a claim and a withdrawal, each by file between a watch-only window and an offline signer', async ({
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
    await net.handle.exchange.credit(master, 100n * USD);

    // The signing window: its own core in offline mode, the master's key.
    signerServer = await startCoreServer({ launchedOffline: true });
    const signerClient = harnessClient(signerServer);
    const terminal = await installTerminal(signerPage, signerClient);
    await signerPage.goto(renderer.url);
    await expect(signerPage.getByTestId('offline-mode')).toBeVisible();
    await signerPassword(signerPage, signerClient);
    expect(
      (await invokeInPage(signerPage, 'keys.importPrivateKey', { privateKey: key, label: 'cold master' })).ok,
    ).toBe(true);
    const signer = { page: signerPage, client: signerClient };

    // The online window: watch the master by its address.
    await setPassword(app);
    await watchMaster(app, master, 'cold master');
    await shot(app, 'airgap-file-0-online-watch-only');
    const online = { page: app, client: core };

    // An order on the hourly market, prepared here, signed there: it rests on the book.
    const ethMarket = await freshEpoch(app, eth, 60_000);
    const prepare = await prepareFor(app, 'order', ethMarket);
    await expect(prepare).toContainText('watch-only');
    await prepare.getByTestId('prepare-price').fill('31');
    await prepare.getByTestId('prepare-size').fill('4');
    await prepare.getByTestId('prepare-submit').click();
    await expect((await newestPending(app)).pending).toContainText('Buy 4 contracts at 31¢ (GTC)');
    const order = await roundTripByFile({ dir, online, signer, name: 'airgap-file-order', trustDomain: true });
    await expect(order.received).toContainText('Buy 4 contracts at 31¢ (GTC)');
    await order.pending.getByTestId('send-request').click();
    await expect(order.pending).toContainText('sent: ACCEPTED');
    await expect
      .poll(async () => (await accountBook(net, ethMarket.assetId, ethMarket.epoch, master)).buys.length, {
        timeout: 20_000,
      })
      .toBe(1);
    // The watch-only window shows it among the account's open orders, as for a key it holds.
    await expect
      .poll(async () => {
        const view = (await invokeInPage(app, 'account.get')).value as { openOrders: { price: string }[] };
        return view.openOrders.map((o) => o.price);
      })
      .toEqual(['310000']);
    await open(app, 'Orders', 'Orders and positions');
    await shot(app, 'airgap-file-order-5-online-rests');

    // A cancel-all for that market: the book is empty again.
    await (await prepareFor(app, 'cancelAll', ethMarket)).getByTestId('prepare-submit').click();
    const cancelAll = await roundTripByFile({ dir, online, signer, name: 'airgap-file-cancel-all' });
    await cancelAll.pending.getByTestId('send-request').click();
    await expect(cancelAll.pending).toContainText('sent: CANCELLED');
    await expect
      .poll(async () => (await accountBook(net, ethMarket.assetId, ethMarket.epoch, master)).buys.length, {
        timeout: 20_000,
      })
      .toBe(0);
    await open(app, 'Orders', 'Orders and positions');
    await expect(app.getByText('No open orders')).toBeVisible();
    await shot(app, 'airgap-file-cancel-all-5-online-empty');

    // An order that fills against another account's sell on the short BTC market (Up wins there).
    const btcMarket = await freshEpoch(app, btc, 13_000);
    const other = await counterparty(net, 20n);
    await other.client.placeOrder({
      assetId: BigInt(btcMarket.assetId),
      epoch: BigInt(btcMarket.epoch),
      side: 'sell',
      price: 500_000n,
      size: '2',
    });
    const fill = await prepareFor(app, 'order', btcMarket);
    await fill.getByTestId('prepare-price').fill('50');
    await fill.getByTestId('prepare-size').fill('2');
    await fill.getByLabel('Time in force').selectOption('IOC');
    await fill.getByTestId('prepare-submit').click();
    const taken = await roundTripByFile({ dir, online, signer, name: 'airgap-file-fill' });
    await taken.pending.getByTestId('send-request').click();
    await expect(taken.pending).toContainText('sent: FILLED');

    // Once the epoch resolves, its claim is prepared from the Funds screen's claims panel.
    await open(app, 'Funds', 'Funds');
    const claims = app.getByTestId('claims');
    const row = claims.locator('tbody tr', { hasText: btcMarket.epoch });
    await expect(row).toContainText('$2.00', { timeout: 60_000 });
    const availableNow = async (): Promise<bigint> => {
      const view = (await invokeInPage(app, 'account.get')).value as { balance: { available: string } | null };
      return BigInt(view.balance?.available ?? '0');
    };
    const before = await availableNow();
    await row.getByRole('button', { name: 'Claim' }).click();
    await expect(app.getByTestId('toast').filter({ hasText: 'Prepared for offline signing' }).first()).toBeVisible();
    await shot(app, 'airgap-file-claim-0-online-prepared');
    const claim = await roundTripByFile({ dir, online, signer, name: 'airgap-file-claim' });
    await expect(claim.received).toContainText(btcMarket.epoch);
    await claim.pending.getByTestId('send-request').click();
    await expect(claim.pending).toContainText('sent: CLAIMED');
    await expect.poll(availableNow, { timeout: 20_000 }).toBe(before + 2n * USD);
    await open(app, 'Funds', 'Funds');
    await expect(claims).toContainText('Nothing to claim.');
    await shot(app, 'airgap-file-claim-5-online-claimed');

    // A withdrawal to a fresh receiver, asked in main's dialog on both machines, paid on chain.
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
    const withdraw = await prepareFor(app, 'withdrawal');
    await withdraw.getByLabel('Amount (USD)').fill('7');
    await withdraw.getByLabel('Receiver').fill(receiver);
    await withdraw.getByTestId('prepare-submit').click();
    await expect((await newestPending(app)).pending).toContainText('$7.00');
    const paid = await roundTripByFile({ dir, online, signer, name: 'airgap-file-withdrawal', confirmSign: true });
    await expect(paid.received).toContainText('$7.00');
    await core.dialogs({ kind: 'confirm', yes: true });
    await paid.pending.getByTestId('send-request').click();
    await expect(paid.pending).toContainText('sent');
    await expect.poll(() => tokenBalance(net, receiver), { timeout: 60_000, intervals: [500] }).toBe(7n * USD);
    await expect
      .poll(
        async () => {
          const list = (await invokeInPage(app, 'funds.withdrawals')).value as { amount: string; status: string }[];
          return list.find((w) => w.amount === '7000000')?.status;
        },
        { timeout: 60_000, intervals: [1000] },
      )
      .toBe('PAID');
    await open(app, 'Funds', 'Funds');
    await shot(app, 'airgap-file-withdrawal-5-online-paid');

    await noProblems(app, problems);
    await terminal.stop();
  } finally {
    await signerPage.close();
    await signerServer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
