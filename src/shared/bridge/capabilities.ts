/**
 * The capability class of every bridge method: what the window can achieve by calling it.
 *
 *   read           reads state, or changes only local state that can neither move value nor
 *                  lower a protection (subscriptions, the selected account, adding or renaming a
 *                  key, locking, unlocking with the password, layout and cosmetic settings).
 *   trade          signs orders, cancels, cancel-and-replace, claims and agent revocations for the
 *                  exchange, under the pinned domain of the selected deployment only. One keystroke
 *                  fast, and every order passes main's order gate (src/main/core/risk): the risk
 *                  guards always, main's dialog when the user wants order confirmations or a guard
 *                  breaks, so a window can lose at most the daily loss limit.
 *   moves-value    can move, sign away, hand out or destroy value: withdrawals, agent approvals,
 *                  on-chain transactions, key export and deletion, offline signing and submitting
 *                  of anything but orders and cancels. Never happens without a dialog owned by main.
 *   changes-trust  lowers a protection or changes what the app trusts: confirmations, auto-lock,
 *                  the app password, deployments and pins. Never happens without a dialog owned by
 *                  main when it weakens anything.
 *
 * Kept in its own table (not a field of every row of `bridgeMethods`) so branches that add methods
 * add one line here; `satisfies` makes a method without a class a type error, and the hostile-window
 * test (test/core/hostile-window.test.ts) fails on one too.
 */
import type { BridgeMethod } from '../bridge';

export const CAPABILITY_CLASSES = ['read', 'trade', 'moves-value', 'changes-trust'] as const;
export type Capability = (typeof CAPABILITY_CLASSES)[number];

