/**
 * Steps shared by the end-to-end flow specs (e2e/flows-*.spec.ts): unlocking a fresh core, taking an
 * account through the Keys screen, picking a market, placing from the ticket, and a counterparty in
 * the test process that trades through the app's own client library with a DigestSigner.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { keySigner, type ExchangeClient } from '../../src/client';
import { devnetClient } from '../../src/exchange/bots';
import { DigestSigner, type Address, type Hex } from '../../src/shared/protocol';
import type { HarnessDevnetHandle } from './devnet';
import { expect, invokeInPage, SCREENS_DIR, userAnswers } from './fixture';

export const PASSWORD = 'flows e2e password';
/** Protocol units per dollar (PROTOCOL_DECIMALS = 6). */
export const USD = 1_000_000n;

export interface MarketRow {
  assetId: string;
  symbol: string;
  timeframe: string;
  epoch: string;
  expiration: number;
  resolved: boolean;
}

/** Picks a market in an offline form's market fields (build-and-sign, prepare): the form fills in its current epoch. */
export async function pickMarket(form: Locator, market: { assetId: string; epoch: string }): Promise<void> {
  await form
    .locator('label.row')
    .filter({ hasText: /^Market/ })
    .locator('select')
    .selectOption(market.assetId);
  await expect(form.getByRole('textbox', { name: 'Epoch' })).toHaveValue(market.epoch);
}

export async function open(page: Page, label: string, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

/**
 * Gives a fresh core an app password. A file-backed vault starts locked and asks for one on the
 * lock screen (`onLockScreen` runs while it shows, e.g. for a screenshot); a keychain-backed vault
 * (the OS keychain, as under scripts/with-keyring.sh) starts unlocked with none, so the password is
 * set through the bridge, the same call the Keys screen makes.
 */
export async function setPassword(
  page: Page,
  password = PASSWORD,
  onLockScreen?: () => Promise<unknown>,
): Promise<void> {
  const status = (await invokeInPage(page, 'lock.status')).value as { locked: boolean; hasPassword: boolean };
  const lock = page.getByTestId('lock-screen');
  if (status.locked) {
    await expect(lock.getByRole('heading', { name: 'Choose an app password' })).toBeVisible();
    await onLockScreen?.();
    await lock.getByLabel('New app password', { exact: true }).fill(password);
    await lock.getByLabel('New app password again').fill(password);
    await lock.getByRole('button', { name: 'Set password' }).click();
    await expect(lock).toHaveCount(0);
  } else if (!status.hasPassword) {
    // The first password of a keychain vault is a trust change: main asks, and the user says yes.
    await userAnswers().dialogs({ kind: 'confirm', yes: true });
    const set = await invokeInPage(page, 'lock.setPassword', { password, passwordAgain: password });
    expect(set.ok).toBe(true);
  }
}

export function randomKey(): Hex {
  return `0x${randomBytes(32).toString('hex')}`;
}

export function addressOf(key: Hex): Address {
  return new DigestSigner(key).address;
}

/** Imports a private key as the master through the Keys screen's import form (the first master trades). */
export async function importMaster(page: Page, key: Hex, label: string): Promise<void> {
  await open(page, 'Keys', 'Keys');
  const form = page.locator('section.panel').filter({ has: page.locator('header', { hasText: 'Import a key' }) });
  await form.getByRole('textbox').first().fill(key);
  await form.getByLabel('Label').fill(label);
  await form.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByTestId('keys-table')).toContainText(label);
  await expect(page.getByTestId('account-select')).not.toHaveValue('');
}

/** A fresh master key funded on the exchange (no chain wallet needed), imported in the UI. */
export async function freshFundedMaster(
  page: Page,
  devnet: HarnessDevnetHandle,
  usd: bigint,
  label = 'Flow master',
): Promise<Address> {
  const key = randomKey();
  const address = addressOf(key);
  await devnet.handle.exchange.credit(address, usd * USD);
  await importMaster(page, key, label);
  return address;
}

/** Another account, in the test process: its own key, credited on the exchange, the app's client library. */
export async function counterparty(
  devnet: HarnessDevnetHandle,
  usd: bigint,
): Promise<{ client: ExchangeClient; address: Address }> {
  const key = randomKey();
  const client = devnetClient(devnet.handle, key);
  const signer = keySigner(key);
  await devnet.handle.exchange.credit(signer.address, usd * USD);
  return { client, address: signer.address };
}

