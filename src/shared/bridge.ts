/**
 * The bridge contract: the only door between the window and the main process.
 *
 * One table of methods (validated arguments, typed results) and one table of events
 * (typed payloads). Everything else — the preload allowlist, main's IPC registration,
 * the renderer's typed client — is derived from these two tables, so adding a method
 * means adding one row here and one handler in main.
 *
 * Pure: no node, electron or DOM imports (zod only), so it runs in every process.
 */
import { z } from 'zod';
import { SettingsSchema } from './settings-schema';
import { accountSelection, accountView, fillView } from './bridge/account';
import { orderHistoryEntry, tradePrint } from './bridge/activity';
import {
  agentStatusView,
  claimableEpoch,
  claimResult,
  depositArgs,
  depositProgress,
  depositResult,
  withdrawArgs,
  withdrawalView,
} from './bridge/funds';
import { connectionView, pinState } from './bridge/health';
import {
  configuredMarket,
  deploymentDraft,
  discovery,
  discoveryArgs,
  deploymentEdit,
  deploymentRef,
  deploymentResult,
  inspectedMarket,
  marketAdd,
  marketLookup,
  marketMove,
  marketRemove,
  marketRename,
} from './bridge/deployments';
import { confirmed, keyInfo, keyOptions, lockStatus } from './bridge/keys';
import {
  bookView,
  epochResolution,
  marketSummary,
  oracleTick,
  resolvedEpoch,
  subscribeBookArgs,
} from './bridge/markets';
import { offlineSignArgs, payloadDescription, signedPayload } from './bridge/offline';
import { offlineModeMethods } from './bridge/offline-mode';
import { kitMethods } from './bridge/kit';
import { riskMethods, riskStatus } from './bridge/risk';
import { practiceMethods } from './bridge/practice';
import { workingOrderEvents, workingOrderMethods } from './bridge/working-orders';
import { updateMethods, updateStatus } from './bridge/updates';
import { airgapMethods, submitResult } from './bridge/airgap';
import {
  qrPartsArgs,
  qrShowArgs,
  qrShowView,
  scanBeginArgs,
  scanIdArgs,
  scanPartArgs,
  scanProgress,
  showIdArgs,
} from './bridge/airgap-qr';
import {
  cancelAllArgs,
  cancelArgs,
  cancelResult,
  closeResult,
  flattenArgs,
  orderQuote,
  orderResult,
  orderTicket,
  replaceArgs,
  replaceResult,
} from './bridge/orders';
import { address, decimalString, label, marketRef } from './bridge/primitives';

export * from './bridge/primitives';
export * from './bridge/keys';
export * from './bridge/markets';
export * from './bridge/account';
export * from './bridge/activity';
export * from './bridge/limits';
export * from './bridge/orders';
export * from './bridge/funds';
export * from './bridge/offline';
export * from './bridge/offline-mode';
export * from './bridge/kit';
export * from './bridge/risk';
export * from './bridge/health';
export * from './bridge/deployments';
export * from './bridge/airgap';
export * from './bridge/airgap-qr';
export * from './bridge/updates';
export * from './bridge/practice';
export * from './bridge/working-orders';

/** A method the window may call. `args` is a tuple schema: positional, nothing extra. */
export interface MethodSpec {
  readonly args: z.ZodTuple;
  readonly result: z.ZodType;
  /** One sentence for docs and error messages. */
  readonly summary: string;
}

/** An event main may push to the window. */
export interface EventSpec {
  readonly payload: z.ZodType;
  readonly summary: string;
  /**
   * Market data and views that follow it: sent to the window with the next frame's batch, behind
   * whatever else is sent (the answer to the window's own order never waits for it), and, with
   * `latestBy`, only the latest per key in a frame (a whole view: a newer one replaces it). Without
   * `perFrame`, an event is sent the moment it is emitted.
   */
  readonly perFrame?: { readonly latestBy?: (payload: never) => string };
}

export const appInfoSchema = z.object({
  version: z.string().min(1),
  platform: z.string().min(1),
});

export const noticeSchema = z.object({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string().min(1).max(500),
});

