/**
 * Slightly different parameters per bot, so several bots make a book with depth and texture
 * rather than one ladder stacked N times.
 */
import type { MarketMakerConfig } from './market-maker';

export function botProfile(index: number): MarketMakerConfig {
  return {
    sigma: 0.5 + 0.1 * (index % 3),
    levels: 3 + (index % 2),
    halfSpreadTicks: 2 + index,
    stepTicks: 2 + (index % 2),
    baseLots: 500n + 250n * BigInt(index % 3),
    lotsPerLevel: 250n,
    takeProbability: 0.08 + 0.04 * (index % 2),
    takeLots: 100n + 100n * BigInt(index % 2),
  };
}