/** The ladder's bid cell at `price` (protocol units), matched only while it shows a bid. */
export function ladderBidAt(page: Page, price: string | bigint): Locator {
  return page.getByTestId('ladder').locator(`[data-price="${price}"] .cell.bid[aria-label*=" bid"]`);
}

export async function marketsList(page: Page): Promise<MarketRow[]> {
  const r = await invokeInPage(page, 'markets.list');
  expect(r.error).toBeUndefined();
  return r.value as MarketRow[];
}

/** The market's fair value now, from the market list (micro-dollars), or null while there is none. */
export async function fairOf(page: Page, market: Pick<MarketRow, 'assetId'>): Promise<bigint | null> {
  // A new core has no fair value for its first 60 oracle prices (σ needs them): fairPrice is null then.
  const rows: (MarketRow & { fairPrice?: string | null })[] = await marketsList(page);
  const row = rows.find((m) => m.assetId === market.assetId);
  return row?.fairPrice ? BigInt(row.fairPrice) : null;
}

/** Waits until the market's current epoch has at least needMs left, and returns it. */
export async function freshEpoch(
  page: Page,
  pick: (m: MarketRow) => boolean,
  needMs: number,
  timeout = 120_000,
): Promise<MarketRow> {
  let found: MarketRow | undefined;
  await expect
    .poll(
      async () => {
        found = (await marketsList(page)).find(pick);
        return found !== undefined && !found.resolved && found.expiration - Date.now() > needMs;
      },
      { timeout, intervals: [500] },
    )
    .toBe(true);
  return found!;
}

export const btc5m = (m: MarketRow): boolean => m.symbol === 'BTC' && m.timeframe === '5m';

/** Opens Trade on a market (a 5-minute one by default: no epoch roll in the middle of a flow). */
export async function tradeOn(
  page: Page,
  pick: (m: MarketRow) => boolean = btc5m,
  needMs = 40_000,
): Promise<MarketRow> {
  const market = await freshEpoch(page, pick, needMs);
  await ordersUnconfirmed(page);
  await open(page, 'Trade', 'Trade');
  await page.locator(`tr[data-asset="${market.assetId}"] button.pick`).click();
  await expect(page.locator(`tr[data-asset="${market.assetId}"]`)).toHaveClass(/selected/);
  await expect(page.getByTestId('ladder').locator('[data-price]').first()).toBeVisible();
  await expect(page.getByTestId('book-blocked')).toHaveCount(0, { timeout: 15_000 });
  return market;
}

/**
 * Order confirmations off, through the Settings screen. With them on, an order is confirmed twice:
 * once inline in the ticket, then again in main's own dialog. Turning them off is itself confirmed
 * in main's dialog, which the user answers yes.
 */
export async function ordersUnconfirmed(page: Page): Promise<void> {
  await open(page, 'Settings', 'Settings');
  const box = page.getByLabel('Confirm orders before sending');
  if (!(await box.isChecked())) return;
  await userAnswers().dialogs({ kind: 'confirm', yes: true });
  await box.uncheck();
  await expect(page.getByLabel('Confirm orders before sending')).not.toBeChecked();
}

/** Fills the ticket and sends it (order confirmations off: see ordersUnconfirmed). */
export async function placeFromTicket(
  page: Page,
  side: 'buy' | 'sell',
  priceCents: string,
  size: string,
  timeInForce = 'GTC',
): Promise<void> {
  const ticket = page.getByTestId('ticket');
  await ticket.getByRole('radio', { name: side === 'buy' ? /Buy Up/ : /Sell Up/ }).click();
  await ticket.getByLabel('Price (¢)').fill(priceCents);
  await ticket.getByLabel('Size', { exact: true }).fill(size);
  await ticket.getByLabel('Time in force').selectOption(timeInForce);
  await ticket.getByTestId('place-order').click();
}

/** "$1,234.50" → 123450 cents-of-a-dollar as a number of micro-dollars (exact for the app's 2-decimal display). */
export function usdText(text: string | null): bigint {
  const m = /(-?)\$([\d,]+)(?:\.(\d+))?/.exec(text ?? '');
  if (!m) throw new Error(`not a dollar amount: ${text}`);
  const frac = (m[3] ?? '').padEnd(6, '0').slice(0, 6);
  const v = BigInt(m[2]!.replace(/,/g, '')) * USD + BigInt(frac);
  return m[1] ? -v : v;
}

export async function available(page: Page): Promise<bigint> {
  return usdText(await page.getByTestId('balance').locator('dd').first().textContent());
}