const none = z.null();
const list = <T extends z.ZodType>(item: T) => z.array(item);
const savedFile = z.object({ path: z.string() });
const settingsPatch = z.record(z.string(), z.unknown());
/** The confirmations a user may switch: only orders (withdrawals, agent approvals and key export are always confirmed). */
const confirmationChange = z.object({ name: z.literal('orders'), on: z.boolean() }).strict();
/** Minutes idle before the vault locks; 0 turns auto-lock off. */
const AUTO_LOCK_WORDS = { message: 'must be a whole number of minutes from 0 (off) to 1440 (a day)' };
const autoLockMinutes = z
  .number(AUTO_LOCK_WORDS)
  .int(AUTO_LOCK_WORDS)
  .min(0, AUTO_LOCK_WORDS)
  .max(24 * 60, AUTO_LOCK_WORDS);

/**
 * Every method the window may call. Arguments are positional tuples validated in main before
 * the handler runs; results are validated before they leave main. Money and protocol integers
 * are decimal strings; human input (prices in cents, sizes, amounts) is passed as typed and
 * parsed in main with the protocol's exact unit rules.
 */
export const bridgeMethods = {
  'app.info': {
    args: z.tuple([]),
    result: appInfoSchema,
    summary: 'Application version and operating-system platform.',
  },
  'app.connection': {
    args: z.tuple([]),
    result: connectionView,
    summary: 'The selected deployment, its pinned domain and the health of every feed.',
  },

  'lock.status': {
    args: z.tuple([]),
    result: lockStatus,
    summary: 'Whether the vault is locked, its backend and any password throttle.',
  },
  'lock.lock': {
    args: z.tuple([]),
    result: lockStatus,
    summary: 'Lock the vault now: signing stops until it is unlocked.',
  },
  'lock.unlock': {
    args: z.tuple([z.string().max(1024)]),
    result: lockStatus,
    summary: 'Unlock the vault with the app password.',
  },
  'lock.setPassword': {
    args: z.tuple([
      z
        .object({
          password: z.string().max(1024),
          passwordAgain: z.string().max(1024),
          currentPassword: z.string().max(1024).optional(),
        })
        .strict(),
    ]),
    result: lockStatus,
    summary:
      'Set or change the app password (typed twice); main asks first, except for the first password of a new key file.',
  },
  'lock.removePassword': {
    args: z.tuple([z.string().max(1024)]),
    result: lockStatus,
    summary: 'Remove the app password (keychain vaults only) after the user confirms in a dialog owned by main.',
  },

  'keys.list': {
    args: z.tuple([]),
    result: list(keyInfo),
    summary: 'Every key: address, label, role and when it was added. Never the secret.',
  },
  'keys.create': {
    args: z.tuple([keyOptions]),
    result: keyInfo,
    summary: 'Create a new random key in the OS keychain.',
  },
  'keys.importPrivateKey': {
    args: z.tuple([z.object({ privateKey: z.string().max(200), ...keyOptions.shape }).strict()]),
    result: keyInfo,
    summary: 'Import a raw private key.',
  },
  'keys.importMnemonic': {
    args: z.tuple([
      z
        .object({
          phrase: z.string().max(1000),
          accountIndex: z
            .number()
            .int()
            .min(0)
            .max(2 ** 31 - 1),
          ...keyOptions.shape,
        })
        .strict(),
    ]),
    result: keyInfo,
    summary: 'Import one account of a BIP-39 recovery phrase.',
  },
  'keys.importKeystore': {
    args: z.tuple([
      z.object({ json: z.string().max(100_000), password: z.string().max(1024), ...keyOptions.shape }).strict(),
    ]),
    result: keyInfo,
    summary: 'Import an encrypted JSON keystore (v3).',
  },
  'keys.exportKeystore': {
    args: z.tuple([
      z.object({ address, password: z.string().max(1024), passwordAgain: z.string().max(1024) }).strict(),
    ]),
    result: confirmed(savedFile),
    summary: 'Export a key as an encrypted keystore to a file the user picks in a dialog owned by main.',
  },
  'keys.rename': {
    args: z.tuple([z.object({ address, label }).strict()]),
    result: keyInfo,
    summary: 'Change the label of a key.',
  },
  'keys.delete': {
    args: z.tuple([z.object({ address }).strict()]),
    result: confirmed(none),
    summary: 'Delete a key after the user confirms in a dialog owned by main.',
  },
  'keys.devnetAccounts': {
    args: z.tuple([]),
    result: list(z.object({ address, label: z.string(), imported: z.boolean() })),
    summary: 'The funded demo accounts of the embedded devnet (empty elsewhere).',
  },
  'keys.useDevnetAccount': {
    args: z.tuple([z.object({ address }).strict()]),
    result: keyInfo,
    summary: 'Import one funded devnet demo account.',
  },

  'settings.get': { args: z.tuple([]), result: SettingsSchema, summary: 'All settings.' },
  'settings.update': {
    args: z.tuple([settingsPatch]),
    result: SettingsSchema,
    summary:
      'Change layout and cosmetic settings; protections, deployments and pins are refused with a sentence naming the method to use.',
  },
  'settings.setConfirmation': {
    args: z.tuple([confirmationChange]),
    result: confirmed(SettingsSchema),
    summary: 'Turn a confirmation on, or off after the user agrees in a dialog owned by main.',
  },
  'settings.setAutoLock': {
    args: z.tuple([autoLockMinutes]),
    result: confirmed(SettingsSchema),
    summary: 'Change auto-lock; longer or off only after the user agrees in a dialog owned by main.',
  },
  'deployments.acceptPin': {
    args: z.tuple([]),
    result: confirmed(pinState),
    summary:
      'Ask main to show the new or changed domain facts and token contracts of the deployment and let the user accept them.',
  },
  'deployments.discover': {
    args: z.tuple([discoveryArgs]),
    result: confirmed(discovery),
    summary:
      "From a base URL and a chain node: main asks before contacting them, then reads the node's chain id, the exchange's configuration and domain for it, and checks the usual feed addresses.",
  },
  'deployments.add': {
    args: z.tuple([deploymentDraft]),
    result: confirmed(deploymentResult),
    summary:
      'Add a deployment: main asks before contacting its hosts, reads its chain and domain, and pins them after a second yes.',
  },
  'deployments.edit': {
    args: z.tuple([deploymentEdit]),
    result: confirmed(deploymentResult),
    summary: 'Change the name, URLs or chain id of a deployment after the user confirms in a dialog owned by main.',
  },
  'deployments.select': {
    args: z.tuple([deploymentRef]),
    result: confirmed(deploymentResult),
    summary: 'Switch to another deployment after the user confirms in a dialog owned by main.',
  },
  'deployments.remove': {
    args: z.tuple([deploymentRef]),
    result: confirmed(none),
    summary: 'Remove a deployment and its pin after the user confirms in a dialog owned by main.',
  },
  'deployments.inspectMarket': {
    args: z.tuple([marketLookup]),
    result: inspectedMarket,
    summary: 'Decode a pasted asset id and ask the deployment whether it is registered and priced by its oracle.',
  },
  'deployments.addMarket': {
    args: z.tuple([marketAdd]),
    result: confirmed(list(configuredMarket)),
    summary: 'Add a market to a deployment under a name, after the user confirms in a dialog owned by main.',
  },
  'deployments.renameMarket': {
    args: z.tuple([marketRename]),
    result: confirmed(list(configuredMarket)),
    summary: 'Rename a market of a deployment after the user confirms in a dialog owned by main.',
  },
  'deployments.removeMarket': {
    args: z.tuple([marketRemove]),
    result: list(configuredMarket),
    summary: 'Remove a market from the list of a deployment.',
  },
  'deployments.moveMarket': {
    args: z.tuple([marketMove]),
    result: list(configuredMarket),
    summary: 'Move a market to another place in the list of a deployment.',
  },

  'markets.list': {
    args: z.tuple([]),
    result: list(marketSummary),
    summary: 'Every market with strike, oracle price, epoch countdown and top of book.',
  },
  'markets.subscribeBook': {
    args: z.tuple([subscribeBookArgs]),
    result: z.object({ subscriptionId: z.string(), book: bookView }),
    summary: 'Start streaming one book; updates arrive as `book` events, at most 30 a second.',
  },
  'markets.unsubscribeBook': {
    args: z.tuple([z.string().min(1).max(100)]),
    result: none,
    summary: 'Stop streaming a book.',
  },
  'markets.resolvedEpochs': {
    args: z.tuple([decimalString]),
    result: list(resolvedEpoch),
    summary: 'Recently resolved epochs of an asset.',
  },
  'markets.oracleHistory': {
    args: z.tuple([decimalString]),
    result: list(oracleTick),
    summary: 'Recent oracle prices of a symbol, for the chart.',
  },
  'markets.trades': {
    args: z.tuple([marketRef]),
    result: list(tradePrint),
    summary: 'Recent trades of one market from its feed, newest first (bounded).',
  },

  'account.select': {
    args: z.tuple([accountSelection]),
    result: accountView,
    summary: 'Choose the master key (and agent) the terminal trades with.',
  },
  'account.get': {
    args: z.tuple([]),
    result: accountView,
    summary: 'Balances, positions, open orders and own fills of the selected account.',
  },
  'account.exportFills': {
    args: z.tuple([]),
    result: confirmed(savedFile),
    summary: 'Save own fills as CSV to a file the user picks in a dialog owned by main.',
  },

  'orders.quote': {
    args: z.tuple([orderTicket]),
    result: orderQuote,
    summary: 'Check a ticket and compute its cost, payout if right and maximum loss.',
  },
  'orders.place': {
    args: z.tuple([orderTicket]),
    result: orderResult,
    summary: 'Sign and send an order built from the ticket.',
  },
  'orders.cancel': { args: z.tuple([cancelArgs]), result: cancelResult, summary: 'Cancel one order.' },
  'orders.cancelAll': {
    args: z.tuple([cancelAllArgs]),
    result: cancelResult,
    summary: 'Cancel every order of the account in one market.',
  },
  'orders.history': {
    args: z.tuple([]),
    result: list(orderHistoryEntry),
    summary: 'Orders sent this session and their outcome (open, filled, cancelled, rejected), newest first (bounded).',
  },
  'orders.replace': {
    args: z.tuple([replaceArgs]),
    result: replaceResult,
    summary: 'Change the price or size of an order by cancel-and-replace.',
  },
  'orders.flatten': {
    args: z.tuple([flattenArgs]),
    result: closeResult,
    summary:
      'Close the position in a market (reduce-only IOC limited to the live best price ± the maximum slippage) and say what filled and what is left.',
  },

  'agents.status': {
    args: z.tuple([]),
    result: agentStatusView.nullable(),
    summary: 'The agent approval of the selected master.',
  },
  'agents.approve': {
    args: z.tuple([z.object({ agent: address }).strict()]),
    result: confirmed(agentStatusView),
    summary: 'Approve an agent key for the master after the user confirms in a dialog owned by main.',
  },
  'agents.revoke': {
    args: z.tuple([]),
    result: confirmed(agentStatusView),
    summary: 'Revoke the current agent approval of the master.',
  },

  'claims.list': {
    args: z.tuple([]),
    result: list(claimableEpoch),
    summary: 'Resolved epochs with something to claim.',
  },
  'claims.claim': { args: z.tuple([marketRef]), result: claimResult, summary: 'Claim one resolved epoch.' },
  'claims.claimAll': { args: z.tuple([]), result: list(claimResult), summary: 'Claim every claimable epoch.' },

  'funds.deposit': {
    args: z.tuple([depositArgs]),
    result: confirmed(depositResult),
    summary:
      'Deposit on chain (approve or permit) after the user confirms in a dialog owned by main; progress arrives as `deposit` events.',
  },
  'funds.withdraw': {
    args: z.tuple([withdrawArgs]),
    result: confirmed(withdrawalView),
    summary: 'Withdraw after the user confirms in a dialog owned by main.',
  },
  'funds.withdrawals': {
    args: z.tuple([]),
    result: list(withdrawalView),
    summary: 'Withdrawals of the selected account and their on-chain status.',
  },
  'funds.faucet': {
    args: z.tuple([]),
    result: confirmed(z.object({ amount: decimalString })),
    summary:
      'Devnet only: mint settlement tokens to the master wallet after the user confirms the transaction in a dialog owned by main.',
  },

  'offline.sign': {
    args: z.tuple([offlineSignArgs]),
    result: confirmed(signedPayload),
    summary:
      'Sign one action with no network under the pinned domain, for another machine to submit; anything but orders and cancels after a dialog owned by main.',
  },
  'offline.describe': {
    args: z.tuple([z.unknown()]),
    result: payloadDescription,
    summary: 'Check a signed payload and say exactly what it does.',
  },
  'offline.submit': {
    args: z.tuple([signedPayload]),
    result: confirmed(submitResult),
    summary:
      'Send a previously signed payload to the exchange; anything but orders and cancels after a dialog owned by main.',
  },
  'offline.saveFile': {
    args: z.tuple([signedPayload]),
    result: confirmed(savedFile),
    summary: 'Save a signed payload to a file the user picks in a dialog owned by main.',
  },
  'offline.openFile': {
    args: z.tuple([]),
    result: confirmed(z.unknown()),
    summary: 'Read a signed payload from a file the user picks in a dialog owned by main.',
  },

  'airgap.qrShow': {
    args: z.tuple([qrShowArgs]),
    result: qrShowView,
    summary: 'Check an air-gapped envelope and prepare it as animated QR codes; says what it is and its fingerprint.',
  },
  'airgap.qrParts': {
    args: z.tuple([qrPartsArgs]),
    result: z.array(z.string()),
    summary: 'The next part texts of a shown envelope, for the window to draw as QR codes (at most 32 at a time).',
  },
  'airgap.qrHide': { args: z.tuple([showIdArgs]), result: none, summary: 'Stop showing an envelope as QR codes.' },
  'airgap.scanBegin': {
    args: z.tuple([scanBeginArgs]),
    result: scanProgress,
    summary: 'Open a scan for QR codes of the given envelope kinds; the camera may be used only while it is open.',
  },
  'airgap.scanPart': {
    args: z.tuple([scanPartArgs]),
    result: scanProgress,
    summary: 'Hand main one text read from a QR code; when the payload is whole main checks and receives the envelope.',
  },
  'airgap.scanCancel': {
    args: z.tuple([scanIdArgs]),
    result: none,
    summary: 'Close a scan (and with it the permission to use the camera).',
  },
  ...offlineModeMethods,
  ...kitMethods,
  ...riskMethods,
  ...practiceMethods,
  ...workingOrderMethods,

  ...airgapMethods,
  ...updateMethods,
} as const satisfies Record<string, MethodSpec>;

