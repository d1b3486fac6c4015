// An unsigned request drafted without a key, carried as JSON, signed elsewhere and turned back into
// a body is byte for byte what the online builders send, for every kind; and everything that does
// not belong is refused with a code.
import { describe, expect, it } from 'vitest';
import { DigestSigner, SECP256K1_N, makeExchangeDomain, type Address, type Hex } from '../../shared/protocol';
import {
  NonceRegistry,
  buildSignedApproveAgent,
  buildSignedCancel,
  buildSignedCancelAll,
  buildSignedCancelReplace,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  keySigner,
  type SignedAction,
  type SigningContext,
} from '../actions/signed-actions';
import { AirgapError } from './errors';
import type { SignedResponse, UnsignedRequest } from './formats';
import {
  draftApproveAgent,
  draftCancel,
  draftCancelAll,
  draftCancelReplace,
  draftClaim,
  draftOrder,
  draftRevokeAgent,
  draftWithdrawal,
  parseUnsignedRequest,
  requestToJson,
  type DraftContext,
} from './request';
import { parseSignedResponse, responseToJson, signUnsignedRequest, toSignedAction, verifyResponse } from './response';
import { stepDigest } from './steps';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const OTHER = new DigestSigner(`0x${'22'.repeat(32)}`);
const AGENT = new DigestSigner(`0x${'33'.repeat(32)}`).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const LEDGER = '0x0000000000000000000000000000000000001ed9' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const OTHER_DOMAIN = makeExchangeDomain({ chainId: 31338n, verifyingContract: EXCHANGE });
const NOW = new Date('2026-07-01T12:00:00.000Z');
const APPROVAL_NONCE = BigInt(Math.floor(NOW.getTime() / 1000) + 150);

function draftCtx(domain = DOMAIN): DraftContext {
  return {
    signer: MASTER.address,
    domain,
    contracts: { exchange: EXCHANGE, ledger: LEDGER },
    nonces: new NonceRegistry(),
    now: () => NOW,
  };
}
function signCtx(domain = DOMAIN): SigningContext {
  return { signer: keySigner(MASTER), domain, nonces: new NonceRegistry() };
}

const ORDER = {
  assetId: 7n,
  epoch: 12n,
  side: 'buy',
  price: '62.5',
  size: '10',
  timeInForce: 'GTC',
  nonce: 1001n,
} as const;
const ORDER_HASH: Hex = `0x${'ab'.repeat(32)}`;

interface Case {
  kind: UnsignedRequest['kind'];
  draft: (ctx: DraftContext) => Promise<UnsignedRequest>;
  online: (ctx: SigningContext) => Promise<SignedAction<never>>;
}

const CASES: Case[] = [
  { kind: 'order', draft: (c) => draftOrder(c, ORDER), online: (c) => buildSignedOrder(c, ORDER) as never },
  {
    kind: 'cancel',
    draft: (c) => draftCancel(c, { assetId: 7n, epoch: 12n, orderHash: ORDER_HASH, nonce: 1002n }),
    online: (c) => buildSignedCancel(c, { assetId: 7n, epoch: 12n, orderHash: ORDER_HASH, nonce: 1002n }) as never,
  },
  {
    kind: 'cancel-all',
    draft: (c) => draftCancelAll(c, { assetId: 7n, epoch: 12n, nonce: 1003n }),
    online: (c) => buildSignedCancelAll(c, { assetId: 7n, epoch: 12n, nonce: 1003n }) as never,
  },
  {
    kind: 'cancel-replace',
    draft: (c) =>
      draftCancelReplace(c, {
        assetId: 7n,
        epoch: 12n,
        cancelOrderHash: ORDER_HASH,
        side: 'sell',
        price: '40',
        size: '3',
        nonce: 1004n,
        replacementNonce: 1005n,
      }),
    online: (c) =>
      buildSignedCancelReplace(c, {
        assetId: 7n,
        epoch: 12n,
        cancelOrderHash: ORDER_HASH,
        side: 'sell',
        price: '40',
        size: '3',
        nonce: 1004n,
        replacementNonce: 1005n,
      }) as never,
  },
  {
    kind: 'claim',
    draft: (c) => draftClaim(c, { assetId: 7n, epoch: 11n, nonce: 1006n }),
    online: (c) => buildSignedClaim(c, { assetId: 7n, epoch: 11n, nonce: 1006n }) as never,
  },
  {
    kind: 'withdrawal',
    draft: (c) => draftWithdrawal(c, { amount: '12.5', ledger: LEDGER, receiver: AGENT, nonce: 1007n }),
    online: (c) => buildSignedWithdrawal(c, { amount: '12.5', ledger: LEDGER, receiver: AGENT, nonce: 1007n }) as never,
  },
  {
    kind: 'agent-approval',
    draft: (c) => draftApproveAgent(c, { agent: AGENT, approvalNonce: APPROVAL_NONCE, nonce: 1008n }),
    online: (c) => buildSignedApproveAgent(c, { agent: AGENT, approvalNonce: APPROVAL_NONCE, nonce: 1008n }) as never,
  },
  {
    kind: 'agent-revocation',
    draft: (c) => draftRevokeAgent(c, { nonce: 1009n }),
    online: (c) => buildSignedRevokeAgent(c, { nonce: 1009n }) as never,
  },
];

