// Trading state of the main process: books, account state, epochs, exchange clock.
export { BookStore, sameView, snapshotView, type BookLevel, type BookView } from './book-store';
export { BookSync, type BookHealth, type BookHealthState, type BookSyncOptions } from './book-sync';
export { AccountState, type AccountStateOptions, type OwnFill } from './account-state';
export { EpochWatcher, type ClaimableEpoch, type EpochWatcherOptions } from './epoch-watcher';
export { ExchangeClock } from './clock';