/**
 * Every event main may push. Book events are coalesced to at most 30 a second per book; market data
 * (`perFrame`) reaches the window at most once per key per frame (src/main/core/window-outbox.ts).
 */
export const bridgeEvents = {
  notice: { payload: noticeSchema, summary: 'A short message from the app core for the notice area.' },
  lock: { payload: lockStatus, summary: 'The vault locked or unlocked.' },
  keys: { payload: list(keyInfo), summary: 'The list of keys changed.' },
  settings: { payload: SettingsSchema, summary: 'Settings changed.' },
  connection: { payload: connectionView, summary: 'Deployment, pin or feed health changed.' },
  markets: {
    payload: list(marketSummary),
    summary: 'Market list refreshed: oracle prices, epochs, top of book.',
    perFrame: { latestBy: () => '' },
  },
  book: {
    payload: z.object({ subscriptionId: z.string(), book: bookView }),
    summary: 'A subscribed book changed (coalesced).',
    perFrame: { latestBy: (p: { subscriptionId: string }) => p.subscriptionId },
  },
  oracle: {
    payload: oracleTick,
    summary: 'A new oracle price.',
    // The charts keep one point a second per symbol: a tick replaced within a frame loses nothing.
    perFrame: { latestBy: (p: { symbolId: string }) => p.symbolId },
  },
  account: {
    payload: accountView,
    summary: 'Balances, positions, orders or fills of the selected account changed.',
    // The whole view, re-sent as the market marks the positions (several a second in a busy market).
    perFrame: { latestBy: () => '' },
  },
  fill: {
    payload: fillView,
    summary:
      'One of our orders was filled; the window words a notice for a maker fill as the notification settings allow.',
  },
  orderHistory: { payload: list(orderHistoryEntry), summary: 'The order history changed (newest first, bounded).' },
  orderAnswered: {
    payload: orderHistoryEntry,
    summary:
      'The exchange answered an order of ours (its history entry), sent the moment main has the answer, before the account is read again: the window shows it at once.',
  },
  trade: {
    payload: tradePrint,
    summary: 'A trade in a market whose book the window streams, from the market feed.',
    // Every print (the tape lists each), in order, but with the frame's market data.
    perFrame: {},
  },
  resolution: {
    payload: epochResolution,
    summary: 'An epoch resolved; the window words its notice as the notification settings allow.',
  },
  deposit: { payload: depositProgress, summary: 'Progress of a deposit through confirmations until credited.' },
  updates: { payload: updateStatus, summary: 'Where the app’s own update stands changed (src/main/updates).' },
  risk: {
    payload: riskStatus,
    summary:
      'Today’s loss budget as main counts it changed (an account change, a fair-value tick, an order): the one figure the meter shows.',
  },
  ...workingOrderEvents,
} as const satisfies Record<string, EventSpec>;

