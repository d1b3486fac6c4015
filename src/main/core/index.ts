export { createAppCore } from './app-core';
export type { AppCore, AppCoreDeps } from './app-core';
export { createUnavailableCore } from './unavailable-core';
export { windowOutbox, type WindowEvent } from './window-outbox';
export type { AppFacts } from './context';
export type { UserInput } from './user-presence';
export type { ConfirmRequest, Dialogs, OpenFileRequest, SaveFileRequest } from './dialogs/dialogs';
export { DEVNET_ACCOUNTS_ENV, loadDevnetAccounts } from './devnet/devnet-accounts';
export type { DevnetAccountEntry } from './devnet/devnet-accounts';
