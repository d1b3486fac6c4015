// What the route handlers share: the ledger, the domain, catalog lookups, clocks and hooks.
import type { MarketEvent } from '../engine';
import type { MarketSpec, OracleSymbol } from '../markets';
import type { AuthContext, RoleGrant } from './auth';
import type { Journal } from './journal';
import type { OraclePriceLog } from './oracle';
import type { RateLimiter } from './rate-limit';

/** The chain configuration served at GET /config/chains/:chainId (only present keys). */
export interface ContractsConfig {
  exchange: string;
  ledger: string;
  depositLedger?: string;
  settlementToken?: string;
  permit2?: string;
}

export interface ServiceContext extends AuthContext {
  journal: Journal;
  markets: ReadonlyMap<bigint, MarketSpec>;
  symbols: ReadonlyMap<bigint, OracleSymbol>;
  /** Oracle path for "now" queries (feed, mark). */
  liveOracle: OraclePriceLog;
  contracts: ContractsConfig;
  resolvers: readonly RoleGrant[];
  admins: readonly RoleGrant[];
  /** Sends engine events to the market feed. */
  publish(events: readonly MarketEvent[]): void;
  /** A withdrawal was queued: wake the payout loop. */
  onWithdrawalQueued(): void;
  /** Payout progress per withdrawal id (chain mode), for GET /withdrawals/:account. */
  payoutStatus(id: string): { attempts: number; lastError: string | null } | undefined;
  /**
   * Per-master limit on agent approvals and revocations (the 429 of docs/protocol/endpoints.md#error-codes); null =
   * unlimited.
   */
  agentLimiter: RateLimiter | null;
}
