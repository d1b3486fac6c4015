/** What every handler module of the core may use: the injected services and the event hub. */
import type { OfflineState } from '../../shared/bridge';
import type { Logger } from '../log';
import type { DeploymentPinning, SettingsService } from '../settings';
import type { Vault } from '../vault';
import type { AirgapBook } from './airgap/book';
import type { DevnetAccountEntry } from './devnet/devnet-accounts';
import type { KitStore } from './airgap/kit-store';
import type { KitChecks } from './airgap/kit-checks';
import type { Dialogs } from './dialogs/dialogs';
import type { EventHub } from './event-hub';
import type { Clearances } from './risk/clearances';
import type { DayRecordStore } from './session/day-records';
import type { LossBudget } from './risk/loss-budget';
import type { OrderGate } from './risk/order-gate';
import type { Reservations } from './risk/reservations';
import type { UserPresence } from './user-presence';
import type { PracticeMode } from './practice/practice-mode';

/** The shell's own facts, which app.info answers even when the core cannot start. */
export interface AppFacts {
  readonly version: string;
  readonly platform: string;
}

export interface CoreContext {
  readonly vault: Vault;
  readonly settings: SettingsService;
  readonly pinning: DeploymentPinning;
  readonly dialogs: Dialogs;
  readonly logger: Logger;
  readonly events: EventHub;
  readonly app: AppFacts;
  readonly now: () => number;
  /** The embedded devnet's funded demo accounts; empty when the devnet is not running. */
  readonly devnetAccounts: readonly DevnetAccountEntry[];
  /** Whether (and why) offline mode is on now: nothing may open a connection while it is (offline-mode.ts). */
  readonly offline: () => OfflineState;
  /** The emergency kits kept on this machine. */
  readonly kits: KitStore;
  /** Checks a kit's signatures off main's event loop (kit-checks.ts). */
  readonly kitChecks: KitChecks;
  /** Air-gapped round trips: requests prepared and received, signing domains pinned for them. */
  readonly airgap: AirgapBook;
  /** Every order passes here before it is signed or sent (risk/order-gate.ts). */
  readonly orderGate: OrderGate;
  /** What the gate cleared for signing; the vault signer takes them (session/vault-signer.ts). */
  readonly clearances: Clearances;
  /** Today's loss baseline per account, for the daily loss limit. */
  readonly lossBudget: LossBudget;
  /** The risk ledger's orders on their way (the gate takes them; the ledger's look counts them). */
  readonly reservations: Reservations;
  /** The person's presses seen by main (never bridge calls): what kit.panic needs. */
  readonly presence: UserPresence;
  /** Practice mode (a local exchange with play money), or null in a core built without it. */
  readonly practice: PracticeMode | null;
  /** Today's fills, order history and positions per account and deployment, in main's store (session/day-records.ts). */
  readonly dayRecords: DayRecordStore;
}
