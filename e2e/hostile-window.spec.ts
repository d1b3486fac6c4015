/**
 * The hostile window once more, from inside the real page: the window's own JavaScript calls
 * window.terminal the way an injected script would, against the real core and a devnet, while main's
 * dialogs answer "no" or are never answered. Every dialog main opened is drawn as the user would read
 * it (title, message, detail, buttons) and saved to test-results/screens/hostile-dialog-*.png.
 * Nothing may change: wallet tokens and nonce on chain, the exchange balance, the protections in the
 * settings, the password.
 */
import type { Page } from '@playwright/test';
import type { DialogRecord } from '../test/support/scripted-dialogs';
import { saveDialogImage } from './harness/dialog-image';
import { expect, invokeInPage, test } from './harness/fixture';
import { available, noProblems, open, setPassword, shot, tokenBalance, useDemoAccount, USD } from './harness/flows';

// A devnet of its own: the deposit credit it waits for must not queue behind other specs' chain traffic.
test.use({ withDevnet: true, devnetOptions: { ownBook: 'hostile-window' } });
test.setTimeout(180_000);

const ATTACKER = '0x000000000000000000000000000000000000dEaD';

interface Outcome {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

/** Draws one of main's confirm dialogs exactly as its text reads (Electron shows it as a native message box). */
async function drawDialog(page: Page, record: DialogRecord, name: string): Promise<void> {
  if (record.kind === 'confirm') await saveDialogImage(page, record, `hostile-dialog-${name}`);
}

/** Refused with a code and a sentence, or declined in main's dialog. */
function refusedOrDeclined(outcome: Outcome, what: string): void {
  if (outcome.ok) expect(outcome.value, `${what} succeeded`).toEqual({ confirmed: false });
  else {
    expect(outcome.error?.code, what).toMatch(/^[a-z][a-z0-9_]*\.[a-z0-9_.]+$/);
    expect(outcome.error?.message.length, what).toBeGreaterThan(20);
  }
}

interface Settings {
  deployments: unknown[];
  selectedDeploymentId: string;
  pins: unknown;
  pendingPinChanges: unknown;
  confirmations: unknown;
  autoLockMinutes: number;
}

test('a script in the window cannot move value or change trust; every dialog main showed, as the user reads it', async ({
  app,
  core,
  devnet,
  problems,
}) => {
  const net = await devnet.get();
  await setPassword(app);
  await useDemoAccount(app, 1);
  const master = ((await invokeInPage(app, 'account.get')).value as { selection: { master: string } }).selection.master;
  // Money on the exchange, so that a withdrawal the attacker got through would really pay out. Earlier
  // specs on this worker's devnet may have left this demo account a balance: count from it.
  const exchangeBalance = async (): Promise<bigint> =>
    BigInt(((await (await fetch(`${net.forCore.httpUrl}/balance/${master}`)).json()) as { balance: string }).balance);
  const credited = (await exchangeBalance()) + 250n * USD;
  await net.handle.exchange.credit(master, 250n * USD);
  await expect
    .poll(
      async () => {
        await open(app, 'Markets', 'Markets');
        await open(app, 'Funds', 'Funds');
        return available(app);
      },
      { timeout: 45_000, intervals: [500] },
    )
    .toBe(credited);
  const balanceBefore = await available(app);
  const tokensBefore = await tokenBalance(net, master);
  const nonce = async (): Promise<string> => {
    const response = await fetch(net.handle.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [master, 'latest'] }),
    });
    return ((await response.json()) as { result: string }).result;
  };
  const nonceBefore = await nonce();
  const protections = async (): Promise<string> => {
    const s = (await invokeInPage(app, 'settings.get')).value as Settings;
    return JSON.stringify([
      s.deployments,
      s.selectedDeploymentId,
      s.pins,
      s.pendingPinChanges,
      s.confirmations,
      s.autoLockMinutes,
    ]);
  };
  const settingsBefore = await protections();
  const markets = (await invokeInPage(app, 'markets.list')).value as { assetId: string; epoch: string }[];
  const market = { assetId: markets[0]!.assetId, epoch: markets[0]!.epoch };

  // The attacker's script: only what the page itself can do.
  const attacks: [string, string, ...unknown[]][] = [
    [
      'offline-withdrawal',
      'offline.sign',
      { signer: master, action: { kind: 'withdrawal', amount: '100', receiver: ATTACKER } },
    ],
    [
      'offline-foreign-domain',
      'offline.sign',
      {
        signer: master,
        domain: { chainId: '1', verifyingContract: ATTACKER, domainName: 'Service Exchange' },
        action: { kind: 'cancelAll', ...market },
      },
    ],
    [
      'settings-confirmations',
      'settings.update',
      { confirmations: { orders: false, withdrawals: true, agentApprovals: false, keyExport: false } },
    ],
    [
      'settings-deployment',
      'settings.update',
      {
        deployments: [
          {
            id: 'evil',
            name: 'Local devnet',
            httpUrl: 'http://127.0.0.1:9/leak',
            marketWsUrl: 'ws://127.0.0.1:9/',
            oracleWsUrl: 'ws://127.0.0.1:9/',
            rpcUrl: 'http://127.0.0.1:9/',
            chainId: '31337',
          },
        ],
        selectedDeploymentId: 'evil',
      },
    ],
    [
      'import-attacker-key',
      'keys.importPrivateKey',
      { privateKey: `0x${'7'.repeat(64)}`, label: 'Backup "alice"\nReceiver: mine' },
    ],
    ['approve-agent', 'agents.approve', { agent: '0x' + 'ab'.repeat(20) }],
    ['withdraw', 'funds.withdraw', { amount: '10', receiver: ATTACKER }],
    ['deposit-permit', 'funds.deposit', { amount: '5', mode: 'permit' }],
    ['deposit-approve', 'funds.deposit', { amount: '5', mode: 'approve' }],
    ['faucet', 'funds.faucet'],
    [
      'export-key',
      'keys.exportKeystore',
      { address: master, password: 'attacker chose it', passwordAgain: 'attacker chose it' },
    ],
    ['orders-confirmation-off', 'settings.setConfirmation', { name: 'orders', on: true }],
    ['auto-lock-off', 'settings.setAutoLock', 0],
    [
      'change-password',
      'lock.setPassword',
      { password: 'attacker password', passwordAgain: 'attacker password', currentPassword: 'flows e2e password' },
    ],
    [
      'add-deployment',
      'deployments.add',
      {
        name: 'Local devnet',
        httpUrl: 'http://127.0.0.1:9/leak',
        marketWsUrl: 'ws://127.0.0.1:9/',
        oracleWsUrl: 'ws://127.0.0.1:9/',
        rpcUrl: 'http://127.0.0.1:9/',
        chainId: '31337',
      },
    ],
  ];
  const approveAgentIndex = attacks.findIndex(([name]) => name === 'approve-agent');
  await core.dialogPolicy({ unscripted: 'no' });
  const drawer = await app.context().newPage();
  let drawn = 0;
  for (const [name, method, ...args] of attacks) {
    const seen = (await core.dialogPolicy({})).shown.length;
    // The agent to approve is the key the attacker just imported.
    if (name === 'approve-agent') {
      const keys = (await invokeInPage(app, 'keys.list')).value as { address: string; label: string }[];
      args[0] = { agent: keys.find((k) => k.label.startsWith('Backup'))!.address };
    }
    const outcome = await invokeInPage(app, method, ...args);
    if (name === 'import-attacker-key' || name === 'orders-confirmation-off') expect(outcome.ok, name).toBe(true);
    else refusedOrDeclined(outcome, name);
    const shown = (await core.dialogPolicy({})).shown.slice(seen);
    for (const [i, record] of shown.entries()) {
      await drawDialog(
        drawer,
        record,
        `${String(++drawn).padStart(2, '0')}-${name}${shown.length > 1 ? `-${i + 1}` : ''}`,
      );
    }
    if (
      [
        'offline-withdrawal',
        'approve-agent',
        'withdraw',
        'deposit-permit',
        'deposit-approve',
        'faucet',
        'export-key',
        'auto-lock-off',
        'change-password',
      ].includes(name)
    ) {
      expect(shown.length, `${name} reached main's dialog`).toBeGreaterThan(0);
    }
  }
  expect(approveAgentIndex).toBeGreaterThan(0);
  // Turning order confirmation off (after the attacker turned it on, which is stricter and allowed).
  const seen = (await core.dialogPolicy({})).shown.length;
  refusedOrDeclined(
    await invokeInPage(app, 'settings.setConfirmation', { name: 'orders', on: false }),
    'orders confirmation off',
  );
  for (const record of (await core.dialogPolicy({})).shown.slice(seen))
    await drawDialog(drawer, record, `${String(++drawn).padStart(2, '0')}-orders-confirmation-off`);

  // A dialog never answered: that call waits, the rest of main answers, a second dialog is refused.
  await core.dialogPolicy({ unscripted: 'never' });
  await app.evaluate(
    ([to]) => {
      const w = globalThis as unknown as {
        terminal: { invoke(m: string, a: unknown[]): Promise<unknown> };
        __pending?: unknown;
      };
      w.__pending = 'waiting';
      void w.terminal.invoke('funds.withdraw', [{ amount: '10', receiver: to }]).then((o) => (w.__pending = o));
    },
    [ATTACKER],
  );
  await expect.poll(async () => (await core.dialogPolicy({})).waiting).toBe(1);
  expect((await invokeInPage(app, 'app.info')).ok).toBe(true);
  expect((await invokeInPage(app, 'account.get')).ok).toBe(true);
  expect((await invokeInPage(app, 'keys.delete', { address: master })).error?.code).toBe('dialog.busy');
  expect(await app.evaluate(() => (globalThis as unknown as { __pending?: unknown }).__pending)).toBe('waiting');
  expect((await core.dialogPolicy({ release: true, unscripted: 'fail' })).released).toBe(1);
  await expect
    .poll(() => app.evaluate(() => (globalThis as unknown as { __pending?: unknown }).__pending))
    .toEqual({ ok: true, value: { confirmed: false } });

  // Nothing happened.
  expect(await protections()).not.toBe('');
  const settingsAfter = JSON.parse(await protections()) as unknown[];
  const before = JSON.parse(settingsBefore) as unknown[];
  // Order confirmation may only have become stricter (the attacker turned it on); everything else is as it was.
  expect([settingsAfter[0], settingsAfter[1], settingsAfter[2], settingsAfter[3], settingsAfter[5]]).toEqual([
    before[0],
    before[1],
    before[2],
    before[3],
    before[5],
  ]);
  expect((await invokeInPage(app, 'lock.status')).value).toMatchObject({ hasPassword: true, locked: false });
  expect(await tokenBalance(net, master)).toBe(tokensBefore);
  expect(await nonce()).toBe(nonceBefore);
  await open(app, 'Markets', 'Markets');
  await open(app, 'Funds', 'Funds');
  await expect.poll(() => available(app)).toBe(balanceBefore);
  await drawer.close();
  await shot(app, 'hostile-window-after');
  expect(drawn).toBeGreaterThanOrEqual(10);
  await noProblems(app, problems);
});
