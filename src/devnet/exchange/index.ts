// Public surface of the local exchange service (devnet).
export { startExchangeService, DEVNET_CREDIT_INDEX_BASE, type ExchangeServiceHandle, type ExchangeServiceOptions, type OracleOptions } from './service';
export type { ChainOptions } from './chain-sync';
export type { RoleGrant, AgentStatus } from './auth';
export type { ContractsConfig } from './context';
export type { TotalsView } from '../engine';
export { ServiceError, JournalError, type ErrorBody } from './errors';
export { Journal, JOURNAL_FILE } from './journal';
export type { JournalRecord, RecordKind, SignedEntry } from './records';
export { SignatureVerifier } from './signature-verifier';
export { schedulerResolution } from './scheduler';
