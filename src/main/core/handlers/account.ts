/** account.*: choose the keys to trade with, read their state, export own fills as CSV. */
import type { AccountSelection } from '../../../shared/bridge';
import { formatPrice, formatSize } from '../../../shared/protocol';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { TradingHost } from '../session/host';
import { offeredKeys } from './keys';

function checkKeys(ctx: CoreContext, s: AccountSelection): void {
  // Only the keys offered here: practice keys in practice, real keys elsewhere (keys.ts offeredKeys).
  const keys = offeredKeys(ctx).map((k) => k.address.toLowerCase());
  for (const [what, address] of [
    ['master', s.master],
    ['agent', s.agent],
  ] as const) {
    // A watch-only master is read like any other; it signs nothing here (its agent may, as for any master).
    const watched = what === 'master' && !!address && ctx.vault.watchOnly.has(address);
    if (address && !watched && !keys.includes(address.toLowerCase())) {
      if (ctx.vault.list().some((k) => k.address.toLowerCase() === address.toLowerCase()))
        throw new BridgeFailure(
          'keys.other_world',
          'That key is not offered here: practice keys trade only in practice, and real keys never do.',
        );
      throw new BridgeFailure('keys.not_found', `No key for the ${what} ${address} is in this vault.`);
    }
  }
  if (s.master && s.agent && s.master.toLowerCase() === s.agent.toLowerCase()) {
    throw new BridgeFailure('account.agent_is_master', 'The agent must be a different key from the master account.');
  }
  if (s.tradeAs === 'agent' && !s.agent)
    throw new BridgeFailure('account.no_agent', 'Choose an agent key before trading as the agent.');
}

export function accountHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'account'> {
  return {
    'account.select': async (selection) => {
      checkKeys(ctx, selection);
      const session = trading.session();
      try {
        await session.whenConnected();
      } catch (error) {
        // Kept for when the exchange answers (the session applies it on connect); the view says why it is empty.
        session.desk.keepSelection(selection);
        return session.desk.view(error instanceof Error ? error.message : 'The account could not be read.');
      }
      try {
        await session.desk.select(selection);
        return session.desk.view();
      } catch (error) {
        return session.desk.view(error instanceof Error ? error.message : 'The account could not be read.');
      }
    },
    'account.get': async () => {
      const session = await trading.connected();
      await session.desk.refresh();
      return session.desk.view();
    },
    'account.exportFills': async () => {
      const session = trading.session();
      const view = session.desk.view();
      const rows = view.fills.map((f) =>
        [
          new Date(f.at).toISOString(),
          f.assetId,
          f.epoch,
          f.orderId,
          f.side,
          formatPrice(BigInt(f.price)),
          formatSize(BigInt(f.size)),
          f.liquidity,
        ].join(','),
      );
      const content = ['time,assetId,epoch,orderId,side,priceCents,contracts,liquidity', ...rows].join('\n') + '\n';
      const master = view.selection.master?.slice(2, 10).toLowerCase() ?? 'account';
      const path = await ctx.dialogs.saveFile({ title: 'Export fills', defaultName: `fills-${master}.csv`, content });
      return path === null ? { confirmed: false } : { confirmed: true, value: { path } };
    },
  };
}
