// The devnet's market catalog: oracle symbols and recurring up/down markets with packed asset ids
// (docs/protocol/units.md#asset-ids), plus the epoch arithmetic the scheduler and the HTTP API share.
//
// Rules (documented in src/exchange/service/README.md):
// - Epoch e of a market runs [startTime + e·period, startTime + (e+1)·period) in unix seconds.
// - Strike: when the packed strike is 0, each epoch's strike is the oracle price at the epoch's start;
//   otherwise every epoch uses the packed strike. Oracle scale is USD × 10^6.
// - At expiry, Up wins iff the resolution price (oracle price at the epoch's end) >= strike.
import { packAssetId, unpackAssetId } from '../../shared/protocol';

export interface OracleSymbol {
  /** Base asset id (bits 0–63 of the asset id) and oracle symbolId. */
  symbolId: bigint;
  /** Ticker for people, e.g. "BTC". */
  symbol: string;
  /** Oracle price at the oracle's origin, USD × 10^6. */
  initialPrice: bigint;
  /** Annualised volatility of the simulated path. */
  volatility: number;
}

export interface MarketSpec {
  /** Packed asset id: id = symbolId, marketType 1 (up/down), startTime, periodLength, strike. */
  assetId: bigint;
  symbolId: bigint;
  symbol: string;
  /** Unix seconds of epoch 0's start. */
  startTime: bigint;
  /** Seconds per epoch. */
  periodLength: bigint;
  /** 0 = each epoch's strike is the oracle price at its start. */
  strike: bigint;
}

export interface MarketCatalog {
  symbols: readonly OracleSymbol[];
  markets: readonly MarketSpec[];
}

export const UP_DOWN_MARKET_TYPE = 1n;
/** `/asset` assetType for markets that recur epoch after epoch (docs/protocol/units.md#epochs). */
export const RECURRING_ASSET_TYPE = 2n;
const MAX_EPOCH = (1n << 32n) - 1n;

/** Builds a market and packs its asset id. */
export function defineMarket(m: {
  symbol: OracleSymbol;
  startTime: bigint;
  periodLength: bigint;
  strike?: bigint;
}): MarketSpec {
  if (m.periodLength <= 0n) throw new RangeError('periodLength must be positive.');
  const strike = m.strike ?? 0n;
  const assetId = packAssetId({
    id: m.symbol.symbolId,
    marketType: UP_DOWN_MARKET_TYPE,
    startTime: m.startTime,
    periodLength: m.periodLength,
    strike,
    range: 0n,
  });
  return {
    assetId,
    symbolId: m.symbol.symbolId,
    symbol: m.symbol.symbol,
    startTime: m.startTime,
    periodLength: m.periodLength,
    strike,
  };
}

/** Reads a market back from its asset id alone (for ids a client hands us). */
export function marketFromAssetId(assetId: bigint, symbol: string): MarketSpec {
  const f = unpackAssetId(assetId);
  return { assetId, symbolId: f.id, symbol, startTime: f.startTime, periodLength: f.periodLength, strike: f.strike };
}

export const DEVNET_SYMBOLS = {
  BTC: { symbolId: 1n, symbol: 'BTC', initialPrice: 65_000_000_000n, volatility: 0.6 },
  ETH: { symbolId: 2n, symbol: 'ETH', initialPrice: 3_200_000_000n, volatility: 0.7 },
  SOL: { symbolId: 3n, symbol: 'SOL', initialPrice: 150_000_000n, volatility: 0.8 },
} as const satisfies Record<string, OracleSymbol>;

/**
 * Devnet defaults: BTC 1-minute and 5-minute, ETH 5-minute, all with oracle strikes (packed strike 0).
 * Epoch 0 starts at `genesisSec` floored to 5 minutes, so every market's epochs line up on the clock.
 */
export function defaultCatalog(genesisSec: bigint): MarketCatalog {
  const startTime = genesisSec - (genesisSec % 300n);
  const { BTC, ETH } = DEVNET_SYMBOLS;
  return {
    symbols: [BTC, ETH],
    markets: [
      defineMarket({ symbol: BTC, startTime, periodLength: 60n }),
      defineMarket({ symbol: BTC, startTime, periodLength: 300n }),
      defineMarket({ symbol: ETH, startTime, periodLength: 300n }),
    ],
  };
}

/** The epoch that contains `nowSec`, or null before epoch 0 starts (or past the uint32 epoch range). */
export function epochAt(m: MarketSpec, nowSec: bigint): bigint | null {
  if (nowSec < m.startTime) return null;
  const e = (nowSec - m.startTime) / m.periodLength;
  return e > MAX_EPOCH ? null : e;
}

export function epochStart(m: MarketSpec, epoch: bigint): bigint {
  return m.startTime + epoch * m.periodLength;
}

/** Unix seconds at which the epoch expires (exclusive end). */
export function epochEnd(m: MarketSpec, epoch: bigint): bigint {
  return m.startTime + (epoch + 1n) * m.periodLength;
}

/** The strike rule: packed strike, or the oracle price at the epoch's start when it is 0. */
export function epochStrike(
  m: MarketSpec,
  epoch: bigint,
  oraclePriceAt: (symbolId: bigint, timeMs: number) => bigint,
): bigint {
  return m.strike !== 0n ? m.strike : oraclePriceAt(m.symbolId, Number(epochStart(m, epoch)) * 1000);
}

/** Up wins iff the resolution price is at or above the strike (ties go to Up). */
export function upWins(resolutionPrice: bigint, strike: bigint): boolean {
  return resolutionPrice >= strike;
}

/** Checks a catalog for duplicates and dangling symbols; returns lookup maps. */
export function indexCatalog(c: MarketCatalog): {
  markets: Map<bigint, MarketSpec>;
  symbols: Map<bigint, OracleSymbol>;
} {
  const symbols = new Map<bigint, OracleSymbol>();
  for (const s of c.symbols) {
    if (symbols.has(s.symbolId)) throw new RangeError(`Symbol ${s.symbolId} is listed twice.`);
    if (s.initialPrice <= 0n) throw new RangeError(`Symbol ${s.symbol} needs a positive initial price.`);
    symbols.set(s.symbolId, s);
  }
  const markets = new Map<bigint, MarketSpec>();
  for (const m of c.markets) {
    if (markets.has(m.assetId)) throw new RangeError(`Asset ${m.assetId} is listed twice.`);
    if (!symbols.has(m.symbolId)) throw new RangeError(`Market ${m.assetId} uses unknown symbol ${m.symbolId}.`);
    markets.set(m.assetId, m);
  }
  return { markets, symbols };
}
