/**
 * The app core: every bridge method and event, independent of the transport. Electron's IPC
 * (src/main/electron/bridge-ipc.ts) and the end-to-end harness (e2e/harness) both call `invoke`
 * and listen with `on`; neither adds logic of its own.
 */
import { isBridgeMethod, type BridgeEvent, type BridgeOutcome } from '../../shared/bridge';
import { capabilityOf, needsMainDialog } from '../../shared/bridge/capabilities';
import type { Logger } from '../log';
import type { DeploymentPinning, Settings, SettingsService } from '../settings';
import { createMemoryStore, type KeyValueStore } from '../store/key-value-store';
import type { Vault } from '../vault';
import type { Worker } from 'node:worker_threads';
import { KitStore } from './airgap/kit-store';
import { createKitChecks } from './airgap/kit-checks';
import { AirgapBook } from './airgap/book';
import { airgapHandlers } from './handlers/airgap';
import { dispatchBridgeCall, refusal, type BridgeHandlers } from './bridge-runtime';
import type { AppFacts, CoreContext } from './context';
import type { DevnetAccountEntry } from './devnet/devnet-accounts';
import { dialogBusy, gateDialogs } from './dialogs/dialog-gate';
import type { Dialogs } from './dialogs/dialogs';
import { toBridgeFailure } from './errors';
import { createEventHub, type EventListener } from './event-hub';
import { QrTransport } from './airgap/qr-transport';
import { receiveEnvelope } from './airgap/inbox';
import { airgapQrHandlers } from './handlers/airgap-qr';
import { appHandlers, connectionView, exchangeClockOf, type FeedHealthSource } from './handlers/app';
import { keyList, keysHandlers } from './handlers/keys';
import { lockHandlers, lockStatus } from './handlers/lock';
import { offlineFileHandlers } from './handlers/offline-files';
import { settingsHandlers } from './handlers/settings';
import { deploymentsHandlers, type DeploymentsOptions } from './handlers/deployments';
import { tradingHandlers } from './handlers/trading';
import { needsNetwork, offlineRefusal, offlineStateOf } from './offline-mode';
import { kitHandlers } from './handlers/kit';
import { coreProbe } from './probe';
import { isPress, UserPresence, type UserInput } from './user-presence';
import { Reservations } from './risk/reservations';
import { createTradingHost, disabledTradingHost, type TradingOptions } from './session/host';
import { Clearances } from './risk/clearances';
import { LossBudget } from './risk/loss-budget';
import { OrderGate } from './risk/order-gate';
import { OrderRate } from './risk/order-rate';
import { createUpdateService, type UpdateService } from '../updates';
import { updatesHandlers } from './handlers/updates';
import { createSignatureGate, restartingRefusal } from './signature-gate';
import { practiceHandlers } from './handlers/practice';
import { practiceDialogs } from './practice/practice-dialogs';
import { practiceSelected, selectedWorld } from './practice/practice-domain';
import type { PracticeMode } from './practice/practice-mode';
import { DayRecordStore } from './session/day-records';
import { WorkingOrderRunner } from './working-orders/runner';
import { workingOrdersHandlers } from './handlers/working-orders';

export interface AppCoreDeps {
  readonly vault: Vault;
  readonly settings: SettingsService;
  readonly pinning: DeploymentPinning;
  readonly dialogs: Dialogs;
  readonly logger: Logger;
  readonly app: AppFacts;
  readonly now?: () => number;
  readonly devnetAccounts?: readonly DevnetAccountEntry[];
  /** Where emergency kits are kept (main's store); in memory by default. */
  readonly kitStore?: KeyValueStore;
  /** Where prepared and received air-gapped requests persist; in memory when absent. */
  readonly store?: KeyValueStore;
  /** Feed health override; by default the trading session's. */
  readonly feeds?: FeedHealthSource;
  /** Connect to the selected deployment and trade; without it every trading method is unavailable. */
  readonly trading?: TradingOptions;
  /** Timeouts of the deployment and market checks (tests shorten them). */
  readonly deployments?: DeploymentsOptions;
  /** Tests inject a counter; production moves signing and hashing onto WebAssembly (about 30 ms, once). */
  readonly warmUpSigning?: () => void | Promise<void>;
  /** How the warm-up is deferred off the calling path; setImmediate by default. */
  readonly defer?: (fn: () => void) => () => void;
  /** Launched with --offline (offline-mode.ts): offline mode is on and the window cannot turn it off. */
  readonly launchedOffline?: boolean;
  /** The app's own updates (src/main/updates); without it this build does not update itself. */
  readonly updates?: UpdateService;
  /** Practice mode (src/main/core/practice): a local exchange with play money; without it practice is unavailable. */
  readonly practice?: PracticeMode;
  /**
   * Starts the worker that checks emergency kits' signatures (airgap/kit-worker.ts, built to
   * out/main/kit-worker.js); without it they are checked on main's thread in slices (kit-checks.ts).
   */
  readonly kitWorker?: () => Worker;
}

