/**
 * The release keys this build trusts: release-keys.json, read once and checked (each fingerprint must
 * be its key's), bundled into the main process with the rest of the code, so changing them means
 * shipping a release signed by a key the installed copies already trust.
 */
import { z } from 'zod';
import keyFile from './release-keys.json' with { type: 'json' };
import { releaseKeyFromBase64, type ReleaseKey } from './release-key';

const entry = z.object({ fingerprint: z.string(), publicKey: z.string(), since: z.string(), note: z.string() });
const file = z.object({ about: z.string(), keys: z.array(entry).min(1).max(4) });

/** The keys of a release-keys.json text; throws when an entry's fingerprint is not its key's. */
export function parseReleaseKeys(value: unknown): ReleaseKey[] {
  return file.parse(value).keys.map((k) => {
    const key = releaseKeyFromBase64(k.publicKey);
    if (key.fingerprint !== k.fingerprint)
      throw new Error(`release-keys.json: ${k.fingerprint} is not the fingerprint of its key (${key.fingerprint})`);
    return key;
  });
}

export const TRUSTED_RELEASE_KEYS: readonly ReleaseKey[] = Object.freeze(parseReleaseKeys(keyFile));
