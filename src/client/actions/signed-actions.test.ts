// The builders reproduce the protocol vectors byte for byte (body text, digest, signature), and
// refuse bad inputs before drawing a nonce or signing.
import { describe, expect, it } from 'vitest';
import vectors from '../../../test/fixtures/vectors.json';
import { DigestSigner, makeExchangeDomain, recoverDigestSigner, type Address, type Hex } from '../../shared/protocol';
import { ExchangeValidationError } from '../errors';
import {
  NonceRegistry,
  keySigner,
  buildSignedApproveAgent,
  buildSignedCancel,
  buildSignedCancelReplace,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  type ActionSigner,
  type SignedAction,
  type SigningContext,
} from './signed-actions';

interface Vector {
  name: string;
  primaryType: string;
  domain: { name: string; chainId: string; verifyingContract: string };
  message: Record<string, string | boolean>;
  privateKey: Hex;
  digest: Hex;
  request?: { path: string; body: Record<string, unknown> };
  encodingEdgeCase?: boolean;
}

function ctxFor(v: Vector): SigningContext & { signer: ActionSigner & { count: number } } {
  const d = new DigestSigner(v.privateKey);
  const signer = {
    address: d.address,
    count: 0,
    signDigest(digest: Hex) {
      signer.count++;
      return Promise.resolve(d.sign(digest));
    },
  };
  const domain = makeExchangeDomain({
    name: v.domain.name,
    chainId: BigInt(v.domain.chainId),
    verifyingContract: v.domain.verifyingContract as Address,
  });
  return { signer, domain, nonces: new NonceRegistry() };
}

const big = (m: Record<string, string | boolean>, k: string) => BigInt(m[k] as string);

function build(v: Vector): Promise<SignedAction<never>> | null {
  const m = v.message;
  const ctx = ctxFor(v);
  const agent =
    m['signatureType'] === '4' ? { master: m['sender'] as Address, approvalNonce: big(m, 'approvalNonce') } : undefined;
  const all = vectors.eip712 as unknown as Vector[];
  switch (v.primaryType) {
    case 'FillOrder':
      return buildSignedOrder(
        ctx,
        {
          assetId: big(m, 'assetId'),
          epoch: big(m, 'epoch'),
          side: m['side'] as boolean,
          price: big(m, 'price'),
          size: big(m, 'size'),
          timeInForce: big(m, 'timeInForce'),
          nonce: big(m, 'nonce'),
        },
        agent,
      ) as never;
    case 'CancelOrder':
      return buildSignedCancel(
        ctx,
        {
          assetId: big(m, 'assetId'),
          epoch: big(m, 'epoch'),
          orderHash: m['orderHash'] as Hex,
          nonce: big(m, 'nonce'),
        },
        agent,
      ) as never;
    case 'CancelReplaceOrder': {
      const r =
        (v.request!.body['replacement'] as Record<string, string | boolean>) ??
        all.find((x) => x.message['nonce'] !== m['nonce'])!.message;
      return buildSignedCancelReplace(
        ctx,
        {
          assetId: big(m, 'assetId'),
          epoch: big(m, 'epoch'),
          cancelOrderHash: m['cancelOrderHash'] as Hex,
          side: r['side'] as boolean,
          price: big(r, 'price'),
          size: big(r, 'size'),
          timeInForce: big(r, 'timeInForce'),
          allOrNothing: m['allOrNothing'] as boolean,
          nonce: big(m, 'nonce'),
          replacementNonce: big(r, 'nonce'),
        },
        agent,
      ) as never;
    }
    case 'ClaimOrder':
      return buildSignedClaim(
        ctx,
        { assetId: big(m, 'assetId'), epoch: big(m, 'epoch'), nonce: big(m, 'nonce') },
        agent,
      ) as never;
    case 'WithdrawalOrder':
      return buildSignedWithdrawal(ctx, {
        amount: big(m, 'amount'),
        receiver: m['receiver'] as Address,
        ledger: m['ledger'] as Address,
        nonce: big(m, 'nonce'),
      }) as never;
    case 'ApproveAgentOrder':
      return buildSignedApproveAgent(ctx, {
        agent: m['agent'] as Address,
        approvalNonce: big(m, 'approvalNonce'),
        nonce: big(m, 'nonce'),
      }) as never;
    case 'RevokeAgentOrder':
      return buildSignedRevokeAgent(ctx, { nonce: big(m, 'nonce') }) as never;
    default:
      return null;
  }
}