export const methodCapabilities = {
  'app.info': 'read',
  'app.connection': 'read',

  'lock.status': 'read',
  'lock.lock': 'read',
  'lock.unlock': 'read',
  'lock.setPassword': 'changes-trust',
  'lock.removePassword': 'changes-trust',

  'keys.list': 'read',
  'keys.create': 'read',
  'keys.importPrivateKey': 'read',
  'keys.importMnemonic': 'read',
  'keys.importKeystore': 'read',
  'keys.exportKeystore': 'moves-value',
  'keys.rename': 'read',
  'keys.delete': 'moves-value',
  'keys.devnetAccounts': 'read',
  'keys.useDevnetAccount': 'read',

  'settings.get': 'read',
  'settings.update': 'read',
  'settings.setConfirmation': 'changes-trust',
  'settings.setAutoLock': 'changes-trust',
  // Off makes the app connect: main's dialog first (on is immediate).
  'settings.setOfflineMode': 'changes-trust',
  // Looser limits let a window lose more: main's dialog first (stricter is immediate).
  'settings.setRiskLimits': 'changes-trust',
  'risk.status': 'read',
  'deployments.acceptPin': 'changes-trust',
  // Contacts hosts the user typed: only after main's dialog.
  'deployments.discover': 'changes-trust',
  'deployments.add': 'changes-trust',
  'deployments.edit': 'changes-trust',
  'deployments.select': 'changes-trust',
  'deployments.remove': 'changes-trust',
  // Asks only deployments the user confirmed, with the id as a validated decimal.
  'deployments.inspectMarket': 'read',
  'deployments.addMarket': 'changes-trust',
  'deployments.renameMarket': 'changes-trust',
  // Removing or reordering markets of the list can neither move value nor mislabel a market.
  'deployments.removeMarket': 'read',
  'deployments.moveMarket': 'read',

  'markets.list': 'read',
  'markets.subscribeBook': 'read',
  'markets.unsubscribeBook': 'read',
  'markets.resolvedEpochs': 'read',
  'markets.oracleHistory': 'read',
  'markets.trades': 'read',

  'account.select': 'read',
  'account.get': 'read',
  'account.exportFills': 'read',

  'orders.quote': 'read',
  'orders.place': 'trade',
  'orders.cancel': 'trade',
  'orders.cancelAll': 'trade',
  'orders.replace': 'trade',
  'orders.flatten': 'trade',
  'orders.history': 'read',

  'agents.status': 'read',
  'agents.approve': 'moves-value',
  'agents.revoke': 'trade',

  'claims.list': 'read',
  'claims.claim': 'trade',
  'claims.claimAll': 'trade',

  'funds.deposit': 'moves-value',
  'funds.withdraw': 'moves-value',
  'funds.withdrawals': 'read',
  'funds.faucet': 'moves-value',

  'offline.sign': 'moves-value',
  'offline.describe': 'read',
  'offline.submit': 'moves-value',
  'offline.saveFile': 'read',
  'offline.openFile': 'read',

  // QR transport only moves envelope texts between the window and main: every envelope is checked in
  // full, nothing is signed, sent or trusted here (the inbox and main's own dialogs decide that).
  'airgap.qrShow': 'read',
  'airgap.qrParts': 'read',
  'airgap.qrHide': 'read',
  'airgap.scanBegin': 'read',
  'airgap.scanPart': 'read',
  'airgap.scanCancel': 'read',
  // Pre-signs for another machine to send: signatures handed out, so main's dialog says what.
  'kit.build': 'moves-value',
  'kit.list': 'read',
  'kit.saveFile': 'read',
  // A kit is kept only after every signature and the pin check; keeping one can only cancel and revoke.
  // Text from the window (importText, QR) fills at most 3 of the 8 slots (kit-store.ts).
  'kit.openFile': 'read',
  'kit.importText': 'read',
  // Removing a kit takes away the panic action: a protection, so main asks.
  'kit.remove': 'changes-trust',
  // Sends pre-signed cancel-alls and a revocation: it cancels and revokes, never moves value (see kit-panic.ts).
  // No dialog, but only on a press of the person that main saw, once per press (user-presence.ts).
  'kit.panic': 'trade',
  // A watched address adds no key and lets nothing be signed; drafting signs and sends nothing.
  'airgap.watchList': 'read',
  'airgap.watchAdd': 'read',
  'airgap.watchRemove': 'read',
  'airgap.prepare': 'read',
  'airgap.pending': 'read',
  'airgap.discard': 'read',
  'airgap.received': 'read',
  'airgap.envelopeText': 'read',
  'airgap.saveFile': 'read',
  'airgap.openFile': 'read',
  'airgap.receiveText': 'read',
  'airgap.pinDomain': 'changes-trust',
  'airgap.sign': 'moves-value',
  'airgap.submit': 'moves-value',
  'airgap.alwaysConfirm': 'read',
  'airgap.setAlwaysConfirm': 'changes-trust',
  // The app's own updates: only releases signed by a key baked into the build are downloaded, and
  // downloading installs nothing. Installing new code is the largest trust change: main's dialog first.
  'updates.status': 'read',
  'updates.download': 'read',
  'updates.restart': 'changes-trust',
  // On makes quitting the app (however it comes about, a window closing itself included) install a
  // downloaded update: main's dialog first (off is immediate).
  'settings.setInstallUpdatesOnQuit': 'changes-trust',
  // Practice (docs/practice-mode.md): a local exchange with play money that main itself starts.
  'practice.status': 'read',
  // Changes the deployment main trades on and the keys it offers. From nothing selected (or practice
  // itself) it lowers no protection and contacts no host off this computer, so main does it without a
  // dialog; leaving a real deployment for it takes main's dialog, as any switch of deployment does.
  'practice.start': 'changes-trust',
  // Credits play money on the local practice exchange only (refused elsewhere): nothing of value moves.
  'practice.addFunds': 'read',
  // Throws away practice positions and history: main's dialog first.
  'practice.reset': 'changes-trust',
  // Working orders (docs/working-orders.md): main decides when they fire, and every order they send
  // passes the order gate as the window's own would, so they can do no more than orders.place.
  'workingOrders.create': 'trade',
  'workingOrders.edit': 'trade',
  'workingOrders.cancel': 'trade',
  'workingOrders.cancelAll': 'trade',
  'workingOrders.list': 'read',
} as const satisfies Record<BridgeMethod, Capability>;

/** The class of a method; undefined only for a name that is not a bridge method. */
export function capabilityOf(method: string): Capability | undefined {
  return Object.hasOwn(methodCapabilities, method)
    ? (methodCapabilities as Record<string, Capability>)[method]
    : undefined;
}

/** Methods whose effect needs the user's answer in a dialog owned by main. */
export function needsMainDialog(capability: Capability): boolean {
  return capability === 'moves-value' || capability === 'changes-trust';
}
