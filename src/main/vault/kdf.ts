import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** scrypt cost parameters. Production uses DEFAULT_SCRYPT; tests pass a cheap one. */
export const ScryptParamsSchema = z.object({
  N: z
    .number()
    .int()
    .min(2)
    .max(2 ** 20),
  r: z.number().int().min(1).max(32),
  p: z.number().int().min(1).max(16),
});
export type ScryptParams = z.infer<typeof ScryptParamsSchema>;

/** About 128 MiB and a fraction of a second: the OWASP recommendation for scrypt. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

/** Derives a 32-byte key off the main thread (node's scrypt runs in the libuv pool). */
export function deriveKey(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      32,
      { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 32 * 1024 * 1024 },
      (err, key) => (err ? reject(new Error('Key derivation failed.')) : resolve(key)),
    );
  });
}

export const PasswordHashSchema = z.object({
  salt: z.string().min(1),
  hash: z.string().min(1),
  params: ScryptParamsSchema,
});
/** What the metadata store keeps for the app-lock password: never the password itself. */
export type PasswordHash = z.infer<typeof PasswordHashSchema>;

export async function hashPassword(password: string, params: ScryptParams): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await deriveKey(password, salt, params);
  return { salt: salt.toString('base64'), hash: key.toString('base64'), params };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await deriveKey(password, Buffer.from(stored.salt, 'base64'), stored.params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
