/** markets.*: the market list, streamed books, resolved epochs and oracle history of the session. */
import type { AreaHandlers } from '../bridge-runtime';
import type { TradingHost } from '../session/host';

export function marketsHandlers(trading: TradingHost): AreaHandlers<'markets'> {
  return {
    'markets.list': async () => (await trading.connected()).marketList(),
    'markets.subscribeBook': async ({ assetId, epoch, depth }) => {
      const session = await trading.connected();
      session.market(BigInt(assetId));
      return session.books.subscribe(BigInt(assetId), BigInt(epoch), depth);
    },
    'markets.unsubscribeBook': (subscriptionId) => {
      trading.session().books.unsubscribe(subscriptionId);
      return null;
    },
    'markets.resolvedEpochs': async (assetId) => (await trading.connected()).resolvedEpochs(BigInt(assetId)),
    'markets.oracleHistory': (symbolId) => trading.session().oracle.list(symbolId),
    'markets.trades': ({ assetId, epoch }) => trading.session().tape.recent(assetId, epoch),
  };
}
