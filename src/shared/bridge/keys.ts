import { z } from 'zod';
import { address, isoTime, keyRole, label } from './primitives';

export const keyInfo = z.object({
  address,
  label: z.string(),
  role: keyRole,
  createdAt: isoTime,
  source: z.enum(['created', 'privateKey', 'mnemonic', 'keystore', 'devnet']),
  backend: z.enum(['keychain', 'file']),
  /** Made for practice: offered and usable only in practice (and real keys never are there). */
  practice: z.boolean(),
});

export const keyOptions = z.object({ label: label.optional(), role: keyRole.optional() }).strict();

export const lockStatus = z.object({
  locked: z.boolean(),
  hasPassword: z.boolean(),
  backend: z.enum(['keychain', 'file']),
  backendMessage: z.string(),
  throttledUntil: z.number().nullable(),
  autoLockMinutes: z.number().int().positive().nullable(),
});

/** The outcome of anything main confirms in its own dialog: the user may say no. */
export const confirmed = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('confirmed', [
    z.object({ confirmed: z.literal(true), value }),
    z.object({ confirmed: z.literal(false) }),
  ]);

export type KeyInfo = z.infer<typeof keyInfo>;
export type LockStatus = z.infer<typeof lockStatus>;
