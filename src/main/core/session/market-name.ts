/** Names and units for sentences main writes: "BTC 1m #3", "$3.80". */
import { formatTimeframe, unpackAssetId } from '../../../shared/protocol';

/** A market as a trader names it: symbol, timeframe (from the asset id) and epoch. */
export function marketLabel(symbol: string, assetId: bigint, epoch: bigint): string {
  return `${symbol} ${formatTimeframe(unpackAssetId(assetId).periodLength)} #${epoch}`;
}

/** Protocol units (10^6 per dollar) as dollars with cents, exact: 3_800_000n → "$3.80", 1_234n → "$0.001234". */
export function dollars(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = (abs / 1_000_000n).toLocaleString('en-US');
  const frac = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}$${whole}.${frac}`;
}
