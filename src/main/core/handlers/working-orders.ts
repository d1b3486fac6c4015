/** workingOrders.*: create, edit, cancel, cancel all and list the working orders main runs (working-orders/runner.ts). */
import type { AreaHandlers } from '../bridge-runtime';
import type { WorkingOrderRunner } from '../working-orders/runner';

export function workingOrdersHandlers(runner: WorkingOrderRunner): AreaHandlers<'workingOrders'> {
  return {
    'workingOrders.create': (draft) => runner.create(draft),
    'workingOrders.edit': (edit) => runner.edit(edit),
    'workingOrders.cancel': ({ id, leg }) => runner.cancel(id, leg),
    'workingOrders.cancelAll': (filter) => runner.cancelAll(filter),
    'workingOrders.list': () => runner.list(),
  };
}
