// What the exchange service needs from a chain, as types: the devnet supplies the wiring
// (src/devnet/chain-sync.ts) and passes it in, so the service itself (and practice mode, which runs it
// in the installed app) never imports chain tooling.
import type { Hex } from '../../shared/protocol';
import type { Ledger } from './ledger';

export interface ChainOptions {
  rpcUrl: string;
  contracts: { exchange: string; ledger: string; depositLedger: string; settlementToken?: string; permit2?: string };
  /** Operator key (HD index 0 on the devnet): sweeps deposits and pays withdrawals. */
  operatorKey: Hex;
  /** Blocks a deposit needs before it is credited (default 1: once mined). */
  confirmations?: number;
  /** Poll period of the deposit watcher and the payout loop (default 1000 ms). */
  pollIntervalMs?: number;
  /** First block to scan when no cursor is stored (default 0). */
  fromBlock?: bigint;
}

export interface ChainSync {
  /** Scans deposits, sweeps and pays now; resolves when this round is done. */
  poll(): Promise<void>;
  kickPayouts(): void;
  payoutStatus(id: string): { attempts: number; lastError: string | null } | undefined;
  stop(): Promise<void>;
}

export interface ChainSyncDeps {
  chain: ChainOptions;
  ledger: Ledger;
  dataDir: string | undefined;
  nowMs(): number;
  onError(err: unknown, where: string): void;
}

export type StartChainSync = (deps: ChainSyncDeps) => Promise<ChainSync>;

/** The service's `chain` option: where the chain is, and the code that watches and pays on it. */
export interface ChainWiring extends ChainOptions {
  readonly start: StartChainSync;
}
