// The nine authentication failure conditions (docs/protocol/endpoints.md#why-a-signed-request-fails), each built
// deliberately, sent to the local exchange service, and explained by the signature doctor.
import { TypedDataEncoder } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError, type AuthFailureCondition, type ExchangeClient } from '../../src/client';
import {
  DigestSigner,
  buildSignedRequest,
  eip712Types,
  hashAction,
  makeExchangeDomain,
  type FillOrder,
  type Hex,
  type RequestKind,
} from '../../src/shared/protocol';
import { KEYS, startDevnet, type Devnet } from './helpers';

let net: Devnet;
let master: ExchangeClient;
const A = new DigestSigner(KEYS.master);
const B = new DigestSigner(KEYS.agent);
const X = new DigestSigner(KEYS.other);

beforeAll(async () => {
  net = await startDevnet();
  await net.svc.credit(A.address, 1_000_000_000n);
  master = net.client(KEYS.master);
  expect(await master.approveAgent({ agent: B.address })).toMatchObject({ status: 'SUCCESS' });
});

afterAll(async () => {
  master?.http.close();
  await net?.svc.stop();
});

let nonce = 1n << 40n;
function order(over: Partial<FillOrder> = {}): FillOrder {
  return {
    typ: 2n,
    nonce: nonce++,
    signer: A.address,
    signatureType: 0n,
    sender: A.address,
    epoch: 0n,
    side: false,
    assetId: net.assetId,
    size: 2_000_000n,
    price: 400_000n,
    timeInForce: 0n,
    approvalNonce: 0n,
    ...over,
  };
}

/** A wrapper with the given digest and signature, serialised like the client would. */
function wrap(o: FillOrder, orderHash: Hex, signature: Hex): Record<string, unknown> {
  return buildSignedRequest('orders', { order: o, chainId: net.svc.chainId, orderHash, signature });
}

