/**
 * What a liquidity bot needs from the exchange, and nothing more. The devnet implements it on
 * top of the app's client library (client-venue.ts); tests can implement it with a fake.
 */
import type { RestingOrder } from './reconcile';

export interface MarketInfo {
  assetId: bigint;
  /** Oracle symbol id (the asset id's low 64 bits). */
  symbolId: bigint;
  epoch: bigint;
  strike: bigint;
  /** Unix seconds when the current epoch expires. */
  expiration: bigint;
}

export interface VenueTopOfBook {
  bestBid?: bigint;
  bestAsk?: bigint;
}

export interface OrderRequest {
  assetId: bigint;
  epoch: bigint;
  side: boolean;
  price: bigint;
  size: bigint;
  tif: 'ALO' | 'IOC';
}

export interface VenueOrderOutcome {
  orderId: string;
  status: string;
  filled: bigint;
  reason: string;
}

export interface BotVenue {
  readonly address: string;
  market(assetId: bigint): Promise<MarketInfo>;
  /** Latest oracle price for the market's symbol, or undefined before the first one. */
  oraclePrice(assetId: bigint): Promise<bigint | undefined>;
  top(assetId: bigint, epoch: bigint): Promise<VenueTopOfBook>;
  restingOrders(assetId: bigint, epoch: bigint): Promise<RestingOrder[]>;
  place(order: OrderRequest): Promise<VenueOrderOutcome>;
  cancelReplace(target: string, order: OrderRequest): Promise<{ status: string }>;
  cancel(assetId: bigint, epoch: bigint, orderId: string): Promise<void>;
  cancelAll(assetId: bigint, epoch: bigint): Promise<void>;
  /** Net position size for an epoch (0 when none). */
  positionSize(assetId: bigint, epoch: bigint): Promise<bigint>;
  /** 'nothing' covers a losing side and an already-claimed epoch. */
  claim(assetId: bigint, epoch: bigint): Promise<'claimed' | 'not-resolved' | 'nothing'>;
  /**
   * Optional push from feeds: calls `wake` when this market may need new quotes (an oracle tick
   * for its symbol, a fill of one of the bot's own orders). Returns the unsubscribe. Venues
   * without feeds leave it out and the bot only steps on its timer.
   */
  watch?(assetId: bigint, wake: () => void): () => void;
  close(): Promise<void>;
}
