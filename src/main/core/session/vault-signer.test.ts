import { describe, expect, it } from 'vitest';
import { buildSignedCancelAll, buildSignedOrder, keySigner } from '../../../client';
import { makeExchangeDomain, type Address, type Hex } from '../../../shared/protocol';
import { Clearances } from '../risk/clearances';
import { vaultSigner } from './vault-signer';

const KEY = ('0x' + '42'.repeat(32)) as Hex;
const inner = keySigner(KEY);
const vault = { signDigest: (_a: string, d: string) => inner.signDigest(d as Hex) };
const domain = makeExchangeDomain({
  chainId: 31337n,
  verifyingContract: ('0x' + '99'.repeat(20)) as Address,
  name: 'Service Exchange',
});
const ORDER = { assetId: 5n, epoch: 3n, side: 'buy' as const, price: '50', size: '2', timeInForce: 'GTC' as const };

describe('vaultSigner', () => {
  it('signs no order the gate did not clear, and each clearance once', async () => {
    const clearances = new Clearances();
    const signer = vaultSigner(vault, inner.address, clearances);
    await expect(buildSignedOrder({ signer, domain }, ORDER)).rejects.toMatchObject({ code: 'orders.not_cleared' });
    clearances.issue({
      signer: inner.address,
      sender: inner.address,
      assetId: 5n,
      epoch: 3n,
      sell: false,
      price: 500_000n,
      size: 2_000_000n,
    });
    await expect(buildSignedOrder({ signer, domain }, ORDER)).resolves.toMatchObject({ kind: 'orders' });
    await expect(buildSignedOrder({ signer, domain }, ORDER)).rejects.toMatchObject({ code: 'orders.not_cleared' });
  });

  it('signs other actions after reading them, and never a digest it was not shown with its struct', async () => {
    const signer = vaultSigner(vault, inner.address, new Clearances());
    await expect(buildSignedCancelAll({ signer, domain }, { assetId: 5n, epoch: 3n })).resolves.toMatchObject({
      kind: 'cancels',
    });
    await expect(signer.signDigest(('0x' + '01'.repeat(32)) as Hex)).rejects.toMatchObject({
      code: 'signing.unreviewed',
    });
    // A digest that is not the hash of the struct it came with is refused at review.
    const review = () =>
      signer.review!({
        primaryType: 'CancelOrder',
        digest: ('0x' + '01'.repeat(32)) as Hex,
        signer: inner.address,
        action: {},
        domain,
      });
    expect(review).toThrow(expect.objectContaining({ code: 'signing.unreviewed' }));
  });
});
