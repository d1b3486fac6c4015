// The harness can start the core on a real devnet: a spec trades through the same bridge the page uses.
import type { OrderResult } from '../src/shared/bridge';
import { orderText } from '../src/renderer/lib/notice-text';
import { expect, test } from './harness/fixture';

test.use({ withDevnet: true });

test('the core trades on the worker devnet through the harness', async ({ core, devnet }) => {
  const net = await devnet.get();
  const call = async <T>(method: string, ...args: unknown[]): Promise<T> => {
    const outcome = await core.invoke(method, args);
    if (!outcome.ok) throw new Error(`${method}: ${outcome.error.code} ${outcome.error.message}`);
    return outcome.value as T;
  };
  // On the OS keychain the first password is a trust change: main asks, and the user says yes.
  if (core.server.backend() === 'keychain') await core.dialogs({ kind: 'confirm', yes: true });
  await call('lock.setPassword', { password: 'e2e devnet password', passwordAgain: 'e2e devnet password' });
  const demo = (await call<{ address: string }[]>('keys.devnetAccounts'))[0]!;
  await call('keys.useDevnetAccount', { address: demo.address });
  await net.handle.exchange.credit(demo.address, 100_000_000n);
  await expect
    .poll(async () => (await call<{ pin: { kind: string } }>('app.connection')).pin.kind, { timeout: 20_000 })
    .toBe('pinned');
  const markets = await call<{ assetId: string; epoch: string; symbol: string }[]>('markets.list');
  expect(markets.length).toBeGreaterThan(0);
  const market = markets.find((m) => m.symbol === 'ETH') ?? markets[0]!;
  await call('account.select', { master: demo.address, agent: null, tradeAs: 'master' });
  await core.dialogs({ kind: 'confirm', yes: true });
  const placed = await call<OrderResult>('orders.place', {
    assetId: market.assetId,
    epoch: market.epoch,
    side: 'buy',
    price: '5',
    size: '1',
    timeInForce: 'GTC',
    signAs: 'master',
  });
  expect(placed).toMatchObject({ status: 'ACCEPTED', side: 'buy', price: '50000', remaining: '1000000' });
  expect(orderText(placed)).toBe('Buy 1 at 5¢ is resting');
});
