import { describe, expect, it } from 'vitest';
import { packAssetId } from '../../../shared/protocol';
import { BridgeFailure } from '../bridge-runtime';
import { decodeAssetId } from './asset-decoder';

const FIELDS = { id: 1n, marketType: 1n, startTime: 1_770_000_000n, periodLength: 300n, strike: 0n, range: 0n };

function refusal(text: string): string {
  try {
    decodeAssetId(text);
  } catch (e) {
    if (e instanceof BridgeFailure) {
      expect(e.code).toBe('markets.malformed_asset_id');
      return e.message;
    }
    throw e;
  }
  throw new Error(`${text} was accepted`);
}

describe('decodeAssetId', () => {
  it('decodes the fields of an up/down asset id, spaces around it allowed', () => {
    const id = packAssetId(FIELDS);
    const d = decodeAssetId(`  ${id}\n`);
    expect(d.assetId).toBe(id);
    expect(d.fields).toMatchObject({ id: 1n, marketType: 1n, startTime: 1_770_000_000n, periodLength: 300n });
    expect(d.timeframe).toBe('5m');
  });

  it("decodes the protocol document's worked example", () => {
    const d = decodeAssetId('261336857817713630688382311349658711122006440411137');
    expect(d.fields).toMatchObject({
      id: 1n,
      marketType: 1n,
      startTime: 1770101819n,
      periodLength: 1106026906n,
      strike: 3_000_000_000n,
      range: 0n,
      reserved: 0n,
    });
  });

  it('refuses what cannot be an up/down asset id, with a sentence', () => {
    expect(refusal('12abc')).toMatch(/decimal digits only/);
    expect(refusal('0x2a')).toMatch(/decimal digits only/);
    expect(refusal('-5')).toMatch(/decimal digits only/);
    expect(refusal('')).toMatch(/decimal digits only/);
    expect(refusal('1'.repeat(79))).toMatch(/decimal digits only/);
    expect(refusal('9'.repeat(78))).toMatch(/larger than any asset id/);
    expect(refusal(`0${packAssetId(FIELDS)}`)).toMatch(/leading zeros/);
    expect(refusal(packAssetId({ ...FIELDS, marketType: 2n }).toString())).toMatch(
      /market type 2; the app trades up\/down markets \(type 1\) only/,
    );
    expect(refusal(packAssetId({ ...FIELDS, periodLength: 0n }).toString())).toMatch(/no period length/);
    expect(refusal(packAssetId({ ...FIELDS, id: 0n }).toString())).toMatch(/symbol id 0/);
    expect(refusal(packAssetId({ ...FIELDS, reserved: 1n }).toString())).toMatch(/reserved field/);
  });
});
