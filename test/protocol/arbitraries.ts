// fast-check arbitraries for every action type, generated from the struct table.
import fc from 'fast-check';
import {
  MAX_SIGNATURE_TYPE,
  MAX_TIME_IN_FORCE,
  STRUCTS,
  UINT_MAX,
  bytesToHex,
  type ActionOf,
  type ExchangeDomain,
  type FieldDef,
  type PrimaryType,
  type UintType,
} from '../../src/shared/protocol';

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => bytesToHex(b));

/** Addresses in lowercase or mixed case (case does not change the encoding). */
export const addressArb = fc
  .tuple(bytes(20), fc.boolean())
  .map(([h, upper]): `0x${string}` => (upper ? `0x${h.slice(2).toUpperCase()}` : h));
export const bytes32Arb = bytes(32);
export const rawBytesArb = fc.uint8Array({ minLength: 0, maxLength: 96 }).map((b) => bytesToHex(b));

/** Biased toward edges: 0, max, and small values, as well as anything in range. */
export function uintArb(max: bigint): fc.Arbitrary<bigint> {
  return fc.oneof(
    fc.constantFrom(0n, max, 1n),
    fc.bigInt({ min: 0n, max }),
    fc.bigInt({ min: 0n, max: max < 1000n ? max : 1000n }),
  );
}

export function fieldArb(f: FieldDef, typ: bigint | undefined): fc.Arbitrary<unknown> {
  if (f.enc === 'keccak' || f.type === 'bytes') return rawBytesArb;
  switch (f.type) {
    case 'bool':
      return fc.boolean();
    case 'address':
      return addressArb;
    case 'bytes32':
      return bytes32Arb;
    default:
      if (f.key === 'typ' && typ !== undefined) return fc.constant(typ);
      if (f.key === 'signatureType') return fc.bigInt({ min: 0n, max: MAX_SIGNATURE_TYPE });
      if (f.key === 'timeInForce') return fc.bigInt({ min: 0n, max: MAX_TIME_IN_FORCE });
      // Wire width where narrower, so parse(serialize(a)) holds for every generated action.
      return uintArb(UINT_MAX[(f.wire ?? f.type) as UintType]);
  }
}

export function actionArb<P extends PrimaryType>(p: P): fc.Arbitrary<ActionOf<P>> {
  const def = STRUCTS[p];
  const typ = 'typ' in def ? def.typ : undefined;
  const rec: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of def.fields as readonly FieldDef[]) rec[f.key] = fieldArb(f, typ);
  return fc.record(rec) as unknown as fc.Arbitrary<ActionOf<P>>;
}

export const domainArb: fc.Arbitrary<ExchangeDomain> = fc.record({
  name: fc.oneof(fc.constant('Service Exchange'), fc.string({ maxLength: 24 })),
  version: fc.constant('2'),
  chainId: uintArb(UINT_MAX.uint256),
  verifyingContract: addressArb,
});
