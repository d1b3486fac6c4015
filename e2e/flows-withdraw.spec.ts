/**
 * Flow: a withdrawal from the Funds screen (main's confirmation answered by the test) shows in the
 * withdrawals list and is paid on chain (after a deposit through the UI, so the ledger holds the tokens): the receiver's token balance rises by the amount.
 */
import { expect, test } from './harness/fixture';
import {
  addressOf,
  available,
  depositBy,
  noProblems,
  open,
  randomKey,
  setPassword,
  shot,
  tokenBalance,
  useDemoAccount,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(120_000);

test('withdraw to a receiver and see it paid on chain', async ({ app, core, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  // Real money on chain: the ledger contract pays withdrawals out of swept deposits.
  await useDemoAccount(app, 2);
  const receiver = addressOf(randomKey());
  expect(await tokenBalance(net, receiver)).toBe(0n);

  await open(app, 'Funds', 'Funds');
  await depositBy(app, 'approve', '20', 2000n);
  const before = await available(app);
  const panel = app.getByTestId('withdraw');
  await panel.getByLabel('Amount (USD)').fill('12.5');
  await panel.getByLabel('Receiver').fill(receiver);
  await core.dialogs({ kind: 'confirm', yes: true });
  await panel.getByRole('button', { name: 'Withdraw…' }).click();
  const row = panel.locator('tbody tr').first();
  await expect(row).toContainText('$12.50');
  // The list shows the receiver checksummed, as the wallet does everywhere.
  await expect(row).toContainText(receiver.slice(0, 6));
  const confirm = (await core.dialogs()).shown.at(-1);
  expect(confirm?.kind).toBe('confirm');
  await expect.poll(() => available(app)).toBe(before - 12_500_000n);

  // Paid on chain by the operator.
  await expect.poll(() => tokenBalance(net, receiver), { timeout: 30_000, intervals: [500] }).toBe(12_500_000n);
  // The list, reloaded, says so.
  await expect
    .poll(
      async () => {
        await open(app, 'Markets', 'Markets');
        await open(app, 'Funds', 'Funds');
        return (await panel.locator('tbody tr').first().locator('.tag').textContent())?.trim();
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toMatch(/^(paid|accepted)$/);
  await shot(app, 'flows-withdraw');
  await noProblems(app, problems);
});
