/** markets.*: the market list, streamed books, resolved epochs and oracle history of the session. */
import type { AreaHandlers } from '../bridge-runtime';
import type { TradingHost } from '../session/host';

export function marketsHandlers(trading: TradingHost): AreaHandlers<'markets'> {
  return {
    'markets.list': async () => (await trading.connected()).board.marketList(),
    'markets.subscribeBook': async ({ assetId, epoch, depth }) => {
      const session = await trading.connected();
      session.board.market(BigInt(assetId));
      return session.board.books.subscribe(BigInt(assetId), BigInt(epoch), depth);
    },
    'markets.unsubscribeBook': (subscriptionId) => {
      trading.session().board.books.unsubscribe(subscriptionId);
      return null;
    },
    'markets.resolvedEpochs': async (assetId) => (await trading.connected()).board.resolvedEpochs(BigInt(assetId)),
    'markets.oracleHistory': (symbolId) => trading.session().board.oracleHistory(symbolId),
    'markets.trades': ({ assetId, epoch }) => trading.session().board.trades(assetId, epoch),
  };
}
