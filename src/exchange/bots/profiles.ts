/**
 * Slightly different parameters per bot, so several bots make a book with depth and texture
 * rather than one ladder stacked N times.
 *
 * Tuned for tight books on the 1-minute market: the inner levels sit 1–2 ticks from fair and are
 * the largest a taker meets, while an IOC takes at most a fraction of one inner level (20–40 lots
 * against 400+), so a take thins the top instead of emptying it; the bot refills at once from the
 * fill on its market feed (liquidity-bot.ts), not on its next timer step. Outer levels step by one
 * or two ticks and grow, so a burst of takes still meets size within a few ticks.
 */
import type { MarketMakerConfig } from './market-maker';

export function botProfile(index: number): MarketMakerConfig {
  return {
    // One sigma for all: with different sigmas the bots' fair values differ by ticks, and each
    // one's inner quote would be dropped for crossing another's, widening the inside. The devnet
    // replaces it per market with the market's oracle volatility (devnet.ts botVolatility), still
    // the same for every bot; 0.6 is what a market without one is priced with.
    sigma: 0.6,
    levels: 4,
    halfSpreadTicks: 1 + (index % 3 === 2 ? 1 : 0),
    stepTicks: 1 + (index % 2),
    baseLots: 400n + 100n * BigInt(index % 3),
    lotsPerLevel: 200n,
    takeProbability: 0.06 + 0.02 * (index % 2),
    takeLots: 20n + 20n * BigInt(index % 2),
  };
}
