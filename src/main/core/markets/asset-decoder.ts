/**
 * Reads an asset id the user pasted: a uint256 in decimal whose bits carry the oracle symbol id,
 * market type, start time, period and strike (docs/asset-ids.md). Anything that cannot be a market
 * of this protocol is refused with one sentence saying why, before main asks the exchange about it.
 */
import { formatTimeframe, unpackAssetId, type AssetIdFields } from '../../../shared/protocol';
import { BridgeFailure } from '../bridge-runtime';

/** The up/down market type (the only one this app trades). */
export const UP_DOWN_MARKET = 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

export interface DecodedAsset {
  readonly assetId: bigint;
  readonly fields: AssetIdFields;
  /** "1m", "5m", "1h". */
  readonly timeframe: string;
}

function malformed(sentence: string): BridgeFailure {
  return new BridgeFailure('markets.malformed_asset_id', sentence);
}

/** Decodes pasted text (surrounding spaces allowed) or throws markets.malformed_asset_id. */
export function decodeAssetId(text: string): DecodedAsset {
  const s = text.trim();
  if (!/^[0-9]{1,78}$/.test(s)) {
    throw malformed(
      'An asset id is a whole number written in decimal digits only (up to 78 of them), as the exchange lists it.',
    );
  }
  if (s.length > 1 && s.startsWith('0'))
    throw malformed('An asset id has no leading zeros: paste it exactly as the exchange lists it.');
  const assetId = BigInt(s);
  if (assetId > MAX_UINT256) throw malformed('That number is larger than any asset id (a 256-bit value).');
  const fields = unpackAssetId(assetId);
  if (fields.marketType !== UP_DOWN_MARKET) {
    throw malformed(
      `This asset id is for market type ${fields.marketType}; the app trades up/down markets (type 1) only.`,
    );
  }
  if (fields.periodLength === 0n)
    throw malformed('This asset id has no period length, so it cannot be an up/down market.');
  if (fields.id === 0n) throw malformed('This asset id names no oracle symbol (symbol id 0).');
  if (fields.reserved !== 0n)
    throw malformed(
      'This asset id has bits set in its reserved field: it was not made by this protocol or was mistyped.',
    );
  return { assetId, fields, timeframe: formatTimeframe(fields.periodLength) };
}
