/** Every trading area's handlers over one trading host. */
import type { AreaHandlers, BridgeHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { TradingHost } from '../session/host';
import { accountHandlers } from './account';
import { agentsHandlers } from './agents';
import { claimsHandlers } from './claims';
import { fundsHandlers } from './funds';
import { marketsHandlers } from './markets';
import { offlineHandlers } from './offline';
import { ordersHandlers } from './orders';
import { riskHandlers } from './risk';

export type TradingHandlers = AreaHandlers<'markets' | 'account' | 'orders' | 'agents' | 'claims' | 'funds' | 'risk'> &
  Pick<BridgeHandlers, 'offline.sign' | 'offline.describe' | 'offline.submit'>;

export function tradingHandlers(ctx: CoreContext, trading: TradingHost): TradingHandlers {
  return {
    ...marketsHandlers(trading),
    ...accountHandlers(ctx, trading),
    ...ordersHandlers(ctx, trading),
    ...agentsHandlers(ctx, trading),
    ...claimsHandlers(trading),
    ...fundsHandlers(ctx, trading),
    ...offlineHandlers(ctx, trading),
    ...riskHandlers(ctx, trading),
  };
}
