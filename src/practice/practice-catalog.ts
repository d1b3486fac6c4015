/**
 * Practice mode's markets: 1-minute, 5-minute and hourly up/down on BTC, ETH and SOL, each epoch's
 * strike the oracle price at its start, rolling forever. Epoch 0 starts on the hour at or before the
 * journal's genesis, so every market's epochs line up on the clock (an hourly epoch ends on the hour).
 */
import { defineMarket, DEVNET_SYMBOLS, type MarketCatalog } from '../exchange/markets';

export const PRACTICE_PERIODS = [60n, 300n, 3600n] as const;

export function practiceCatalog(genesisSec: bigint): MarketCatalog {
  const startTime = genesisSec - (genesisSec % 3600n);
  const symbols = [DEVNET_SYMBOLS.BTC, DEVNET_SYMBOLS.ETH, DEVNET_SYMBOLS.SOL];
  return {
    symbols,
    markets: symbols.flatMap((symbol) =>
      PRACTICE_PERIODS.map((periodLength) => defineMarket({ symbol, startTime, periodLength })),
    ),
  };
}