const cases = (vectors.eip712 as unknown as Vector[]).filter(
  (v) => v.request && !v.encodingEdgeCase && build(v) !== null,
);

describe('signed builders reproduce the vectors', () => {
  it.each(cases.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const signed = await build(v)!;
    expect(signed.orderHash).toBe(v.digest);
    // Same bytes up to address letter case: we send the signer's checksummed address, some vectors lowercase.
    expect(signed.bodyText.toLowerCase()).toBe(JSON.stringify(v.request!.body).toLowerCase());
  });
});

describe('checks before signing', () => {
  const v = (vectors.eip712 as unknown as Vector[])[0]!;
  it('refuses human decimals that break the unit rules, drawing no nonce and signing nothing', async () => {
    const ctx = ctxFor(v);
    const base = { assetId: 1n, epoch: 0n, side: 'buy' as const, price: '50', size: '1' };
    for (const bad of [
      { price: '50.05' },
      { price: '99.95' },
      { price: '0.0' },
      { size: '0.001' },
      { size: '1000000000.01' },
      { price: 1_500n },
      { size: 5_000n },
    ]) {
      await expect(buildSignedOrder(ctx, { ...base, ...bad })).rejects.toBeInstanceOf(ExchangeValidationError);
    }
    expect(ctx.signer.count).toBe(0);
    const ok = await buildSignedOrder(ctx, base);
    expect(ok.request.order).toMatchObject({
      price: 500_000n,
      size: 1_000_000n,
      timeInForce: 0n,
      signatureType: 0n,
      approvalNonce: 0n,
    });
  });

  it('enforces the agent rules of docs/protocol/agents.md', async () => {
    const ctx = ctxFor(v);
    const base = { assetId: 1n, epoch: 0n, side: 'sell' as const, price: '50', size: '1' };
    await expect(
      buildSignedOrder(ctx, base, {
        master: '0x0000000000000000000000000000000000000001',
        approvalNonce: 1_780_272_000n,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_APPROVAL_NONCE' });
    await expect(
      buildSignedOrder(ctx, base, { master: ctx.signer.address, approvalNonce: 1_780_272_001n }),
    ).rejects.toMatchObject({ code: 'SIGNATURE_TYPE_MISMATCH' });
    await expect(
      buildSignedApproveAgent(ctx, { agent: ctx.signer.address, approvalNonce: 1_900_000_000n }),
    ).rejects.toMatchObject({ code: 'AGENT_CANNOT_APPROVE_ITSELF' });
    await expect(
      buildSignedCancelReplace(ctx, { ...base, cancelOrderHash: `0x${'0'.repeat(64)}` }),
    ).rejects.toMatchObject({ code: 'INVALID_ORDER_HASH' });
    expect(ctx.signer.count).toBe(0);
  });

  it('draws the replacement nonce before the cancel-replace nonce, from one allocator per signer', async () => {
    const ctx = ctxFor(v);
    const cr = await buildSignedCancelReplace(ctx, {
      assetId: 1n,
      epoch: 0n,
      cancelOrderHash: v.digest,
      side: 'buy',
      price: '50',
      size: '1',
    });
    expect(cr.request.replacement.nonce).toBeLessThan(cr.request.cancelReplace.nonce);
    const o = await buildSignedOrder(ctx, { assetId: 1n, epoch: 0n, side: 'buy', price: '50', size: '1' });
    expect(o.request.order.nonce).toBeGreaterThan(cr.request.cancelReplace.nonce);
  });

  it('blocks signing when beforeSign throws', async () => {
    const ctx = { ...ctxFor(v), beforeSign: () => Promise.reject(new Error('pin change pending')) };
    await expect(buildSignedRevokeAgent(ctx)).rejects.toThrow('pin change pending');
    expect(ctx.signer.count).toBe(0);
  });
});

describe('keySigner', () => {
  it('signs digests that recover to its own address, from a hex key or a DigestSigner', async () => {
    const key = `0x${'42'.repeat(32)}` as const;
    const digest = `0x${'ab'.repeat(32)}` as const;
    for (const signer of [keySigner(key), keySigner(new DigestSigner(key))]) {
      expect(signer.address).toBe(new DigestSigner(key).address);
      expect(recoverDigestSigner(digest, await signer.signDigest(digest))).toBe(signer.address);
    }
  });
});