export type BridgeMethods = typeof bridgeMethods;
export type BridgeEvents = typeof bridgeEvents;
export type BridgeMethod = keyof BridgeMethods;
export type BridgeEvent = keyof BridgeEvents;
export type BridgeArgs<M extends BridgeMethod> = z.infer<BridgeMethods[M]['args']>;
export type BridgeResult<M extends BridgeMethod> = z.infer<BridgeMethods[M]['result']>;
export type BridgePayload<E extends BridgeEvent> = z.infer<BridgeEvents[E]['payload']>;
export type AppInfo = z.infer<typeof appInfoSchema>;
export type Notice = z.infer<typeof noticeSchema>;

// Object.keys loses the key type; the tables are `as const`, so the cast is exact.
export const bridgeMethodNames = Object.freeze(Object.keys(bridgeMethods) as BridgeMethod[]);
export const bridgeEventNames = Object.freeze(Object.keys(bridgeEvents) as BridgeEvent[]);

const methodNameSet: ReadonlySet<string> = new Set(bridgeMethodNames);
const eventNameSet: ReadonlySet<string> = new Set(bridgeEventNames);

export function isBridgeMethod(name: unknown): name is BridgeMethod {
  return typeof name === 'string' && methodNameSet.has(name);
}

export function isBridgeEvent(name: unknown): name is BridgeEvent {
  return typeof name === 'string' && eventNameSet.has(name);
}