export interface AppCore {
  /** Validate, run and answer one call. Never throws. */
  invoke(method: string, args: unknown): Promise<BridgeOutcome>;
  on<E extends BridgeEvent>(event: E, listener: EventListener<E>): () => void;
  /**
   * Real keyboard, mouse or touch input reached the window (main sees it before the page does):
   * the person is here, so the idle auto-lock starts over, and a press is a gesture kit.panic may
   * take (user-presence.ts). Bridge calls never count: the window's own script can call as often
   * as it likes. Without `input`, activity only (no gesture).
   */
  noteUserInput(input?: UserInput): void;
  /** True only while a scan for QR codes that asked for the camera is open (window/policies.ts asks). */
  cameraWanted(): boolean;
  /** Offline mode is on now: the shell blocks the window's own network requests while it is. */
  isOffline(): boolean;
  /**
   * The window's page went away (reloaded, navigated, crashed or closed; window/page-lifetime.ts
   * tells): what it had opened in the core closes, since no page is left to close it. Without this,
   * every reload would keep its book streams and the 33rd page could stream none.
   */
  windowGone(): void;
  dispose(): void;
}

const deferImmediate = (fn: () => void): (() => void) => {
  const handle = setImmediate(fn);
  return () => clearImmediate(handle);
};

/** Known errors become coded failures with their sentence; the rest stay unexpected. */
function translated(handlers: BridgeHandlers): BridgeHandlers {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [method, handler] of Object.entries(handlers) as [string, (...args: unknown[]) => unknown][]) {
    out[method] = async (...args) => {
      try {
        return await handler(...args);
      } catch (error) {
        throw toBridgeFailure(error) ?? error;
      }
    };
  }
  return out as unknown as BridgeHandlers;
}

function isDeclined(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { confirmed?: unknown }).confirmed === false;
}

function connectionChanged(next: Settings, previous: Settings): boolean {
  return (
    next.selectedDeploymentId !== previous.selectedDeploymentId ||
    JSON.stringify([next.deployments, next.pins, next.pendingPinChanges]) !==
      JSON.stringify([previous.deployments, previous.pins, previous.pendingPinChanges])
  );
}