/** Through JSON text, as a file or a QR payload carries it. */
const carry = <T>(v: T): unknown => JSON.parse(JSON.stringify(v)) as unknown;

async function roundTrip(c: Case): Promise<{ request: UnsignedRequest; response: SignedResponse }> {
  const drafted = await c.draft(draftCtx());
  const offline = parseUnsignedRequest(carry(requestToJson(drafted)));
  const signed = await signUnsignedRequest(offline, keySigner(MASTER), () => NOW);
  return { request: drafted, response: parseSignedResponse(carry(responseToJson(signed))) };
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AirgapError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe.each(CASES)('air-gapped $kind', (c) => {
  it('gives the same body, digest and signatures as the online builder', async () => {
    const { request, response } = await roundTrip(c);
    const online = await c.online(signCtx());
    const offline = toSignedAction(request, response);
    expect(offline.kind).toBe(online.kind);
    expect(offline.bodyText).toBe(online.bodyText);
    expect(offline.orderHash).toBe(online.orderHash);
    expect(offline.request).toEqual(online.request);
    expect(request.kind).toBe(c.kind);
  });

  it('reads back the request it wrote, fingerprint and all', async () => {
    const drafted = await c.draft(draftCtx());
    const again = parseUnsignedRequest(carry(requestToJson(drafted)));
    expect(again).toEqual({ ...drafted, domain: { ...drafted.domain } });
    expect(drafted.fingerprint).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
  });

  it('refuses a response signed by another key', async () => {
    const { request, response } = await roundTrip(c);
    const prior: Hex[] = [];
    const forged = response.signatures.map((s, i) => {
      const signature = OTHER.sign(stepDigest(request, i, prior));
      prior.push(signature);
      return { digest: stepDigest(request, i, prior.slice(0, i)), signature };
    });
    expect(code(() => verifyResponse(request, { ...response, signatures: forged }))).toBe('AIRGAP_WRONG_KEY');
  });

  it('refuses a response signed under another domain', async () => {
    const { request } = await roundTrip(c);
    const elsewhere = { ...(await c.draft(draftCtx(OTHER_DOMAIN))), id: request.id, fingerprint: request.fingerprint };
    const signed = await signUnsignedRequest(elsewhere, keySigner(MASTER), () => NOW);
    expect(code(() => verifyResponse(request, signed))).toBe('AIRGAP_DOMAIN_MISMATCH');
    // The same signatures presented under the request's own domain: their digests are not the request's.
    expect(code(() => verifyResponse(request, { ...signed, domain: request.domain }))).toBe('AIRGAP_DIGEST_MISMATCH');
    // And digests copied from the request do not make another domain's signatures recover to the signer.
    const copied = signed.signatures.map((s, i) => ({
      digest: stepDigest(
        request,
        i,
        signed.signatures.slice(0, i).map((x) => x.signature),
      ),
      signature: s.signature,
    }));
    expect(code(() => verifyResponse(request, { ...signed, domain: request.domain, signatures: copied }))).toBe(
      'AIRGAP_WRONG_KEY',
    );
  });
});

describe('air-gapped responses', () => {
  it('refuses a high-s signature, a changed digest, another request, another signer and a wrong count', async () => {
    const { request, response } = await roundTrip(CASES[0]!);
    const sig = response.signatures[0]!.signature;
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = parseInt(sig.slice(130), 16);
    const highS =
      `${sig.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    expect(
      code(() =>
        verifyResponse(request, { ...response, signatures: [{ ...response.signatures[0]!, signature: highS }] }),
      ),
    ).toBe('AIRGAP_HIGH_S');
    const v0 = `${sig.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex;
    expect(
      code(() => verifyResponse(request, { ...response, signatures: [{ ...response.signatures[0]!, signature: v0 }] })),
    ).toBe('AIRGAP_BAD_SIGNATURE');
    const digest = `0x${'00'.repeat(31)}01` as Hex;
    expect(
      code(() => verifyResponse(request, { ...response, signatures: [{ ...response.signatures[0]!, digest }] })),
    ).toBe('AIRGAP_DIGEST_MISMATCH');
    expect(code(() => verifyResponse(request, { ...response, requestId: '0'.repeat(32) }))).toBe(
      'AIRGAP_REQUEST_MISMATCH',
    );
    expect(code(() => verifyResponse(request, { ...response, signer: OTHER.address }))).toBe('AIRGAP_SIGNER_MISMATCH');
    expect(
      code(() =>
        verifyResponse(request, { ...response, signatures: [...response.signatures, ...response.signatures] }),
      ),
    ).toBe('AIRGAP_INCONSISTENT');
    expect(code(() => toSignedAction(request, { ...response, signer: OTHER.address }))).toBe('AIRGAP_SIGNER_MISMATCH');
  });

  it('will not sign with another key than the request names, nor an expired agent approval', async () => {
    const order = await draftOrder(draftCtx(), ORDER);
    await expect(signUnsignedRequest(order, keySigner(OTHER))).rejects.toMatchObject({ code: 'AIRGAP_WRONG_KEY' });
    const approval = await draftApproveAgent(draftCtx(), { agent: AGENT, approvalNonce: APPROVAL_NONCE });
    const later = () => new Date(Number(APPROVAL_NONCE) * 1000 + 1);
    await expect(signUnsignedRequest(approval, keySigner(MASTER), later)).rejects.toMatchObject({
      code: 'AIRGAP_EXPIRED',
    });
  });
});

describe('reading unsigned requests', () => {
  it('refuses a request changed after it was prepared', async () => {
    const json = requestToJson(await draftOrder(draftCtx(), ORDER)) as unknown as { order: Record<string, unknown> };
    json.order['price'] = '990000';
    expect(code(() => parseUnsignedRequest(carry(json)))).toBe('AIRGAP_FINGERPRINT_MISMATCH');
  });

  it('says what a value is when it is not an unsigned request', async () => {
    const { response } = await roundTrip(CASES[0]!);
    const json = requestToJson(await draftOrder(draftCtx(), ORDER));
    expect(code(() => parseUnsignedRequest(carry(responseToJson(response))))).toBe('AIRGAP_NOT_OURS');
    expect(code(() => parseUnsignedRequest({ ...json, format: 'exchange-terminal/unsigned-request@2' }))).toBe(
      'AIRGAP_UNSUPPORTED_VERSION',
    );
    expect(code(() => parseUnsignedRequest('hello'))).toBe('AIRGAP_NOT_OURS');
    const { signer: _s, ...missing } = json;
    expect(code(() => parseUnsignedRequest(carry(missing)))).toBe('AIRGAP_MALFORMED');
    expect(code(() => parseUnsignedRequest({ ...(carry(json) as object), extra: 1 }))).toBe('AIRGAP_MALFORMED');
  });

  it('refuses structs that break the rules of their kind', async () => {
    const withdrawal = requestToJson(await draftWithdrawal(draftCtx(), { amount: '1', ledger: LEDGER, nonce: 5n }));
    expect(code(() => parseUnsignedRequest({ ...withdrawal, contracts: { exchange: EXCHANGE, ledger: AGENT } }))).toBe(
      'AIRGAP_INCONSISTENT',
    );
    const order = requestToJson(await draftOrder(draftCtx(), ORDER));
    expect(code(() => parseUnsignedRequest({ ...order, signer: OTHER.address }))).toBe('AIRGAP_INCONSISTENT');
    expect(code(() => parseUnsignedRequest({ ...order, kind: 'cancel' }))).toBe('AIRGAP_MALFORMED');
    const all = requestToJson(await draftCancelAll(draftCtx(), { assetId: 1n, epoch: 2n, nonce: 6n }));
    expect(code(() => parseUnsignedRequest({ ...all, kind: 'cancel' }))).toBe('AIRGAP_INCONSISTENT');
    expect(code(() => parseUnsignedRequest({ ...order, contracts: { exchange: LEDGER, ledger: LEDGER } }))).toBe(
      'AIRGAP_INCONSISTENT',
    );
  });

  it('binds the fingerprint to the domain', async () => {
    const a = await draftOrder(draftCtx(), ORDER);
    const b = await draftOrder(draftCtx(OTHER_DOMAIN), ORDER);
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });
});
