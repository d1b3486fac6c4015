/**
 * Trading areas whose client library (src/main/exchange, src/main/trading) is not wired in yet:
 * each method answers bridge.unavailable with a sentence, so the window can say so plainly.
 * Replace an area's entry here with its real handler module as the library lands.
 */
import { bridgeMethodNames, type BridgeMethod } from '../../../shared/bridge';
import type { BridgeHandler, BridgeHandlers } from '../../window/bridge-host';
import type { AreaHandlers } from '../context';
import { unavailable } from '../errors';

const SENTENCE: Readonly<Record<string, string>> = {
  markets: 'Market data is not connected yet: the exchange client is still being wired into the app core.',
  account: 'Account data is not connected yet: the exchange client is still being wired into the app core.',
  orders: 'Order entry is not connected yet: the trading client is still being wired into the app core.',
  agents: 'Agent approvals are not connected yet: the trading client is still being wired into the app core.',
  claims: 'Claims are not connected yet: the trading client is still being wired into the app core.',
  funds: 'Deposits and withdrawals are not connected yet: the exchange client is still being wired into the app core.',
  offline: 'Offline signing is not connected yet: the trading client is still being wired into the app core.',
};

export const PENDING_AREAS = Object.keys(SENTENCE);

function pendingHandler(method: BridgeMethod): BridgeHandler<BridgeMethod> {
  const area = method.slice(0, method.indexOf('.'));
  const sentence = SENTENCE[area] ?? 'This part of the app core is not available yet.';
  return () => {
    throw unavailable(sentence);
  };
}

/** Exactly the methods still pending, so the core's table stays complete at compile time. */
export type PendingHandlers = AreaHandlers<'markets' | 'account' | 'orders' | 'agents' | 'claims' | 'funds'> &
  Pick<BridgeHandlers, 'offline.sign' | 'offline.describe' | 'offline.submit'>;

const REAL_OFFLINE = new Set(['offline.saveFile', 'offline.openFile']);

/** A handler for every method of the pending areas. */
export function pendingHandlers(): PendingHandlers {
  const table: Record<string, BridgeHandler<BridgeMethod>> = {};
  for (const method of bridgeMethodNames) {
    if (PENDING_AREAS.includes(method.slice(0, method.indexOf('.'))) && !REAL_OFFLINE.has(method)) table[method] = pendingHandler(method);
  }
  // Built from the same table the type is derived from; the core's test checks every method answers.
  return table as unknown as PendingHandlers;
}
