/**
 * Flow: the air-gapped round trip, on two app cores. The online core watches a master by its address
 * alone (no key) on the devnet; the signing core runs in offline mode and holds the key. Each action
 * is prepared online, carried to the signer, read there with the same fingerprint, signed, carried
 * back, checked and sent: an order that rests on the book, a cancel-all that empties it, the claim
 * of a filled order's winnings once its epoch resolves, and a withdrawal (asked in main's dialog on
 * both machines) paid on chain to a fresh receiver. The same scenario runs twice, once per way of
 * carrying: files through main's save and open dialogs, and QR codes through a fake camera both
 * ways (the codes one screen shows are captured into the video that is the other side's camera).
 * Screenshots of both sides at each step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { depositAndWait } from '../src/exchange/bots/client-venue';
import {
  newestPending,
  prepareFor,
  roundTripByFile,
  roundTripByQr,
  signerPassword,
  watchMaster,
  type CameraWindow,
} from './harness/airgap';
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
// The two ways share nothing but the devnet's kind (each has its cores, keys and accounts): one per
// worker, side by side, each on its worker's devnet; the file is the suite's longest alone.
test.describe.configure({ mode: 'parallel' });

const eth = (m: MarketRow): boolean => m.symbol === 'ETH';
const btc = (m: MarketRow): boolean => m.symbol === 'BTC';

interface Step {
  readonly name: string;
  /** What the signer's scan dialog says it received (QR only). */
  readonly received: RegExp;
  readonly trustDomain?: boolean;
  readonly confirmSign?: boolean;
}

/** One way of carrying requests and responses between the two machines. */
interface Carrier {
  /** The window on the online core to work in now (QR opens a new one for each camera video). */
  online(): Page;
  /** The newest pending request there and back; it is left ready to send. */
  carry(step: Step): Promise<{ pending: Locator; received: Locator }>;
}

function fileCarrier(dir: string, app: Page, core: HarnessClient, signer: Page, signerClient: HarnessClient): Carrier {
  return {
    online: () => app,
    carry: (step) =>
      roundTripByFile({
        dir,
        online: { page: app, client: core },
        signer: { page: signer, client: signerClient },
        name: step.name,
        ...(step.trustDomain ? { trustDomain: true } : {}),
        ...(step.confirmSign ? { confirmSign: true } : {}),
      }),
  };
}

function qrCarrier(
  dir: string,
  app: Page,
  core: HarnessClient,
  signerClient: HarnessClient,
  rendererUrl: string,
  opened: CameraWindow[],
  problems: string[],
): Carrier {
  let online = app;
  return {
    online: () => online,
    carry: async (step) => {
      const trip = await roundTripByQr({
        dir,
        onlinePage: online,
        onlineClient: core,
        signerClient,
        rendererUrl,
        opened,
        problems,
        ...step,
      });
      online = trip.online;
      return trip;
    },
  };
}

/** The signer's window: offline mode, its password, the master's key, as set up once on that machine. */
async function openSigner(
  browser: Browser,
  rendererUrl: string,
  signerClient: HarnessClient,
  key: string,
): Promise<{ page: Page; terminal: { stop: () => Promise<void> } }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const terminal = await installTerminal(page, signerClient);
  await page.goto(rendererUrl);
  await expect(page.getByTestId('offline-mode')).toBeVisible();
  await signerPassword(page, signerClient);
  expect((await invokeInPage(page, 'keys.importPrivateKey', { privateKey: key, label: 'cold master' })).ok).toBe(true);
  return { page, terminal };
}

