/**
 * The launcher's devnet.json, parsed by part: the deployment reader and the market directory each
 * check only the fields they use, with their own schema, against the same file.
 */
import type { z } from 'zod';

/** The text parsed as JSON and checked with `schema`; null when it is not JSON or not of that shape. */
export function parseDevnetJson<S extends z.ZodType>(text: string, schema: S): z.output<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