export function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: resolve(SCREENS_DIR, `${name}.png`), fullPage: true });
}

export async function noProblems(page: Page, problems: string[]): Promise<void> {
  expect(await page.evaluate<string[]>('window.__cspViolations')).toEqual([]);
  expect(problems).toEqual([]);
}

/** GET /book/:assetId/:epoch/:account straight from the exchange (the test process's own view). */
export async function accountBook(
  devnet: HarnessDevnetHandle,
  assetId: string,
  epoch: string,
  account: string,
): Promise<{ buys: Record<string, unknown>[]; sells: Record<string, unknown>[] }> {
  const response = await fetch(`${devnet.handle.httpUrl}/book/${assetId}/${epoch}/${account}`);
  expect(response.status).toBe(200);
  const json = (await response.json()) as { buys?: unknown; data?: { buys: unknown; sells: unknown } };
  const body = (json.buys ? json : json.data) as { buys: Record<string, unknown>[]; sells: Record<string, unknown>[] };
  return body;
}

/** The settlement token balance of an address, by eth_call balanceOf on the devnet chain. */
export async function tokenBalance(devnet: HarnessDevnetHandle, owner: string): Promise<bigint> {
  const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, '0')}`;
  const response = await fetch(devnet.handle.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: devnet.handle.contracts.settlementToken, data }, 'latest'],
    }),
  });
  const json = (await response.json()) as { result?: string; error?: unknown };
  if (!json.result) throw new Error(`balanceOf failed: ${JSON.stringify(json.error)}`);
  return BigInt(json.result);
}

/** Takes the n-th funded demo account offered on the Keys screen's first run (its wallet holds tokens and gas). */
export async function useDemoAccount(page: Page, n: number): Promise<void> {
  await open(page, 'Keys', 'Keys');
  await page.getByTestId('first-run').getByRole('button', { name: /^Use / }).nth(n).click();
  await expect(page.getByTestId('keys-table')).toContainText('devnet');
  await expect(page.getByTestId('account-select')).not.toHaveValue('');
}

/** On the Funds screen: deposits `amount` by approve or permit and follows the stepper to Credited; the balance rises by exactly `cents`. */
export async function depositBy(page: Page, mode: 'approve' | 'permit', amount: string, cents: bigint): Promise<void> {
  const panel = page.getByTestId('deposit');
  const before = await available(page);
  await panel.getByLabel('Amount (USD)').fill(amount);
  await panel.getByLabel('Method').selectOption(mode);
  // Main shows the token, spender and chain before anything is sent; the user says yes.
  await userAnswers().dialogs({ kind: 'confirm', yes: true });
  await panel.getByRole('button', { name: 'Deposit' }).click();
  const stepper = panel.getByTestId('deposit-stepper');
  await expect(stepper.locator('li')).toHaveText(
    mode === 'approve'
      ? [/Check balance/, /Approve token/, /Send deposit/, /Mined/, /Confirmations/, /Credited/]
      : [/Check balance/, /Approve Permit2/, /Sign permit/, /Send deposit/, /Mined/, /Confirmations/, /Credited/],
  );
  // Each stage in turn, then every step done.
  await expect(stepper.locator('li.now, li.done').first()).toBeVisible();
  await expect(stepper.locator('li').nth(1)).toHaveClass(/done/, { timeout: 30_000 });
  await expect(stepper.locator('li').last()).toHaveClass(/done/, { timeout: 60_000 });
  await expect(stepper.locator('li.done')).toHaveCount(mode === 'approve' ? 6 : 7);
  await expect(panel.getByRole('status')).toContainText(/tx 0x/);
  await expect.poll(() => available(page), { timeout: 15_000 }).toBe(before + (cents * USD) / 100n);
}

/** Waits until the market's epoch has resolved (polling the core as the window would); whether Up won. */
export async function resolutionOf(
  page: Page,
  market: { assetId: string; epoch: string },
  timeoutMs = 60_000,
): Promise<boolean> {
  let upWon: boolean | undefined;
  await expect
    .poll(
      async () => {
        const resolved = (await invokeInPage(page, 'markets.resolvedEpochs', market.assetId)).value as
          { epoch: string; upWon: boolean }[] | null;
        upWon = resolved?.find((e) => e.epoch === market.epoch)?.upWon;
        return upWon !== undefined;
      },
      { timeout: timeoutMs, intervals: [1000] },
    )
    .toBe(true);
  return upWon!;
}
