// Deposit client: on-chain deposits into the exchange's DepositLedger (PROTOCOL.md §8).
export {
  createDepositClient,
  type DepositClient,
  type DepositClientOptions,
  type DepositMode,
  type DepositOptions,
  type DepositPlan,
  type DepositProgress,
  type DepositResult,
  type DepositStage,
} from './client';
export { DepositError, toDepositError, type DepositErrorCode } from './errors';
export { randomPermitNonce, signDepositPermit, type DepositPermit } from './permit';
export { MAX_RPC_RESPONSE_BYTES, RpcTransportError, boundedGetUrl, rpcConnection } from './bounded-rpc';