/** POST the body as is; the exchange must refuse it. Returns the error and the doctor's verdict. */
async function refuse(
  kind: RequestKind,
  body: Record<string, unknown>,
): Promise<{ err: ExchangeHttpError; condition: AuthFailureCondition | 'UNKNOWN'; sentence: string }> {
  const err = await master.http.post(kind === 'orders' ? 'orders' : kind, JSON.stringify(body)).then(
    () => {
      throw new Error('the exchange accepted a broken request');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExchangeHttpError);
  const e = err as ExchangeHttpError;
  const d = await master.diagnose(kind, body, e.code);
  return { err: e, ...d };
}

function good(o: FillOrder): { digest: Hex; sig: Hex } {
  const digest = hashAction('FillOrder', o, net.svc.domain);
  return { digest, sig: A.sign(digest) };
}

describe('signature doctor against the exchange', () => {
  it('1. wrong chain or verifying contract', async () => {
    const wrongDomain = makeExchangeDomain({
      chainId: 31337n,
      verifyingContract: '0x000000000000000000000000000000000000dEaD',
    });
    const client = net.client(KEYS.master, { deployment: () => ({ domain: wrongDomain }) });
    const err = await client
      .placeOrder(
        { assetId: net.assetId, epoch: 0n, side: 'buy', price: '40', size: '1' },
        { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } },
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, code: 'ORDER_HASH_MISMATCH', diagnosis: { condition: 'WRONG_DOMAIN' } });
    expect((err as ExchangeHttpError).diagnosis?.sentence).toContain('0x000000000000000000000000000000000000dEaD');
    client.http.close();

    const o = order();
    const otherChain = { ...net.svc.domain, chainId: 1n };
    const digest = hashAction('FillOrder', o, otherChain);
    const body = buildSignedRequest('orders', { order: o, chainId: 1n, orderHash: digest, signature: A.sign(digest) });
    const r = await refuse('orders', body);
    expect(r.err).toMatchObject({ status: 401, code: 'WRONG_CHAIN_ID' });
    expect(r.condition).toBe('WRONG_DOMAIN');
  });

  it('2. a signed field changed after hashing', async () => {
    const o = order();
    const { digest, sig } = good(o);
    const r = await refuse('orders', wrap({ ...o, size: 3_000_000n }, digest, sig));
    expect(r.err).toMatchObject({ status: 401, code: 'ORDER_HASH_MISMATCH' });
    expect(r.condition).toBe('FIELD_CHANGED_AFTER_HASHING');
  });

  it('3. human decimals signed instead of protocol integers', async () => {
    const o = order();
    // Signed with price 40 (cents) and size 2 (contracts); sent with the protocol values.
    const digest = hashAction('FillOrder', { ...o, price: 40n, size: 2n }, net.svc.domain);
    const r = await refuse('orders', wrap(o, digest, A.sign(digest)));
    expect(r.err).toMatchObject({ status: 401, code: 'ORDER_HASH_MISMATCH' });
    expect(r.condition).toBe('HUMAN_DECIMALS_SIGNED');
  });

  it('4. wrong field order or width', async () => {
    const o = order();
    const fields = eip712Types('FillOrder')['FillOrder']!;
    // epoch, side, assetId → assetId, epoch, side (CancelOrder's order).
    const reordered = [...fields.slice(0, 5), fields[7]!, fields[5]!, fields[6]!, ...fields.slice(8)];
    const d1 = TypedDataEncoder.hash(net.svc.domain, { FillOrder: reordered }, o) as Hex;
    const r1 = await refuse('orders', wrap(o, d1, A.sign(d1)));
    expect(r1.err).toMatchObject({ status: 401, code: 'ORDER_HASH_MISMATCH' });
    expect(r1.condition).toBe('WRONG_FIELD_ORDER_OR_WIDTH');

    const widened = fields.map((f) => (f.name === 'price' ? { ...f, type: 'uint256' } : f));
    const o2 = order();
    const d2 = TypedDataEncoder.hash(net.svc.domain, { FillOrder: widened }, o2) as Hex;
    const r2 = await refuse('orders', wrap(o2, d2, A.sign(d2)));
    expect(r2.condition).toBe('WRONG_FIELD_ORDER_OR_WIDTH');
  });

  it('5. the submitted digest does not match the action', async () => {
    const o = order();
    const { sig } = good(o);
    const r = await refuse('orders', wrap(o, `0x${'ab'.repeat(32)}`, sig));
    expect(r.err).toMatchObject({ status: 401, code: 'ORDER_HASH_MISMATCH' });
    expect(r.condition).toBe('DIGEST_MISMATCH');
  });

  it('6. the recovered signer is not the signer', async () => {
    const o = order();
    const { digest } = good(o);
    const r = await refuse('orders', wrap(o, digest, X.sign(digest)));
    expect(r.err).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });
    expect(r.condition).toBe('SIGNER_MISMATCH');
    expect(r.sentence).toContain(X.address);
  });

  it('7. agent approval missing, inactive or expired', async () => {
    // X acts as an agent for B, who never approved anyone.
    const o = order({ signer: X.address, sender: B.address, signatureType: 4n, approvalNonce: 1_900_000_000n });
    const digest = hashAction('FillOrder', o, net.svc.domain);
    const r = await refuse('orders', wrap(o, digest, X.sign(digest)));
    expect(r.err).toMatchObject({ status: 401, code: 'AGENT_NOT_APPROVED' });
    expect(r.condition).toBe('AGENT_APPROVAL_NOT_ACTIVE');
  });

  it('8. wrong approval nonce', async () => {
    const current = await master.getAgentApprovalNonce(A.address);
    const o = order({ signer: B.address, signatureType: 4n, approvalNonce: current + 1n });
    const digest = hashAction('FillOrder', o, net.svc.domain);
    const r = await refuse('orders', wrap(o, digest, B.sign(digest)));
    expect(r.err).toMatchObject({ status: 401, code: 'APPROVAL_NONCE_MISMATCH' });
    expect(r.condition).toBe('WRONG_APPROVAL_NONCE');
  });

  it('9. signature type does not match the signing flow', async () => {
    // The master signs its own order but labels it an agent signature.
    const o = order({ signatureType: 4n, approvalNonce: await master.getAgentApprovalNonce(A.address) });
    const { digest, sig } = good(o);
    const r = await refuse('orders', wrap(o, digest, sig));
    expect(r.err).toMatchObject({ status: 400, code: 'SIGNATURE_TYPE_MISMATCH' });
    expect(r.condition).toBe('SIGNATURE_TYPE_MISMATCH');
  });

  it('a correct request passes the same path', async () => {
    const o = order();
    const { digest, sig } = good(o);
    const res = await master.http.post('orders', JSON.stringify(wrap(o, digest, sig)));
    expect(res.body).toMatchObject({ status: 'ACCEPTED', orderId: digest });
  });
});
