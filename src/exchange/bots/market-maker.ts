/**
 * One bot quoting one market: each step reads the epoch, prices the digital option from the
 * oracle, and reconciles its post-only ladder; on a new epoch it cancels the old book and claims.
 * Now and then it crosses the spread with an IOC so the tape moves.
 */
import { fairPrice } from '../../client';
import {
  buildLadder,
  dropCrossing,
  fairMoved,
  MAX_PRICE,
  MIN_PRICE,
  TICK,
  LOT,
  type LadderConfig,
  type Quote,
} from './ladder';
import { reconcileQuotes, type RestingOrder } from './reconcile';
import type { BotVenue, MarketInfo, OrderRequest } from './venue';

export interface MarketMakerConfig extends LadderConfig {
  /**
   * Annualised volatility used for N(d2). The devnet sets it per market to its oracle symbol's
   * configured volatility (startBots' `volatilityOf`), so the bots price with the volatility the
   * path really has, the one the terminal estimates from the ticks (docs/fair-value.md).
   */
  sigma: number;
  /** Chance per step of sending one IOC that takes liquidity. */
  takeProbability: number;
  /** Lots per IOC. */
  takeLots: bigint;
  /**
   * Ticks fair may move before the ladder follows (default 1). Every re-quote is a signed
   * cancel-replace per level, journaled for good; practice mode widens it (practice-exchange.ts).
   */
  requoteTicks?: number;
}

export interface MarketMakerDeps {
  venue: BotVenue;
  assetId: bigint;
  config: MarketMakerConfig;
  random: () => number;
  now: () => number;
  log: (line: string) => void;
}

/** The fair value a maker last quoted around, and what it was made from (tests compare it with the terminal's). */
export interface BotFair {
  assetId: bigint;
  epoch: bigint;
  /** N(d2), micro-dollars, not snapped. */
  fair: bigint;
  spot: bigint;
  strike: bigint;
  sigma: number;
  secondsLeft: number;
  /** The maker's clock when it priced, unix ms. */
  at: number;
}

export class MarketMaker {
  private epoch: bigint | undefined;
  private last: BotFair | undefined;
  private quotedFair: bigint | undefined;
  /** What the last re-quote left resting (after dropping crossing levels): the ladder to keep whole. */
  private quoted: Quote[] = [];
  /** Epochs left behind that may still hold a claimable position. */
  private readonly unclaimed = new Set<bigint>();

  constructor(private readonly d: MarketMakerDeps) {}

  /**
   * One pass. Throws on venue errors; the caller logs and carries on. `take: false` for passes
   * woken by feeds, so the IOC rate stays per timer step however busy the feeds are.
   */
  async step(opts: { take?: boolean } = {}): Promise<void> {
    const { venue, assetId } = this.d;
    const market = await venue.market(assetId);
    if (this.epoch !== undefined && market.epoch !== this.epoch) await this.rollOver(this.epoch);
    this.epoch = market.epoch;
    await this.claimResolved(market.epoch);

    const spot = await venue.oraclePrice(market.assetId);
    if (spot === undefined) return; // no fair value yet: quote nothing rather than guess
    const at = this.d.now();
    const secondsLeft = Number(market.expiration) - at / 1000;
    if (secondsLeft <= 0) return; // expired, waiting for resolution and the next epoch
    const sigma = this.d.config.sigma;
    const fair = fairPrice({ spot, strike: market.strike, secondsToExpiry: secondsLeft, sigma });
    this.last = { assetId, epoch: market.epoch, fair, spot, strike: market.strike, sigma, secondsLeft, at };

    const resting = await venue.restingOrders(assetId, market.epoch);
    // Re-quote only when the quotes would change: fair moved by more than the band, or an order of the
    // last ladder was hit (its size shrank) or is gone. A level dropped for crossing another trader
    // is not retried on every step (each retry is a journal record): it comes back with the next move.
    if (fairMoved(this.quotedFair, fair, this.d.config.requoteTicks) || !ladderIntact(this.quoted, resting)) {
      await this.requote(market, fair, buildLadder(fair, this.d.config), resting);
    }
    if ((opts.take ?? true) && this.d.random() < this.d.config.takeProbability) await this.take(market, fair);
  }

