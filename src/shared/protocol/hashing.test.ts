// Property tests: our fast encoder equals ethers' stock EIP-712 encoder, and every signed
// field and domain member changes the digest.
import { TypedDataEncoder, keccak256 } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionArb, domainArb } from '../../../test/protocol/arbitraries';
import {
  PRIMARY_TYPES,
  ProtocolValidationError,
  STRUCTS,
  UINT_MAX,
  domainSeparator,
  eip712Types,
  hashAction,
  hashedFields,
  hashFillOrderJS,
  makeExchangeDomain,
  structHash,
  type ActionOf,
  type ExchangeDomain,
  type FieldDef,
  type FillOrder,
  type PrimaryType,
} from './index';

/** What a stock encoder needs: hashed-bytes fields replaced by their keccak, skipped fields removed. */
function ethersValue(p: PrimaryType, action: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of hashedFields(p))
    out[f.member ?? f.key] = f.enc === 'keccak' ? keccak256(action[f.key] as string) : action[f.key];
  return out;
}

function ethersDigest(p: PrimaryType, action: Record<string, unknown>, d: ExchangeDomain): string {
  return TypedDataEncoder.hash(d, eip712Types(p), ethersValue(p, action));
}

/** A different value of the same field, still valid for its type. */
function mutate(f: FieldDef, v: unknown): unknown {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'bigint') {
    const max = UINT_MAX[f.type as keyof typeof UINT_MAX];
    return v === max ? v - 1n : v + 1n;
  }
  const s = v as string;
  if (s === '0x') return '0x00';
  const last = s.slice(-1).toLowerCase();
  return s.slice(0, -1) + (last === '0' ? '1' : '0');
}

describe.each(PRIMARY_TYPES)('%s hashing', (p) => {
  it('equals ethers TypedDataEncoder.hash on random actions and domains', () => {
    fc.assert(
      fc.property(actionArb(p), domainArb, (a, d) => {
        expect(hashAction(p, a, d)).toBe(ethersDigest(p, a as Record<string, unknown>, d));
      }),
      { numRuns: 150 },
    );
  });

  it('changes when any one hashed field changes', () => {
    const fields = hashedFields(p).filter((f) => f.key !== 'typ');
    fc.assert(
      fc.property(actionArb(p), domainArb, fc.nat(), (a, d, pick) => {
        if (fields.length === 0) return;
        const f = fields[pick % fields.length]!;
        const changed = { ...a, [f.key]: mutate(f, (a as Record<string, unknown>)[f.key]) } as ActionOf<typeof p>;
        expect(hashAction(p, changed, d)).not.toBe(hashAction(p, a, d));
      }),
      { numRuns: 200 },
    );
  });

  it('ignores unhashed extras and typ mismatches are refused', () => {
    fc.assert(
      fc.property(actionArb(p), (a) => {
        const skipped = (STRUCTS[p].fields as readonly FieldDef[]).filter((f) => f.enc === 'skip');
        for (const f of skipped) {
          const other = { ...a, [f.key]: mutate(f, (a as Record<string, unknown>)[f.key]) } as ActionOf<typeof p>;
          expect(structHash(p, other)).toBe(structHash(p, a));
        }
        if ('typ' in a) {
          expect(() => structHash(p, { ...a, typ: a.typ + 1n })).toThrow(ProtocolValidationError);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('domain sensitivity', () => {
  it('chainId, verifyingContract and name each change the digest', () => {
    fc.assert(
      fc.property(actionArb('FillOrder'), domainArb, (a, d) => {
        const base = hashAction('FillOrder', a, d);
        const flip = d.verifyingContract.slice(0, -1) + (d.verifyingContract.endsWith('0') ? '1' : '0');
        expect(hashAction('FillOrder', a, { ...d, chainId: d.chainId === 0n ? 1n : d.chainId - 1n })).not.toBe(base);
        expect(hashAction('FillOrder', a, { ...d, verifyingContract: flip as `0x${string}` })).not.toBe(base);
        expect(hashAction('FillOrder', a, { ...d, name: `${d.name}x` })).not.toBe(base);
      }),
      { numRuns: 100 },
    );
  });

  it('caches frozen domains without mixing them up, and sees mutation of unfrozen ones', () => {
    const a = makeExchangeDomain({ chainId: 1n, verifyingContract: '0x0000000000000000000000000000000000000001' });
    const b = makeExchangeDomain({
      chainId: 1n,
      verifyingContract: '0x0000000000000000000000000000000000000001',
      name: 'Other',
    });
    expect(Object.isFrozen(a)).toBe(true);
    expect(domainSeparator(a)).not.toBe(domainSeparator(b));
    expect(domainSeparator(a)).toBe(TypedDataEncoder.hashDomain(a));
    const m: ExchangeDomain = { ...a };
    const before = domainSeparator(m);
    m.chainId = 2n;
    expect(domainSeparator(m)).not.toBe(before);
    expect(domainSeparator(m)).toBe(TypedDataEncoder.hashDomain(m));
  });
});

describe('width checks name the field', () => {
  const d = makeExchangeDomain({ chainId: 31337n, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' });
  const order: FillOrder = {
    typ: 2n,
    nonce: 1n,
    signer: '0x43986B5F392B5aaa05a899abA415f57825C51786',
    signatureType: 0n,
    sender: '0x43986B5F392B5aaa05a899abA415f57825C51786',
    epoch: 0n,
    side: false,
    assetId: 1n,
    size: 10_000n,
    price: 500_000n,
    timeInForce: 0n,
    approvalNonce: 0n,
  };
  const cases: [string, Partial<Record<keyof FillOrder, unknown>>, string, string][] = [
    ['price above uint24', { price: 1n << 24n }, '$.price', 'integer_out_of_range'],
    ['negative size', { size: -1n }, '$.size', 'integer_out_of_range'],
    ['nonce as number', { nonce: 5 }, '$.nonce', 'invalid_type'],
    ['bad address', { signer: '0x1234' }, '$.signer', 'invalid_value'],
    ['side as string', { side: 'false' }, '$.side', 'invalid_type'],
    ['missing epoch', { epoch: undefined }, '$.epoch', 'missing_field'],
  ];
  it.each(cases)('%s', (_n, patch, path, code) => {
    const bad = { ...order, ...patch } as FillOrder;
    try {
      hashFillOrderJS(bad, d);
      expect.unreachable('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolValidationError);
      expect((e as ProtocolValidationError).issues[0]).toMatchObject({ path, code });
    }
  });

  it('valid order hashes the same as ethers', () => {
    expect(hashFillOrderJS(order, d)).toBe(ethersDigest('FillOrder', order as unknown as Record<string, unknown>, d));
  });
});
