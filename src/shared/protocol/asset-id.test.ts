import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vectors } from '../../../test/protocol/vector-helpers';
import {
  ASSET_ID_LAYOUT,
  ProtocolValidationError,
  UnitsError,
  assetExpiration,
  formatTimeframe,
  packAssetId,
  parseTimeframe,
  unpackAssetId,
  type AssetIdFields,
} from './index';

const fieldsOf = (f: Record<string, string>): AssetIdFields =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, BigInt(v)])) as unknown as AssetIdFields;

describe('asset id vectors', () => {
  it('layout matches the fixture', () => {
    expect(
      ASSET_ID_LAYOUT.map(([field, offset, width]) => ({ field, offset: Number(offset), width: Number(width) })),
    ).toEqual(vectors.assetIds.layoutLsbFirst);
  });
  it.each(vectors.assetIds.cases.map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const fields = fieldsOf(c.fields);
    const id = packAssetId(fields);
    expect(id).toBe(BigInt(c.assetId));
    expect(`0x${id.toString(16).padStart(64, '0')}`).toBe(c.assetIdHex);
    expect(unpackAssetId(BigInt(c.assetId))).toEqual(fields);
    expect(assetExpiration(id)).toBe(BigInt(c.expiration));
  });
  it('the worked example of docs/protocol/units.md#asset-ids', () => {
    const f = unpackAssetId(261336857817713630688382311349658711122006440411137n);
    expect(f).toEqual({
      id: 1n,
      marketType: 1n,
      startTime: 1770101819n,
      periodLength: 1106026906n,
      strike: 3_000_000_000n,
      range: 0n,
      reserved: 0n,
    });
  });
});

describe('asset id properties', () => {
  const arb = fc.record(
    Object.fromEntries(
      ASSET_ID_LAYOUT.map(([name, , width]) => [name, fc.bigInt({ min: 0n, max: (1n << width) - 1n })]),
    ),
  ) as unknown as fc.Arbitrary<AssetIdFields>;
  it('unpack(pack(f)) == f', () => {
    fc.assert(
      fc.property(arb, (f) => {
        expect(unpackAssetId(packAssetId(f))).toEqual(f);
      }),
    );
  });
  it('rejects a field beyond its width, naming it', () => {
    const f = fieldsOf(vectors.assetIds.cases[0]!.fields);
    try {
      packAssetId({ ...f, strike: 1n << 48n });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolValidationError);
      expect((e as ProtocolValidationError).issues).toEqual([
        expect.objectContaining({ path: '$.strike', code: 'integer_out_of_range' }),
      ]);
    }
    expect(() => unpackAssetId(1n << 256n)).toThrow(ProtocolValidationError);
  });
});

describe('timeframes', () => {
  it('parses every unit', () => {
    expect(parseTimeframe('15m')).toBe(900n);
    expect(parseTimeframe('1H')).toBe(3600n);
    expect(parseTimeframe('1h')).toBe(3600n);
    expect(parseTimeframe('30s')).toBe(30n);
    expect(parseTimeframe('1d')).toBe(86_400n);
    expect(parseTimeframe('1w')).toBe(604_800n);
    expect(parseTimeframe('1M')).toBe(2_592_000n);
    expect(parseTimeframe('1y')).toBe(31_536_000n);
    for (const bad of ['0m', '15', 'm', '1.5h', '-1h', '15 m', '01m', '1x'])
      expect(() => parseTimeframe(bad), bad).toThrow(UnitsError);
  });
  it('formats with the largest exact unit', () => {
    expect(formatTimeframe(900n)).toBe('15m');
    expect(formatTimeframe(3600n)).toBe('1h');
    expect(formatTimeframe(90n)).toBe('90s');
    expect(formatTimeframe(86_400n * 7n)).toBe('1w');
    expect(() => formatTimeframe(0n)).toThrow(UnitsError);
  });
  it('parse(format(s)) == s', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (s) => parseTimeframe(formatTimeframe(s)) === s));
  });
});
