/**
 * Flow: an agent-role key created on the Keys screen is approved on the Agents screen (main's
 * dialog answered by the test), shows active with a countdown, trades for the master (the order
 * rests in the master's book: open orders, and GET /book/:a/:e/:master), is revoked, after which
 * the ticket signs with the master again and offers no agent to sign with.
 */
import { expect, test } from './harness/fixture';
import {
  accountBook,
  freshFundedMaster,
  noProblems,
  open,
  placeFromTicket,
  setPassword,
  shot,
  tradeOn,
} from './harness/flows';

test.use({ withDevnet: true });
test.setTimeout(150_000);

test('approve an agent, trade as it for the master, revoke it', async ({ app, core, devnet, problems }) => {
  const net = await devnet.get();
  await setPassword(app);
  const master = await freshFundedMaster(app, net, 100n);

  // An agent key, from the Keys screen.
  const create = app.locator('section.panel').filter({ has: app.locator('header', { hasText: 'Create a key' }) });
  await create.getByLabel('Label').fill('Flow agent');
  await create.getByLabel('Role').selectOption('agent');
  await create.getByRole('button', { name: 'Create key' }).click();
  await expect(app.getByTestId('keys-table').locator('tr', { hasText: 'Flow agent' })).toContainText('agent');

  // Approve it; main asks in its own dialog, the test answers.
  await open(app, 'Agents', 'Agent wallets');
  await app.getByLabel('Agent key').selectOption({ index: 1 });
  await core.dialogs({ kind: 'confirm', yes: true });
  await app.getByRole('button', { name: 'Approve…' }).click();
  const status = app.getByTestId('agent-status');
  await expect(status.locator('.tag')).toHaveText('active');
  const expires = status.locator('dt', { hasText: 'Expires in' }).locator('xpath=following-sibling::dd[1]');
  await expect(expires).toHaveText(/\d/);
  const first = await expires.textContent();
  await expect(expires).not.toHaveText(first ?? '', { timeout: 5_000 }); // it counts down
  const shown = await core.dialogs();
  expect(shown.shown.at(-1)?.kind).toBe('confirm');
  await status.getByRole('button', { name: 'Trade as agent' }).click();
  await expect(app.getByLabel('Trade as')).toHaveValue('agent');

  // An order signed by the agent rests for the master.
  const market = await tradeOn(app);
  await expect(app.getByTestId('ticket').getByLabel('Sign as')).toHaveValue('agent');
  await placeFromTicket(app, 'buy', '30', '2');
  const orders = app.getByTestId('open-orders');
  await expect(orders.locator('tbody tr', { hasText: '30.0¢' })).toContainText('agent');
  const book = await accountBook(net, market.assetId, market.epoch, master);
  expect(book.buys.length).toBe(1);
  expect(JSON.stringify(book.buys[0])).toContain('300000');
  await shot(app, 'flows-agents-order');
  await orders.locator('tbody tr', { hasText: '30.0¢' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(orders).toContainText('No open orders.');

  // Revoke, then an agent order is refused.
  await open(app, 'Agents', 'Agent wallets');
  await core.dialogs({ kind: 'confirm', yes: true });
  await status.getByRole('button', { name: 'Revoke…' }).click();
  await expect(status.getByText('active', { exact: true })).toHaveCount(0);
  await expect(status).toContainText(/revoked|No agent is approved/);
  await open(app, 'Trade', 'Trade');
  const ticket = app.getByTestId('ticket');
  // After the revocation new orders are signed by the master again, without being asked.
  await expect(ticket.getByLabel('Sign as')).toHaveValue('master');
  // The revoked agent cannot be chosen to sign (the exchange's own refusal of a revoked agent is
  // covered by the client library's tests), and nothing rests for the master.
  const agentOption = ticket.getByLabel('Sign as').locator('option[value="agent"]');
  await expect(agentOption).toBeDisabled();
  await expect(agentOption).toHaveText(/none approved/);
  await expect(orders).toContainText('No open orders.');
  expect((await accountBook(net, market.assetId, market.epoch, master)).buys.length).toBe(0);
  await shot(app, 'flows-agents');
  await noProblems(app, problems);
});
