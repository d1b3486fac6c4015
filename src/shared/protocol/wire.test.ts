import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionArb, bytes32Arb } from '../../../test/protocol/arbitraries';
import { vectors } from '../../../test/protocol/vector-helpers';
import {
  DigestSigner,
  PRIMARY_TYPES,
  ProtocolValidationError,
  REQUEST_KINDS,
  STRUCTS,
  buildSignedRequest,
  checkSignedAction,
  hashAction,
  makeExchangeDomain,
  parseAction,
  parseSignedRequest,
  serializeAction,
  signCancelReplaceRequest,
  signRequest,
  type RequestKind,
  type SimpleRequestKind,
} from './index';

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolValidationError);
    return (e as ProtocolValidationError).issues;
  }
  throw new Error('expected a ProtocolValidationError');
}

describe.each(PRIMARY_TYPES)('%s wire', (p) => {
  it('parse(serialize(a)) deep-equals a, keys in table order, integers as strings', () => {
    fc.assert(
      fc.property(actionArb(p), (a) => {
        const json = serializeAction(p, a);
        expect(Object.keys(json)).toEqual(STRUCTS[p].fields.map((f) => f.key));
        expect(Object.values(json).every((v) => typeof v === 'string' || typeof v === 'boolean')).toBe(true);
        const text = JSON.stringify(json);
        expect(parseAction(p, JSON.parse(text))).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });
});

const order = (vectors.eip712[0]!.request!.body as unknown as { order: Record<string, unknown> }).order;

describe('rejections carry path and code', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['JSON number', { ...order, price: 625000 }, '$.price', 'invalid_type'],
    ['leading zero', { ...order, price: '0625000' }, '$.price', 'invalid_decimal_string'],
    ['sign', { ...order, size: '-1' }, '$.size', 'invalid_decimal_string'],
    ['exponent', { ...order, size: '1e6' }, '$.size', 'invalid_decimal_string'],
    ['uint24 overflow', { ...order, price: '16777216' }, '$.price', 'integer_out_of_range'],
    ['uint32 overflow', { ...order, epoch: '4294967296' }, '$.epoch', 'integer_out_of_range'],
    ['huge digit string', { ...order, assetId: '9'.repeat(200) }, '$.assetId', 'integer_out_of_range'],
    ['wrong typ', { ...order, typ: '3' }, '$.typ', 'invalid_value'],
    ['signatureType 5', { ...order, signatureType: '5' }, '$.signatureType', 'invalid_value'],
    ['timeInForce 4', { ...order, timeInForce: '4' }, '$.timeInForce', 'invalid_value'],
    ['side string', { ...order, side: 'false' }, '$.side', 'invalid_type'],
    ['short address', { ...order, signer: '0x1234' }, '$.signer', 'invalid_value'],
    ['unknown field', { ...order, extra: '1' }, '$.extra', 'unknown_field'],
  ];
  it.each(cases)('%s', (_n, json, path, code) => {
    expect(issuesOf(() => parseAction('FillOrder', json))).toContainEqual(expect.objectContaining({ path, code }));
  });

  it('missing field', () => {
    const { epoch: _e, ...rest } = order;
    const issues = issuesOf(() => parseAction('FillOrder', rest));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'missing_field', path: '$.epoch' });
    expect(issues[0]!.message).toMatch(/required/);
  });

  it('not an object', () => {
    expect(issuesOf(() => parseAction('FillOrder', 'x'))[0]).toMatchObject({ code: 'invalid_type', path: '$' });
  });

  it('nested paths inside a wrapper, and wrapper fields', () => {
    const body = vectors.eip712[0]!.request!.body as unknown as { order: Record<string, unknown> };
    expect(issuesOf(() => parseSignedRequest('orders', { ...body, order: { ...body.order, price: 1 } }))).toEqual([
      expect.objectContaining({ path: '$.order.price', code: 'invalid_type' }),
    ]);
    expect(issuesOf(() => parseSignedRequest('orders', { ...body, chainId: 31337 }))[0]).toMatchObject({
      path: '$.chainId',
      code: 'invalid_type',
    });
    expect(issuesOf(() => parseSignedRequest('orders', { ...body, signature: '0x1234' }))[0]).toMatchObject({
      path: '$.signature',
      code: 'invalid_value',
    });
    expect(issuesOf(() => parseSignedRequest('orders', { ...body, x: 1 }))[0]).toMatchObject({
      path: '$.x',
      code: 'unknown_field',
    });
    const { order: _o, ...noOrder } = body;
    expect(issuesOf(() => parseSignedRequest('orders', noOrder))[0]).toMatchObject({
      path: '$.order',
      code: 'missing_field',
    });
    // The action under another kind's key is rejected.
    expect(issuesOf(() => parseSignedRequest('cancels', body)).map((i) => i.code)).toEqual(
      expect.arrayContaining(['missing_field', 'unknown_field']),
    );
  });

  it('raw bytes fields must be even-length hex', () => {
    const body = vectors.eip712.find((v) => v.primaryType === 'ApproveAgentOrder')!.request!.body as unknown as Record<
      string,
      Record<string, unknown>
    >;
    const bad = { ...body, approval: { ...body['approval'], approvalSignature: '0xabc' } };
    expect(issuesOf(() => parseSignedRequest('agentsApprove', bad))[0]).toMatchObject({
      path: '$.approval.approvalSignature',
      code: 'invalid_value',
    });
  });

  it('serializeAction refuses out-of-range values', () => {
    const a = parseAction('FillOrder', order);
    expect(issuesOf(() => serializeAction('FillOrder', { ...a, price: 1n << 24n }))[0]).toMatchObject({
      path: '$.price',
      code: 'integer_out_of_range',
    });
    expect(issuesOf(() => serializeAction('FillOrder', { ...a, timeInForce: 9n }))[0]).toMatchObject({
      path: '$.timeInForce',
      code: 'invalid_value',
    });
  });
});

