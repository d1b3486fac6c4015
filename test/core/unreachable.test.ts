// A call the user makes answers even when the selected exchange cannot be reached: the session keeps
// retrying in the background, and every call that needs the connection gets a sentence, never a hang.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetDeploymentAt } from '../../src/main/settings';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { coreCalls } from './core-calls';

let t: TestCore;
const { ok, err } = coreCalls(
  () => t,
  () => [],
);

/** A loopback port nobody listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const port = await closedPort();
  const dead = devnetDeploymentAt({
    httpUrl: `http://127.0.0.1:${port}`,
    marketWsUrl: `ws://127.0.0.1:${port}/ws/`,
    oracleWsUrl: `ws://127.0.0.1:${port}/oracle-ws/`,
    rpcUrl: `http://127.0.0.1:${port}`,
    chainId: 31337n,
  });
  t = await createTestCore({ defaultDeployments: [dead], trading: { markets: () => [], pollMs: 250, healthMs: 1000 } });
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
});
afterAll(() => t.close());

describe('an exchange that cannot be reached', () => {
  it('answers reads and trades with the reason instead of waiting for the retries', async () => {
    const key = await ok<{ address: string }>('keys.create', { label: 'Trader' });
    // The choice is kept (applied when the exchange answers) and the view says why it is empty.
    const view = await ok<{ selection: { master: string }; error: string | null }>('account.select', {
      master: key.address,
      agent: null,
      tradeAs: 'master',
    });
    expect(view.selection.master).toBe(key.address);
    expect(view.error).toMatch(/^Not connected to /);
    for (const [method, args] of [
      ['markets.list', []],
      ['account.get', []],
      [
        'orders.place',
        [{ assetId: '1', epoch: '1', side: 'buy', price: '50', size: '1', timeInForce: 'GTC', signAs: 'master' }],
      ],
      ['claims.list', []],
    ] as const) {
      const e = await err(method, ...args);
      expect(e.code, method).toBe('connection.unreachable');
      expect(e.message, method).toMatch(
        /^Not connected to .+: .+\. The app keeps trying; nothing was signed or sent\.$/,
      );
    }
  });
});
