// The two WebSocket feeds (docs/protocol/feeds.md) on top of SubscriptionFeed: market events per asset (/ws/) and
// oracle prices per symbol at a steady cadence (/oracle-ws/).
import type { WebSocket } from 'ws';
import type { MarketEvent } from '../engine';
import type { OraclePriceLog } from './oracle';
import { SubscriptionFeed } from './subscription-feed';

export function createMarketFeed(opts: { isKnownAsset(assetId: string): boolean; pingIntervalMs: number }) {
  const feed = new SubscriptionFeed({
    keyName: 'assetId',
    label: 'AssetId',
    isAvailable: (a) => opts.isKnownAsset(a),
    pingIntervalMs: opts.pingIntervalMs,
  });
  return {
    feed,
    /**
     * Forwards engine events (already in wire form, docs/protocol/feeds.md#market-events) to the asset's subscribers.
     */
    publish(events: readonly MarketEvent[]): void {
      for (const e of events) {
        if (feed.hasSubscribers(e.data.assetId)) feed.sendToKey(e.data.assetId, JSON.stringify(e));
      }
    },
  };
}

export interface OracleFeedServerOptions {
  oracle: OraclePriceLog;
  nowMs(): number;
  pingIntervalMs: number;
  /** Cadence of price messages per subscribed symbol; 0 = only on subscribe. */
  publishIntervalMs: number;
}

export function createOracleFeed(opts: OracleFeedServerOptions) {
  const message = (symbolId: string): string => {
    const now = opts.nowMs();
    // ts in unix seconds, as the reference samples (docs/protocol/choices.md#oracle-scale-and-timestamps).
    return JSON.stringify({
      type: 'price',
      symbolId,
      price: opts.oracle.priceAt(BigInt(symbolId), now).toString(),
      ts: Math.floor(now / 1000),
    });
  };
  const feed = new SubscriptionFeed({
    keyName: 'symbolId',
    label: 'SymbolId',
    isAvailable: (k) => opts.oracle.has(BigInt(k)),
    pingIntervalMs: opts.pingIntervalMs,
    onSubscribed: (ws: WebSocket, key: string) => {
      if (!opts.oracle.silent(BigInt(key))) feed.send(ws, message(key));
    },
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  if (opts.publishIntervalMs > 0) {
    timer = setInterval(() => {
      for (const key of feed.activeKeys()) if (!opts.oracle.silent(BigInt(key))) feed.sendToKey(key, message(key));
    }, opts.publishIntervalMs);
    timer.unref();
  }
  return {
    feed,
    async close(): Promise<void> {
      if (timer !== undefined) clearInterval(timer);
      await feed.close();
    },
  };
}
