// The words the signing machine shows come from the structs: price in cents, size, amounts,
// receiver, agent and expiry; value-moving kinds are marked for main's dialog.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, packAssetId, type Address } from '../../shared/protocol';
import { NonceRegistry } from '../actions/signed-actions';
import { describeRequest } from './describe';
import { draftApproveAgent, draftCancelAll, draftOrder, draftWithdrawal, type DraftContext } from './request';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`).address;
const AGENT = new DigestSigner(`0x${'33'.repeat(32)}`).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const LEDGER = '0x0000000000000000000000000000000000001ed9' as Address;
const ctx = (): DraftContext => ({
  signer: MASTER,
  domain: makeExchangeDomain({ chainId: 1n, verifyingContract: EXCHANGE }),
  contracts: { exchange: EXCHANGE, ledger: LEDGER },
  nonces: new NonceRegistry(),
});
// BTC (symbol 1) in 5-minute epochs from 2026-01-02 00:00 UTC, and ETH (symbol 2) in 1-minute ones.
const BTC_5M = packAssetId({
  id: 1n,
  marketType: 1n,
  startTime: 1_767_312_000n,
  periodLength: 300n,
  strike: 0n,
  range: 0n,
});
const ETH_1M = packAssetId({
  id: 2n,
  marketType: 1n,
  startTime: 1_767_312_000n,
  periodLength: 60n,
  strike: 0n,
  range: 0n,
});
const names = (assetId: bigint) => (assetId === BTC_5M ? 'BTC 5m' : undefined);

describe('describing a request', () => {
  it('says an order in cents, contracts and margin, naming the market', async () => {
    const d = describeRequest(
      await draftOrder(ctx(), { assetId: BTC_5M, epoch: 12n, side: 'buy', price: '62.5', size: '10', nonce: 99n }),
      names,
    );
    expect(d).toEqual({
      title: 'Order',
      lines: [
        'Buy 10 contracts at 62.5¢ (GTC) on BTC 5m, epoch 12 (2026-01-02 01:00 to 01:05 UTC), locking up to $6.25.',
        'Nonce 99.',
      ],
      movesValue: true,
    });
  });

  it('names a market it knows no name for by what its asset id says, never by the id', async () => {
    const d = describeRequest(await draftCancelAll(ctx(), { assetId: ETH_1M, epoch: 3n, nonce: 5n }), names);
    expect(d.lines[0]).toBe(
      'Cancel every open order on symbol 2 · 1m market, epoch 3 (2026-01-02 00:03 to 00:04 UTC).',
    );
    expect(d.lines[0]).not.toContain(ETH_1M.toString());
    // A number that is no asset id (no period) is shown as the number it is.
    const odd = describeRequest(await draftCancelAll(ctx(), { assetId: 8n, epoch: 3n, nonce: 6n }), names);
    expect(odd.lines[0]).toBe('Cancel every open order on asset 8, epoch 3.');
  });

  it('marks withdrawals and agent approvals as moving value, with receiver, agent and expiry', async () => {
    const w = describeRequest(
      await draftWithdrawal(ctx(), { amount: '12.5', ledger: LEDGER, receiver: AGENT, nonce: 1n }),
    );
    expect(w.movesValue).toBe(true);
    expect(w.lines[0]).toBe(`Withdraw $12.50 to ${AGENT} (another address).`);
    const a = describeRequest(
      await draftApproveAgent(ctx(), { agent: AGENT, approvalNonce: 1_790_000_000n, nonce: 2n }),
    );
    expect(a.movesValue).toBe(true);
    expect(a.lines[0]).toContain(AGENT);
    expect(a.lines[1]).toContain('2026-09-21T');
  });
});