describe('signed requests end to end', () => {
  const domain = makeExchangeDomain({
    chainId: 31337n,
    verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  });
  const signer = new DigestSigner(vectors.eip712[0]!.privateKey as `0x${string}`);
  const simpleKinds = (Object.keys(REQUEST_KINDS) as RequestKind[]).filter(
    (k): k is SimpleRequestKind => k !== 'cancelReplace',
  );

  it.each(simpleKinds)('%s: sign, build, stringify, parse, verify', (kind) => {
    const p = REQUEST_KINDS[kind].primaryType;
    fc.assert(
      fc.property(actionArb(p), (a) => {
        const req = signRequest(kind, { ...a, signer: signer.address }, domain, signer);
        const text = JSON.stringify(buildSignedRequest(kind, req));
        const back = parseSignedRequest(kind, JSON.parse(text));
        expect(back).toEqual(req);
        const action = (back as unknown as Record<string, never>)[STRUCTS[p].jsonKey]!;
        expect(checkSignedAction(p, action, domain, back.orderHash, back.signature, signer.address)).toBe('ok');
        expect(
          checkSignedAction(p, action, { ...domain, chainId: 1n }, back.orderHash, back.signature, signer.address),
        ).toBe('hash_mismatch');
        expect(
          checkSignedAction(
            p,
            action,
            domain,
            back.orderHash,
            back.signature,
            '0x0000000000000000000000000000000000000001',
          ),
        ).toBe('signer_mismatch');
      }),
      { numRuns: 10 },
    );
  });

  it('cancel-replace embeds the replacement digest and key order matches docs/protocol/endpoints.md', () => {
    fc.assert(
      fc.property(actionArb('CancelReplaceOrder'), actionArb('FillOrder'), bytes32Arb, (cr, rep, _h) => {
        const { replacementOrderHash: _r, ...outer } = cr;
        const req = signCancelReplaceRequest(outer, rep, domain, signer);
        expect(req.cancelReplace.replacementOrderHash).toBe(hashAction('FillOrder', rep, domain));
        const body = buildSignedRequest('cancelReplace', req);
        expect(Object.keys(body)).toEqual([
          'cancelReplace',
          'replacement',
          'chainId',
          'orderHash',
          'signature',
          'replacementOrderHash',
          'replacementSignature',
        ]);
        expect(parseSignedRequest('cancelReplace', JSON.parse(JSON.stringify(body)))).toEqual(req);
      }),
      { numRuns: 10 },
    );
  });
});
