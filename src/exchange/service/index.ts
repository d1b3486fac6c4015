// Public surface of the local exchange service (devnet).
export {
  startExchangeService,
  DEVNET_CREDIT_INDEX_BASE,
  DEFAULT_SIGNATURE_WORKERS,
  type ExchangeServiceHandle,
  type ExchangeServiceOptions,
  type OracleOptions,
} from './service';
export type { RateLimit } from './rate-limit';
export type { ChainOptions, ChainSync, ChainWiring, StartChainSync } from './chain-wiring';
export type { RoleGrant, AgentApprovalState } from './auth';
export type { ContractsConfig } from './context';
export type { TotalsView } from '../engine';
export { ServiceError, JournalError, type ErrorBody } from './errors';
export { Journal, JOURNAL_FILE } from './journal';
export type { JournalRecord, RecordKind, SignedEntry } from './records';
export { SignatureVerifier } from './signature-verifier';
export { SignaturePool, type SignatureChecker, type SignaturePoolOptions } from './signature-pool';
export { schedulerResolution } from './scheduler';
