/**
 * The practice exchange's markets as the market list names them. Its ready message lists asset ids
 * only; the oracle symbol is the asset id's base id (docs/protocol), named here for people. Main
 * cannot import the practice exchange (lint boundary), so the few symbols it runs are named once here.
 */
import { unpackAssetId } from '../../../shared/protocol';

const SYMBOLS: Readonly<Record<string, string>> = { '1': 'BTC', '2': 'ETH', '3': 'SOL', '4': 'XRP', '5': 'DOGE' };

export function practiceSymbol(assetId: bigint): string {
  const id = unpackAssetId(assetId).id.toString();
  return SYMBOLS[id] ?? `Symbol ${id}`;
}

/** The deployment's market list, in the order the worker listed them. */
export function practiceMarkets(assetIds: readonly bigint[]): { assetId: string; symbol: string }[] {
  return assetIds.slice(0, 200).map((assetId) => ({ assetId: assetId.toString(), symbol: practiceSymbol(assetId) }));
}
