/**
 * Offline mode: while it is on, the app opens no network connection at all (no HTTP, WebSocket,
 * JSON-RPC or DNS). It is on when the app was launched with --offline (or
 * EXCHANGE_TERMINAL_OFFLINE=1), or when the user turned the setting on. Keys, the lock, settings and
 * offline signing keep working; every method that would need the network answers a coded sentence.
 *
 * Proven by test/core/offline-mode.test.ts, which watches every socket the core tries to open.
 */
import type { BridgeMethod, OfflineState } from '../../shared/bridge';
import type { Settings } from '../settings';
import { BridgeFailure } from './bridge-runtime';

/** The launch flag; the same switch as the environment variable, for launchers that cannot pass flags. */
export const OFFLINE_FLAG = '--offline';
export const OFFLINE_ENV = 'EXCHANGE_TERMINAL_OFFLINE';

/** Whether the process was launched offline. */
export function launchedOffline(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  return argv.includes(OFFLINE_FLAG) || env[OFFLINE_ENV] === '1';
}

export function offlineStateOf(settings: Settings, launchFlag: boolean): OfflineState {
  if (launchFlag) return 'launch-flag';
  return settings.offlineMode ? 'setting' : 'off';
}

/**
 * Whether each bridge method needs the network. `satisfies` makes a new method without a row a type
 * error, so nobody adds a method that offline mode forgets. A method marked local must open no socket
 * in offline mode; the offline-mode test calls each one to hold it to that.
 */
export const networkUse = {
  'app.info': 'local',
  'app.connection': 'local',

  'lock.status': 'local',
  'lock.lock': 'local',
  'lock.unlock': 'local',
  'lock.setPassword': 'local',
  'lock.removePassword': 'local',

  'keys.list': 'local',
  'keys.create': 'local',
  'keys.importPrivateKey': 'local',
  'keys.importMnemonic': 'local',
  'keys.importKeystore': 'local',
  'keys.exportKeystore': 'local',
  'keys.rename': 'local',
  'keys.delete': 'local',
  'keys.devnetAccounts': 'local',
  'keys.useDevnetAccount': 'local',

  'settings.get': 'local',
  'settings.update': 'local',
  'settings.setConfirmation': 'local',
  'settings.setAutoLock': 'local',
  'settings.setOfflineMode': 'local',
  'settings.setRiskLimits': 'local',
  // Reads the selected session when there is one; offline it says there is none.
  'risk.status': 'local',
  // Accepting a pin writes facts already observed; adding or editing a deployment reads its hosts.
  'deployments.acceptPin': 'local',
  'deployments.discover': 'network',
  'deployments.add': 'network',
  'deployments.edit': 'network',
  'deployments.select': 'local',
  'deployments.remove': 'local',
  'deployments.inspectMarket': 'network',
  'deployments.addMarket': 'network',
  'deployments.renameMarket': 'local',
  'deployments.removeMarket': 'local',
  'deployments.moveMarket': 'local',

  'markets.list': 'network',
  'markets.subscribeBook': 'network',
  'markets.unsubscribeBook': 'network',
  'markets.resolvedEpochs': 'network',
  'markets.oracleHistory': 'network',
  'markets.trades': 'network',

  'account.select': 'network',
  'account.get': 'network',
  'account.exportFills': 'network',

  'orders.quote': 'network',
  'orders.place': 'network',
  'orders.cancel': 'network',
  'orders.cancelAll': 'network',
  'orders.replace': 'network',
  'orders.flatten': 'network',
  'orders.history': 'network',
  // Created, edited and cancelled only against a running session; the list is main's own store.
  'workingOrders.create': 'network',
  'workingOrders.edit': 'network',
  'workingOrders.cancel': 'local',
  'workingOrders.cancelAll': 'local',
  'workingOrders.list': 'local',

  'agents.status': 'network',
  'agents.approve': 'network',
  'agents.revoke': 'network',

  'claims.list': 'network',
  'claims.claim': 'network',
  'claims.claimAll': 'network',

  'funds.deposit': 'network',
  'funds.withdraw': 'network',
  'funds.withdrawals': 'network',
  'funds.faucet': 'network',

  // Signing offline uses the pinned domain only; submitting sends.
  'offline.sign': 'local',
  'offline.describe': 'local',
  'offline.submit': 'network',
  'offline.saveFile': 'local',
  'offline.openFile': 'local',

  // QR transport moves texts between the window and main; it never opens a connection.
  'airgap.qrShow': 'local',
  'airgap.qrParts': 'local',
  'airgap.qrHide': 'local',
  'airgap.scanBegin': 'local',
  'airgap.scanPart': 'local',
  'airgap.scanCancel': 'local',
  // A kit is made under the pinned domain with the clock alone: the key machine may be offline.
  'kit.build': 'local',
  'kit.list': 'local',
  'kit.saveFile': 'local',
  'kit.openFile': 'local',
  'kit.importText': 'local',
  'kit.remove': 'local',
  'kit.panic': 'network',

  // The air-gapped round trip: drafting, carrying and signing are local; only sending goes out.
  'airgap.watchList': 'local',
  'airgap.watchAdd': 'local',
  'airgap.watchRemove': 'local',
  'airgap.prepare': 'local',
  'airgap.pending': 'local',
  'airgap.discard': 'local',
  'airgap.received': 'local',
  'airgap.envelopeText': 'local',
  'airgap.saveFile': 'local',
  'airgap.openFile': 'local',
  'airgap.receiveText': 'local',
  'airgap.pinDomain': 'local',
  'airgap.sign': 'local',
  'airgap.submit': 'network',
  'airgap.alwaysConfirm': 'local',
  'airgap.setAlwaysConfirm': 'local',
  // Downloading reaches the update server; the restart installs what is already on disk.
  'updates.status': 'local',
  'updates.download': 'network',
  'settings.setInstallUpdatesOnQuit': 'local',
  'practice.status': 'local',
  // Practice talks to its own exchange over loopback: still a connection, which offline mode opens none of.
  'practice.start': 'network',
  'practice.addFunds': 'network',
  'practice.reset': 'network',
  'updates.restart': 'local',
} as const satisfies Record<BridgeMethod, 'local' | 'network'>;

export function needsNetwork(method: BridgeMethod): boolean {
  return networkUse[method] === 'network';
}

const HOW_TO_LEAVE: Record<Exclude<OfflineState, 'off'>, string> = {
  setting: 'turn it off in Settings to connect',
  'launch-flag': 'the app was started with --offline; start it without to connect',
};

/** The coded refusal of a method that needs the network. */
export function offlineRefusal(state: Exclude<OfflineState, 'off'>, what = 'this needs the network'): BridgeFailure {
  return new BridgeFailure(
    'offline.on',
    `Offline mode is on: ${what}, and the app opens no network connection (${HOW_TO_LEAVE[state]}). Nothing was sent.`,
  );
}