export function createAppCore(deps: AppCoreDeps): AppCore {
  const logger = deps.logger.child({ scope: 'core' });
  const events = createEventHub((event, error) =>
    logger.error('core.listener_failed', {
      event,
      message: error instanceof Error ? error.message : 'non-error thrown',
    }),
  );
  let feeds: FeedHealthSource = deps.feeds ?? (() => []);
  // While practice is selected every dialog of main says so in its title and text.
  const dialogs = gateDialogs(practiceDialogs(deps.dialogs, () => practiceSelected(deps.settings.getSettings())));
  const now = deps.now ?? Date.now;
  const store = deps.store ?? createMemoryStore();
  // The risk guards run on the wall clock (the UTC day, the last minute), not the idle clock tests drive.
  const clearances = new Clearances(Date.now);
  // A key in the vault keeps its day's record whatever else is selected or watched.
  // A key in the vault: its day's records (loss budget, fills and history) are never pushed out by another's.
  const signs = (account: string): boolean =>
    deps.vault.list().some((k) => k.address.toLowerCase() === account.toLowerCase());
  const lossBudget = new LossBudget(store, Date.now, { signs });
  // An order signed for a later send stops counting when its epoch has ended (by the running session's epochs).
  let epochEnded: (assetId: bigint, epoch: bigint) => boolean = () => false;
  const reservations = new Reservations((a, e) => epochEnded(a, e));
  const orderGate = new OrderGate({
    settings: deps.settings,
    dialogs,
    labelOf: (address) =>
      deps.vault.list().find((k) => k.address.toLowerCase() === address.toLowerCase())?.label ?? null,
    budget: lossBudget,
    rate: new OrderRate(Date.now),
    clearances,
    reservations,
    logger,
  });
  const kitChecks = createKitChecks({ ...(deps.kitWorker ? { spawn: deps.kitWorker } : {}), logger });
  const ctx: CoreContext = {
    vault: deps.vault,
    settings: deps.settings,
    pinning: deps.pinning,
    dialogs,
    logger,
    events,
    app: deps.app,
    now,
    devnetAccounts: deps.devnetAccounts ?? [],
    offline: () => offlineStateOf(deps.settings.getSettings(), deps.launchedOffline === true),
    kits: new KitStore(deps.kitStore ?? createMemoryStore(), kitChecks),
    kitChecks,
    airgap: new AirgapBook(store),
    orderGate,
    clearances,
    lossBudget,
    reservations,
    presence: new UserPresence(deps.now ?? Date.now),
    practice: deps.practice ?? null,
    // The day's fills and history follow the wall clock's UTC day, as the loss budget does.
    dayRecords: new DayRecordStore(store, { signs }),
  };

  const trading = deps.trading ? createTradingHost(ctx, deps.trading) : disabledTradingHost();
  epochEnded = (assetId, epoch) => {
    try {
      const current = trading.session().epochs.current(assetId);
      return current !== undefined && epoch < current;
    } catch {
      return false;
    }
  };
  feeds = deps.feeds ?? (() => trading.feeds());
  // Working orders run in main on the trading host's sessions, kept in main's store (docs/working-orders.md).
  const workingOrders = new WorkingOrderRunner({ ctx, trading, store });
  const updates =
    deps.updates ??
    createUpdateService({
      feedUrl: null,
      trustedKeys: [],
      currentVersion: deps.app.version,
      manifestName: '',
      engine: null,
      logger,
    });
  // Signing calls pass this gate: the restart to update closes it and waits for them (signature-gate.ts).
  const signing = createSignatureGate();
  const qr = new QrTransport({
    now: ctx.now,
    receive: (text) => receiveEnvelope(ctx, text, 'qr'),
    checkKit: async (text) => (await kitChecks.check(text, 'window')).kit,
  });
  const handlers = translated({
    ...airgapQrHandlers(qr),
    ...tradingHandlers(ctx, trading),
    ...offlineFileHandlers(ctx),
    ...kitHandlers(ctx, trading),
    ...airgapHandlers(ctx, trading),
    ...appHandlers(ctx, feeds, exchangeClockOf(trading)),
    ...lockHandlers(ctx),
    ...keysHandlers(ctx),
    ...settingsHandlers(ctx),
    ...deploymentsHandlers(ctx, deps.deployments),
    ...updatesHandlers(ctx, updates, signing),
    ...practiceHandlers(ctx, trading, ctx.practice),
    ...workingOrdersHandlers(workingOrders),
  });
  // The kept kits are read back (their signatures checked off the loop) now, so a first panic seldom waits.
  ctx.kits
    .ready()
    .catch((error: unknown) =>
      logger.warn('kit.load_failed', { message: error instanceof Error ? error.message : 'non-error thrown' }),
    );
  // Practice chosen last time starts again (its journal kept); the session connects once it answers.
  if (ctx.offline() === 'off') ctx.practice?.resume();

  // libsecp256k1 and keccak in WebAssembly sign an order about six times faster than noble; the
  // module compiles 1.2 MB of WASM when loaded, so load it once, off any UI path. Until then (and
  // if it fails) noble signs: the signatures are the same.
  const warmUp =
    deps.warmUpSigning ?? (() => import('../../shared/protocol/wasm-crypto').then((m) => m.useWasmCrypto()));
  const defer = deps.defer ?? deferImmediate;
  let warmed = false;
  let cancelWarmUp: (() => void) | null = null;
  const warmUpOnce = (): void => {
    if (warmed) return;
    warmed = true;
    cancelWarmUp = defer(() => {
      cancelWarmUp = null;
      const started = ctx.now();
      const failed = (error: unknown): void => {
        logger.warn('core.warm_up_failed', { message: error instanceof Error ? error.message : 'non-error thrown' });
      };
      try {
        void Promise.resolve(warmUp()).then(
          () => logger.info('timing.warm_up_signing', { ms: ctx.now() - started }),
          failed,
        );
      } catch (error) {
        failed(error);
      }
    });
  };

  const { vault, settings } = deps;
  vault.setAutoLockMinutes(settings.getSettings().autoLockMinutes);
  const unsubscribe = [
    vault.on('locked', () => events.emit('lock', lockStatus(ctx))),
    vault.on('unlocked', () => {
      events.emit('lock', lockStatus(ctx));
      warmUpOnce();
    }),
    vault.on('keys-changed', () => events.emit('keys', keyList(ctx))),
    settings.onChange((next, previous) => {
      events.emit('settings', next);
      if (next.autoLockMinutes !== previous.autoLockMinutes) {
        vault.setAutoLockMinutes(next.autoLockMinutes);
        events.emit('lock', lockStatus(ctx));
      }
      if (
        next.offlineMode !== previous.offlineMode ||
        next.updateDownloads !== previous.updateDownloads ||
        next.installUpdatesOnQuit !== previous.installUpdatesOnQuit
      )
        updates.settingsChanged();
      if (connectionChanged(next, previous) || next.offlineMode !== previous.offlineMode)
        events.emit('connection', connectionView(ctx, feeds, exchangeClockOf(trading)));
      // Entering or leaving practice changes which keys are offered (keys.ts keyList).
      if (selectedWorld(next) !== selectedWorld(previous)) events.emit('keys', keyList(ctx));
    }),
    updates.onChange((status) => events.emit('updates', status)),
    ctx.practice?.host.onChange(() =>
      events.emit('connection', connectionView(ctx, feeds, exchangeClockOf(trading))),
    ) ?? (() => {}),
  ];
  updates.start({
    offline: () => ctx.offline() !== 'off',
    downloads: () => settings.getSettings().updateDownloads,
    installOnQuit: () => settings.getSettings().installUpdatesOnQuit,
  });
  if (!vault.status().locked) warmUpOnce();

  const onInternalError = (method: string, error: unknown): void => {
    // Name and message only: library errors may carry their inputs in other fields.
    logger.error('bridge.internal', {
      method,
      error: error instanceof Error ? `${error.name}: ${error.message}` : 'non-error thrown',
    });
  };

  const refused = (code: string, message: string): Promise<BridgeOutcome> => Promise.resolve(refusal(code, message));

  return {
    invoke: async (method, args) => {
      coreProbe.onInvoke?.(method);
      if (!isBridgeMethod(method)) return dispatchBridgeCall(handlers, method, args, onInternalError);
      // Offline mode: a method that needs the network is refused before any handler can open a socket.
      const offline = ctx.offline();
      if (offline !== 'off' && needsNetwork(method)) {
        const failure = offlineRefusal(offline);
        return refused(failure.code, failure.message);
      }
      const capability = capabilityOf(method);
      // The table is checked by the compiler; this is the guard for a method added without a class.
      if (!capability)
        return refused('bridge.no_capability', `${method} has no capability class, so the app will not run it.`);
      // Locked means nothing is signed or sent: refuse before any dialog asks the user about it.
      if ((capability === 'trade' || capability === 'moves-value') && vault.isLocked()) {
        return refused('vault.locked', 'The app is locked: unlock it first. Nothing was signed or sent.');
      }
      const signs = capability === 'trade' || capability === 'moves-value';
      if (signs && signing.isClosed()) {
        const failure = restartingRefusal();
        return refused(failure.code, failure.message);
      }
      const dispatch = (): Promise<BridgeOutcome> =>
        signs
          ? signing.run(() => dispatchBridgeCall(handlers, method, args, onInternalError))
          : dispatchBridgeCall(handlers, method, args, onInternalError);
      if (!needsMainDialog(capability)) return dispatch();
      // Value and trust: one dialog at a time, and a record of every request and its outcome (never its arguments).
      if (dialogs.isOpen()) {
        const busy = dialogBusy();
        logger.info('bridge.guarded', { method, capability, outcome: busy.code });
        return refused(busy.code, busy.message);
      }
      const outcome = await dispatch();
      logger.info('bridge.guarded', {
        method,
        capability,
        outcome: outcome.ok ? (isDeclined(outcome.value) ? 'declined' : 'done') : outcome.error.code,
      });
      return outcome;
    },
    on: (event, listener) => events.on(event, listener),
    noteUserInput: (input) => {
      vault.touch();
      if (input) ctx.presence.note(input);
      // Only a press renews the gate's figures at once; moves keep the renewal going.
      const press = input !== undefined && isPress(input);
      trading.personActive(press);
      // Then the gate rehearses its last order on them, for the order this press may trigger.
      if (press) orderGate.rehearse();
    },
    cameraWanted: () => qr.cameraOpen(),
    isOffline: () => ctx.offline() !== 'off',
    windowGone: () => trading.windowGone(),
    dispose: () => {
      for (const off of unsubscribe) off();
      workingOrders.dispose();
      trading.dispose();
      ctx.dayRecords.flush();
      updates.dispose();
      cancelWarmUp?.();
      void kitChecks.close();
      events.clear();
    },
  };
}
