// instantPayouts (practice mode): without a chain, a withdrawal is journaled as paid the moment it is
// queued, so GET /withdrawals shows it PAID before the client asks; a restart replays it as paid; a
// chain cannot be combined with it (the chain pays withdrawals itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZERO_HASH } from '../../shared/protocol';
import { startExchangeService } from './service';
import { LEDGER, startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import { signedBody, withdrawalOrder } from '../../../test/support/exchange/testkit';

type Body = Record<string, unknown>;
const AMOUNT = 2_500_000n;

describe('instantPayouts', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ instantPayouts: true });
  });
  afterAll(() => fx.close());

  it('pays a withdrawal at once, and a restart replays it as paid', async () => {
    const k = fx.keys.carol;
    await fx.svc.credit(k.address, 10n * AMOUNT);
    const ok = await fx.http.post<Body>(
      '/withdrawals',
      signedBody('withdrawals', withdrawalOrder({ key: k }, { amount: AMOUNT, ledger: LEDGER }), fx.svc.domain, k),
    );
    expect(ok).toMatchObject({ status: 202, body: { status: 'WITHDRAWN' } });
    const paid: unknown = expect.objectContaining({
      id: ok.body['id'],
      amount: String(AMOUNT),
      status: 'PAID',
      txHash: ZERO_HASH,
    });
    expect((await fx.http.get<Body>(`/withdrawals/${k.address}`)).body['withdrawals']).toEqual([paid]);
    expect(fx.svc.totals()).toMatchObject({ queuedWithdrawals: 0n });
    expect(fx.svc.checkInvariants()).toEqual([]);

    const hash = fx.svc.stateHash();
    await fx.restart();
    expect(fx.svc.stateHash()).toBe(hash);
    expect((await fx.http.get<Body>(`/withdrawals/${k.address}`)).body['withdrawals']).toEqual([paid]);
  });

  it('cannot be combined with a chain', async () => {
    await expect(
      startExchangeService({
        ...fx.options,
        instantPayouts: true,
        chain: {
          rpcUrl: 'http://127.0.0.1:9',
          contracts: { exchange: fx.options.verifyingContract!, ledger: LEDGER, depositLedger: LEDGER },
          operatorKey: `0x${'11'.repeat(32)}`,
          // Never called: the service refuses the combination before it starts the chain wiring.
          start: () => Promise.reject(new Error('no chain here')),
        },
      }),
    ).rejects.toThrow(/instantPayouts/);
  });
});
