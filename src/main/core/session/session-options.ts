/** What a trading session is given: its deployment and markets, the vault and pins, and the host's hooks. */
import type { AccountSelection } from '../../../shared/bridge';
import type { Logger } from '../../log';
import type { Deployment, DeploymentPinning, DomainFacts } from '../../settings';
import type { Vault } from '../../vault';
import type { EventHub } from '../event-hub';
import type { Clearances } from '../risk/clearances';
import type { DayRecordsPort } from './day-records';
import type { MarketEntry } from './market-directory';
import type { OracleHistory } from './oracle-history';

export interface SessionOptions {
  deployment: Deployment;
  markets: readonly MarketEntry[];
  vault: Vault;
  /** Orders the gate cleared: the vault signs no order without one. */
  clearances: Clearances;
  pinning: DeploymentPinning;
  events: EventHub;
  logger: Logger;
  selection: AccountSelection;
  /** Market list refresh and epoch poll, ms (default 1000). */
  pollMs?: number;
  /** Health probes of HTTP and chain, ms (default 5000). */
  healthMs?: number;
  /** Balance re-read of the selected account, ms (default 5000): credits and transfers made elsewhere. */
  balancePollMs?: number;
  /** Facts of the built-in devnet written down by its launcher (devnet.json), to pin it without a dialog. */
  attestedFacts?: (deployment: Deployment) => DomainFacts | null;
  /** Feed health or pin changed: the host re-sends `connection`. */
  onConnectionChange(): void;
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  /** An epoch resolved and the account was re-read for it (auto-claim hooks in here). */
  onResolved?(assetId: bigint, epoch: bigint): void;
  /** The deployment's oracle prices, kept by the host across the sessions it starts (market-board.ts). */
  oracleHistory?: OracleHistory;
  /** The selected account's state changed, or an oracle tick moved fair values: the risk ledger looks again. */
  onRiskInputs?(why: 'account' | 'fair'): void;
  /** How many orders of an account are passed by the gate and not yet answered, or signed for elsewhere (reservations.ts). */
  pendingOrders?(account: string): number;
  /**
   * Whether an order was passed for the account here today though no master key of it is in the vault
   * (a watch-only master traded through an agent key of this vault): it is watched when left, as a
   * vault key is.
   */
  tradedHere?(account: string): boolean;
  /** Today's fills, order history and positions per account on this deployment, kept across restarts (day-records.ts). */
  dayRecords?: DayRecordsPort;
}