/** IPC channel names are namespaced so no other ipc traffic can collide with the bridge. */
export const INVOKE_CHANNEL_PREFIX = 'bridge:invoke:';
export const EVENT_CHANNEL_PREFIX = 'bridge:event:';

export function invokeChannel(method: BridgeMethod): string {
  return INVOKE_CHANNEL_PREFIX + method;
}

export function eventChannel(event: BridgeEvent): string {
  return EVENT_CHANNEL_PREFIX + event;
}

/**
 * Failures cross the bridge as data, not as thrown errors: Electron flattens a thrown
 * error into one string, and the window needs the machine code to react.
 */
export const bridgeErrorSchema = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_.]*$/),
  message: z.string(),
});
export type BridgeErrorData = z.infer<typeof bridgeErrorSchema>;

export type BridgeOutcome<T = unknown> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeErrorData };

/** Codes produced by the bridge itself; handlers add their own (e.g. `vault.locked`). */
export const BRIDGE_ERROR = {
  unknownMethod: 'bridge.unknown_method',
  invalidArgs: 'bridge.invalid_args',
  untrustedSender: 'bridge.untrusted_sender',
  invalidResult: 'bridge.invalid_result',
  internal: 'bridge.internal',
  unavailable: 'bridge.unavailable',
  /** Arguments over the size budget (bridge/arg-budget.ts), refused before they are parsed. */
  tooLarge: 'bridge.too_large',
} as const;

/**
 * What the preload exposes as `window.terminal`. Deliberately untyped at this layer:
 * the window is not trusted, so the preload only checks names and main validates the rest.
 * The renderer wraps it in a typed client (src/renderer/lib/bridge.ts).
 */
export interface TerminalApi {
  invoke(method: string, args: readonly unknown[]): Promise<BridgeOutcome>;
  on(event: string, handler: (payload: unknown) => void): () => void;
}
