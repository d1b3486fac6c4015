/**
 * The order gate for orders that arrive as signed structs or are signed from one (offline signing,
 * the air-gapped round trip): the order's terms are read from the struct itself, never from the
 * window, and the running session (when there is one) supplies fair values and the account.
 */
import type { TimeInForceName } from '../../../shared/bridge';
import type { Address } from '../../../shared/protocol';
import type { CoreContext } from '../context';
import type { TradingHost } from '../session/host';
import type { GateView, OrderPath, Passed } from './order-gate';
import { sessionGateView } from './session-view';

const TIME_IN_FORCE: readonly TimeInForceName[] = ['GTC', 'FOK', 'IOC', 'ALO'];

/** The running session's view, or none (offline mode, no deployment, not connected yet). */
export function hostGateView(trading: TradingHost): GateView | null {
  try {
    return sessionGateView(trading.session());
  } catch {
    return null;
  }
}

/** Passes one FillOrder struct (as hashed: bigint fields, side true = sell) through the gate. */
export function passOrderStruct(
  ctx: CoreContext,
  trading: TradingHost,
  path: Extract<OrderPath, 'offline-sign' | 'offline-send' | 'airgap-sign' | 'airgap-send'>,
  order: Readonly<Record<string, unknown>>,
  notes: readonly string[] = [],
): Promise<Passed> {
  const signer = String(order['signer']) as Address;
  const sender = String(order['sender']) as Address;
  return ctx.orderGate.pass(
    {
      path,
      signer,
      master: sender,
      role: signer.toLowerCase() === sender.toLowerCase() ? 'master' : 'agent',
      assetId: order['assetId'] as bigint,
      epoch: order['epoch'] as bigint,
      sell: order['side'] === true,
      price: order['price'] as bigint,
      size: order['size'] as bigint,
      timeInForce: TIME_IN_FORCE[Number(order['timeInForce'])] ?? 'GTC',
      signsHere: path === 'offline-sign' || path === 'airgap-sign',
      notes,
    },
    hostGateView(trading),
  );
}
