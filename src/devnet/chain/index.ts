// Devnet chain: local EVM node, contracts, and the chain helpers the local exchange service calls.
export { DEVNET_MNEMONIC, deriveDevnetKeys, predictDevnetContracts } from './accounts';
export { formatDevnetBanner, type BannerInfo } from './banner';
export { ChainError, type ChainErrorCode } from './errors';
export { isWithdrawalPaid, payWithdrawal, type PayWithdrawalArgs } from './pay-withdrawal';
export {
  processDeposits,
  type ProcessDepositsArgs,
  type ProcessDepositsResult,
  type SweptDeposit,
} from './process-deposits';
export { DEVNET_DEFAULTS, startChain, type DevnetChain, type StartChainOptions } from './start-chain';
export type { Address, DevnetAccount, DevnetContracts, DevnetKey, Hex } from './types';
export {
  watchDeposits,
  type DepositWatcher,
  type QueuedDepositEvent,
  type WatchDepositsOptions,
} from './watch-deposits';