for (const way of ['file', 'qr'] as const) {
  test(`an order, a cancel-all, a claim and a withdrawal, each by ${way === 'qr' ? 'QR codes through a fake camera both ways' : 'file'}, watch-only and offline signer`, async ({
    app,
    core,
    devnet,
    renderer,
    browser,
    problems,
  }) => {
    test.setTimeout(way === 'qr' ? 360_000 : 240_000);
    const net = await devnet.get();
    const dir = mkdtempSync(join(tmpdir(), `e2e-airgap-${way}-`));
    const at = (step: string): string => `airgap-${way}-${step}`;
    let signerServer: CoreServer | null = null;
    let signer: Awaited<ReturnType<typeof openSigner>> | null = null;
    const opened: CameraWindow[] = [];
    const otherProblems: string[] = [];
    try {
      const key = randomKey();
      const master = addressOf(key);
      await net.handle.exchange.credit(master, 100n * USD);

      signerServer = await startCoreServer({ launchedOffline: true });
      const signerClient = harnessClient(signerServer);
      signer = await openSigner(browser, renderer.url, signerClient, key);
      await shot(signer.page, at('0-signer-offline-mode'));

      await setPassword(app);
      await watchMaster(app, master, 'cold master');
      await shot(app, at('0-online-watch-only'));
      const carrier =
        way === 'file'
          ? fileCarrier(dir, app, core, signer.page, signerClient)
          : qrCarrier(dir, app, core, signerClient, renderer.url, opened, otherProblems);

      // An order on the hourly market, prepared here, signed there: it rests on the book.
      const ethMarket = await freshEpoch(app, eth, 120_000);
      const prepare = await prepareFor(app, 'order', ethMarket);
      await expect(prepare).toContainText('watch-only');
      await prepare.getByTestId('prepare-price').fill('31');
      await prepare.getByTestId('prepare-size').fill('4');
      await prepare.getByTestId('prepare-submit').click();
      await expect((await newestPending(app)).pending).toContainText('Buy 4 contracts at 31¢ (GTC)');
      // An order passes the order gate on both machines: the signer cannot read the account (it is
      // offline), and the online machine has order confirmation on, so main asks on each.
      const order = await carrier.carry({
        name: at('order'),
        received: /^Received an unsigned order request\.$/,
        trustDomain: true,
        confirmSign: true,
      });
      await expect(order.received).toContainText('Buy 4 contracts at 31¢ (GTC)');
      await core.dialogs({ kind: 'confirm', yes: true });
      await order.pending.getByTestId('send-request').click();
      await expect(order.pending).toContainText('sent: resting');
      const restingBuys = async (): Promise<number> =>
        (await accountBook(net, ethMarket.assetId, ethMarket.epoch, master)).buys.length;
      await expect.poll(restingBuys, { timeout: 20_000 }).toBe(1);
      // The watch-only window shows it among the account's open orders, as for a key it holds.
      await expect
        .poll(async () => {
          const view = (await invokeInPage(carrier.online(), 'account.get')).value as {
            openOrders: { price: string }[];
          };
          return view.openOrders.map((o) => o.price);
        })
        .toEqual(['310000']);
      await open(carrier.online(), 'Orders', 'Orders and positions');
      await shot(carrier.online(), at('order-6-online-rests'));

      // A cancel-all for that market: the book is empty again.
      await (await prepareFor(carrier.online(), 'cancelAll', ethMarket)).getByTestId('prepare-submit').click();
      const cancelAll = await carrier.carry({
        name: at('cancel-all'),
        received: /^Received an unsigned .+ request\.$/,
      });
      await cancelAll.pending.getByTestId('send-request').click();
      await expect(cancelAll.pending).toContainText('sent: cancelled');
      await expect.poll(restingBuys, { timeout: 20_000 }).toBe(0);
      await open(carrier.online(), 'Orders', 'Orders and positions');
      await expect(carrier.online().getByText('No open orders')).toBeVisible();
      await shot(carrier.online(), at('cancel-all-6-online-empty'));

      // A position to claim: an order that fills against another account's sell on the short BTC
      // market, where Up wins. It goes by file either way: a 20-second epoch is shorter than a QR
      // trip, and the claim is the trip under test.
      const online = carrier.online();
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
      const taken = await fileCarrier(dir, online, core, signer.page, signerClient).carry({
        name: at('fill-by-file'),
        received: /order/,
        confirmSign: true,
      });
      await core.dialogs({ kind: 'confirm', yes: true });
      await taken.pending.getByTestId('send-request').click();
      await expect(taken.pending).toContainText('sent: filled');

      // Once the epoch resolves, its claim is prepared from the Funds screen's claims panel.
      await open(online, 'Funds', 'Funds');
      const row = online.getByTestId('claims').locator('tbody tr', { hasText: btcMarket.epoch });
      await expect(row).toContainText('$2.00', { timeout: 60_000 });
      const available = async (): Promise<bigint> => {
        const view = (await invokeInPage(carrier.online(), 'account.get')).value as {
          balance: { available: string } | null;
        };
        return BigInt(view.balance?.available ?? '0');
      };
      const before = await available();
      await row.getByRole('button', { name: 'Claim' }).click();
      await expect(
        online.getByTestId('toast').filter({ hasText: 'Prepared for offline signing' }).first(),
      ).toBeVisible();
      await shot(online, at('claim-0-online-prepared'));
      const claim = await carrier.carry({ name: at('claim'), received: /^Received an unsigned claim request\.$/ });
      await expect(claim.received).toContainText(`epoch ${btcMarket.epoch}`);
      await claim.pending.getByTestId('send-request').click();
      await expect(claim.pending).toContainText('sent: claimed');
      await expect.poll(available, { timeout: 20_000 }).toBe(before + 2n * USD);
      await open(carrier.online(), 'Funds', 'Funds');
      await expect(carrier.online().getByTestId('claims')).toContainText('Nothing to claim.');
      await shot(carrier.online(), at('claim-6-online-claimed'));

      // A withdrawal to a fresh receiver, asked in main's dialog on both machines, paid on chain.
      // Credits are off chain: a real deposit by another account puts tokens in the ledger to pay it from.
      await depositAndWait({
        account: net.handle.accounts.at(-1)!,
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
      const withdraw = await prepareFor(carrier.online(), 'withdrawal');
      await withdraw.getByLabel('Amount (USD)').fill('7');
      await withdraw.getByLabel('Receiver').fill(receiver);
      await withdraw.getByTestId('prepare-submit').click();
      await expect((await newestPending(carrier.online())).pending).toContainText('$7.00');
      const paid = await carrier.carry({
        name: at('withdrawal'),
        received: /^Received an unsigned .+ request\.$/,
        confirmSign: true,
      });
      await expect(paid.received).toContainText('$7.00');
      const signDialog = (await signerClient.dialogs()).shown.filter((d) => d.kind === 'confirm').at(-1)!;
      expect(signDialog.request.detail).toContain('$7.00');
      await core.dialogs({ kind: 'confirm', yes: true });
      await paid.pending.getByTestId('send-request').click();
      await expect(paid.pending).toContainText('sent: accepted');
      // Paid on chain by the operator: the receiver's tokens rise, and the withdrawals list says PAID.
      await expect.poll(() => tokenBalance(net, receiver), { timeout: 60_000, intervals: [500] }).toBe(7n * USD);
      await expect
        .poll(
          async () => {
            const list = (await invokeInPage(carrier.online(), 'funds.withdrawals')).value as {
              amount: string;
              status: string;
            }[];
            return list.find((w) => w.amount === '7000000')?.status;
          },
          { timeout: 60_000, intervals: [1000] },
        )
        .toBe('PAID');
      await open(carrier.online(), 'Funds', 'Funds');
      await shot(carrier.online(), at('withdrawal-6-online-paid'));

      await noProblems(app, problems);
      expect(otherProblems).toEqual([]);
    } finally {
      for (const window of opened) await window.stop();
      for (const window of opened) await window.browser.close();
      await signer?.terminal.stop();
      await signer?.page.close();
      await signerServer?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
