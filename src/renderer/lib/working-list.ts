/**
 * The working orders main keeps (docs/working-orders.md), as its last `workingOrders` event said.
 * Apart from lib/working-orders.ts so that terminal.ts can follow the event without an import circle.
 */
import { writable } from 'svelte/store';
import type { WorkingOrderView } from '../../shared/bridge';
import type { BridgeClient } from './bridge';

/** Every working order main keeps, running ones first (main's order). */
export const workingOrders = writable<WorkingOrderView[]>([]);

/** Loads the list and follows main's event; returns the unsubscriber. */
export function followWorkingOrders(bridge: BridgeClient): () => void {
  // An event newer than a read wins over its answer.
  let heard = 0;
  const read = (): void => {
    const asked = heard;
    bridge.call('workingOrders.list').then(
      (list) => asked === heard && workingOrders.set(list),
      () => undefined,
    );
  };
  const offs = [
    bridge.on('workingOrders', (list) => {
      heard++;
      workingOrders.set(list);
    }),
    // Read again on unlocking: a read refused while locked left the list empty.
    bridge.on('lock', (status) => !status.locked && read()),
  ];
  read();
  return () => offs.forEach((off) => off());
}
