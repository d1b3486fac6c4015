/** offline.saveFile / offline.openFile: move a signed payload through files the user picks in main's dialogs. */
import { BridgeFailure, type BridgeHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';

/** Big enough for any signed request; a larger file is not one of ours. */
const MAX_PAYLOAD_CHARS = 200_000;

export function offlineFileHandlers(ctx: CoreContext): Pick<BridgeHandlers, 'offline.saveFile' | 'offline.openFile'> {
  return {
    'offline.saveFile': async (payload) => {
      const path = await ctx.dialogs.saveFile({
        title: 'Save signed request',
        defaultName: `signed-${payload.kind}-${payload.signedAt.replace(/[^0-9]/g, '').slice(0, 14) || 'request'}.json`,
        content: `${JSON.stringify(payload, null, 2)}\n`,
      });
      return path === null ? { confirmed: false } : { confirmed: true, value: { path } };
    },
    'offline.openFile': async () => {
      const text = await ctx.dialogs.openFile({ title: 'Open signed request' });
      if (text === null) return { confirmed: false };
      if (text.length > MAX_PAYLOAD_CHARS)
        throw new BridgeFailure('offline.invalid_file', 'That file is too large to be a signed request.');
      try {
        // Returned as data for offline.describe, which checks it in full.
        return { confirmed: true, value: JSON.parse(text) as unknown };
      } catch {
        throw new BridgeFailure('offline.invalid_file', 'That file is not JSON, so it cannot be a signed request.');
      }
    },
  };
}
