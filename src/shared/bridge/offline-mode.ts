/**
 * Offline mode on the bridge: why the app is offline (if it is), and the one method that changes it.
 * Turning offline mode off makes the app connect, so main asks in its own dialog first.
 */
import { z } from 'zod';
import { SettingsSchema } from '../settings-schema';
import { confirmed } from './keys';

/** off; on because the user turned the setting on; on because the app was launched with --offline. */
export const offlineState = z.enum(['off', 'setting', 'launch-flag']);
export type OfflineState = z.infer<typeof offlineState>;

export const offlineModeMethods = {
  'settings.setOfflineMode': {
    args: z.tuple([z.boolean()]),
    result: confirmed(SettingsSchema),
    summary:
      'Turn offline mode on at once, or off (the app then connects) after the user agrees in a dialog owned by main; refused while the app was launched offline.',
  },
} as const;
