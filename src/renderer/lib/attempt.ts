/** Calls the core for a form: the value, or the core's sentence to show next to the form (the input stays). */
import type { BridgeArgs, BridgeMethod, BridgeResult } from '../../shared/bridge';
import { bridgeClient, errorMessage } from './terminal';

export type Attempt<T> = { ok: true; value: T } | { ok: false; message: string };

export async function attempt<M extends BridgeMethod>(
  method: M,
  ...args: BridgeArgs<M>
): Promise<Attempt<BridgeResult<M>>> {
  const client = bridgeClient();
  if (!client) return { ok: false, message: 'Not connected to the app.' };
  try {
    return { ok: true, value: await client.call(method, ...args) };
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
}
