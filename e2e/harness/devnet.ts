/**
 * A devnet for end-to-end tests: chain + exchange on ephemeral ports, no bots (tests make their own
 * liquidity), funded demo accounts, and the facts the core server needs to trade on it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type DevnetHandle } from '../../src/devnet/devnet';
import type { HarnessDevnet } from './core-server';

export interface HarnessDevnetHandle {
  readonly handle: DevnetHandle;
  readonly forCore: HarnessDevnet;
  stop(): Promise<void>;
}

export async function startHarnessDevnet(options: { bots?: number } = {}): Promise<HarnessDevnetHandle> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-devnet-'));
  const handle = await startDevnet({ dataDir: dir, fresh: true, ports: { http: 0, rpc: 0 }, bots: options.bots ?? 0, blockTimeMs: 500 });
  const forCore: HarnessDevnet = {
    httpUrl: handle.httpUrl,
    marketWsUrl: handle.marketWsUrl,
    oracleWsUrl: handle.oracleWsUrl,
    rpcUrl: handle.rpcUrl,
    chainId: handle.chainId,
    markets: handle.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol })),
    accounts: handle.accounts.map((a) => ({ label: a.label, address: a.address, privateKey: a.privateKey })),
  };
  return {
    handle,
    forCore,
    stop: async () => {
      await handle.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