  /** The fair value of the last step that priced, if any. */
  get lastFair(): BotFair | undefined {
    return this.last;
  }

  /** Cancels whatever rests on this market's current epoch (shutdown). */
  async withdrawQuotes(): Promise<void> {
    if (this.epoch !== undefined) await this.d.venue.cancelAll(this.d.assetId, this.epoch);
  }

  private async requote(
    market: MarketInfo,
    fair: bigint,
    wanted: ReturnType<typeof buildLadder>,
    resting: Awaited<ReturnType<BotVenue['restingOrders']>>,
  ): Promise<void> {
    const { venue, assetId } = this.d;
    const own = new Set(resting.map((o) => o.price));
    const top = await venue.top(assetId, market.epoch);
    // Only other traders' prices can make a post-only quote cross; our own stale levels move first.
    const othersTop = {
      ...(top.bestBid !== undefined && !own.has(top.bestBid) ? { bestBid: top.bestBid } : {}),
      ...(top.bestAsk !== undefined && !own.has(top.bestAsk) ? { bestAsk: top.bestAsk } : {}),
    };
    const quotes = dropCrossing(wanted, othersTop);
    const rising = this.quotedFair === undefined || fair >= this.quotedFair;
    for (const action of reconcileQuotes(quotes, resting, rising)) {
      if (action.kind === 'cancel') {
        await venue.cancel(assetId, market.epoch, action.target.orderId);
      } else if (action.kind === 'replace') {
        await venue.cancelReplace(
          action.target.orderId,
          this.order(market, action.quote.side, action.quote.price, action.quote.size, 'ALO'),
        );
      } else {
        await venue.place(this.order(market, action.quote.side, action.quote.price, action.quote.size, 'ALO'));
      }
    }
    this.quotedFair = fair;
    this.quoted = quotes;
  }

  private async take(market: MarketInfo, fair: bigint): Promise<void> {
    const side = this.d.random() < 0.5;
    // Cross by a few ticks so the IOC meets the best level on the other side.
    const reach = 5n * TICK;
    const raw = side ? fair - reach : fair + reach;
    const price = raw < MIN_PRICE ? MIN_PRICE : raw > MAX_PRICE ? MAX_PRICE : (raw / TICK) * TICK;
    const outcome = await this.d.venue.place(this.order(market, side, price, this.d.config.takeLots * LOT, 'IOC'));
    if (outcome.filled > 0n)
      this.d.log(`took ${outcome.filled} ${side ? 'sell' : 'buy'} @${price} on ${market.assetId}/${market.epoch}`);
  }

  private async rollOver(oldEpoch: bigint): Promise<void> {
    await this.d.venue.cancelAll(this.d.assetId, oldEpoch);
    this.unclaimed.add(oldEpoch);
    this.quotedFair = undefined;
    this.quoted = [];
    this.d.log(`rolled ${this.d.assetId} past epoch ${oldEpoch}`);
  }

  /** Claims past epochs once resolved; a losing or empty position needs no claim. */
  private async claimResolved(current: bigint): Promise<void> {
    for (const epoch of this.unclaimed) {
      if (epoch >= current) continue;
      const size = await this.d.venue.positionSize(this.d.assetId, epoch);
      if (size === 0n) {
        this.unclaimed.delete(epoch);
        continue;
      }
      const outcome = await this.d.venue.claim(this.d.assetId, epoch);
      // Not yet resolved: try again next step. Anything else is final (claimed, or a loser's nothing).
      if (outcome !== 'not-resolved') this.unclaimed.delete(epoch);
      if (outcome === 'claimed') this.d.log(`claimed ${this.d.assetId} epoch ${epoch}`);
    }
  }

  private order(market: MarketInfo, side: boolean, price: bigint, size: bigint, tif: 'ALO' | 'IOC'): OrderRequest {
    return { assetId: market.assetId, epoch: market.epoch, side, price, size, tif };
  }
}

/** True when every quote of the last ladder still rests whole (same side, price and size). */
function ladderIntact(quoted: readonly Quote[], resting: readonly RestingOrder[]): boolean {
  const open = [...resting];
  for (const q of quoted) {
    const i = open.findIndex((o) => o.side === q.side && o.price === q.price && o.size === q.size);
    if (i < 0) return false;
    open.splice(i, 1);
  }
  return true;
}
