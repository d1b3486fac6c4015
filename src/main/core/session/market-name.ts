/** Market names for sentences main writes: "BTC 1m #3" (amounts: formatDollars in shared/protocol). */
import { formatTimeframe, unpackAssetId } from '../../../shared/protocol';

/** A market as a trader names it: symbol, timeframe (from the asset id) and epoch. */
export function marketLabel(symbol: string, assetId: bigint, epoch: bigint): string {
  return `${symbol} ${formatTimeframe(unpackAssetId(assetId).periodLength)} #${epoch}`;
}
