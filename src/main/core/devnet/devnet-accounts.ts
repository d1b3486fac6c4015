/**
 * The embedded devnet's funded demo accounts, handed to main by the launcher.
 *
 * main never imports src/devnet (docs/design.md#boundaries). The devnet writes its demo accounts to
 * a JSON file and `npm start` passes the file's path in EXCHANGE_TERMINAL_DEVNET_ACCOUNTS:
 *   { "accounts": [{ "label": "Demo 1", "address": "0x…", "privateKey": "0x…" }] }
 * These keys are public test keys of a throwaway local chain; even so, main treats them like any
 * other secret: they go into the vault on request and are never returned to the window.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const DEVNET_ACCOUNTS_ENV = 'EXCHANGE_TERMINAL_DEVNET_ACCOUNTS';

const accountSchema = z.object({
  label: z.string().trim().min(1).max(64),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  role: z.enum(['demo', 'bot']).optional(),
});
const fileSchema = z.object({ accounts: z.array(accountSchema).max(100) });

export type DevnetAccountEntry = z.infer<typeof accountSchema>;

/** Parses the accounts file's text; a malformed file yields no accounts and a reason. */
export function parseDevnetAccounts(text: string): { accounts: DevnetAccountEntry[]; problem: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { accounts: [], problem: 'The devnet accounts file is not JSON.' };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) return { accounts: [], problem: 'The devnet accounts file does not list accounts as expected.' };
  return { accounts: parsed.data.accounts.filter((a) => a.role !== 'bot'), problem: null };
}

/** Reads the file named by EXCHANGE_TERMINAL_DEVNET_ACCOUNTS, if set. */
export function loadDevnetAccounts(env: NodeJS.ProcessEnv = process.env): {
  accounts: DevnetAccountEntry[];
  problem: string | null;
} {
  const file = env[DEVNET_ACCOUNTS_ENV];
  if (!file) return { accounts: [], problem: null };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { accounts: [], problem: 'The devnet accounts file could not be read.' };
  }
  return parseDevnetAccounts(text);
}
