/**
 * `<dataDir>/devnet.json`: how the desktop app finds a running devnet and its funded demo
 * accounts without importing src/devnet. Shape documented in src/devnet/README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DevnetAccount, DevnetContracts } from './chain';

export const DEVNET_FILE = 'devnet.json';
export const DEVNET_FILE_VERSION = 1;
export const DEVNET_KEY_WARNING = 'DEVNET ONLY — never use these keys elsewhere. They are public.';

export interface DevnetFileMarket {
  assetId: string;
  symbol: string;
  symbolId: string;
  periodLength: string;
}

export interface DevnetFileAccount {
  label: string;
  address: string;
  privateKey: string;
  /** 'demo' accounts are for people; 'bot' accounts are trading already and best left alone. */
  role: 'demo' | 'bot';
}

export interface DevnetFile {
  version: typeof DEVNET_FILE_VERSION;
  warning: typeof DEVNET_KEY_WARNING;
  /** Process that wrote the file; the app can check it is alive before trusting the URLs. */
  pid: number;
  startedAt: string;
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  rpcUrl: string;
  chainId: string;
  domain: { name: string; version: string; verifyingContract: string };
  contracts: DevnetContracts;
  markets: DevnetFileMarket[];
  accounts: DevnetFileAccount[];
}

export function devnetFilePath(dataDir: string): string {
  return join(dataDir, DEVNET_FILE);
}

export function accountEntry(a: DevnetAccount, role: DevnetFileAccount['role']): DevnetFileAccount {
  return { label: a.label, address: a.address, privateKey: a.privateKey, role };
}

/** Atomic write (temp file + rename) so a reader never sees half a file; owner-only because it holds keys. */
export async function writeDevnetFile(dataDir: string, file: DevnetFile): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  const target = devnetFilePath(dataDir);
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  await rename(temp, target);
  return target;
}

export async function readDevnetFile(dataDir: string): Promise<DevnetFile | undefined> {
  try {
    return JSON.parse(await readFile(devnetFilePath(dataDir), 'utf8')) as DevnetFile;
  } catch {
    return undefined;
  }
}

/** Removed on a clean stop, so the file's presence means "a devnet is running" (or crashed: check pid). */
export async function removeDevnetFile(dataDir: string): Promise<void> {
  await rm(devnetFilePath(dataDir), { force: true });
}
