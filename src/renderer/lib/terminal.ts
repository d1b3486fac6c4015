/**
 * The window's live state: one store per bridge view, filled by an initial load and kept
 * current by bridge events. Components read the stores and act through `call`, which turns
 * a failure into a notice carrying the core's sentence.
 */
import { get, writable } from 'svelte/store';
import type {
  AccountView,
  AgentStatusView,
  BridgeArgs,
  BridgeMethod,
  BridgeResult,
  ClaimableEpoch,
  ConnectionView,
  KeyInfo,
  LockStatus,
  MarketSummary,
  OrderHistoryEntry,
  WatchOnlyView,
} from '../../shared/bridge';
import type { Settings } from '../../shared/settings-schema';
import { BridgeCallError, type BridgeClient } from './bridge';
import { marketLabel } from './format';
import { fillText, resolutionText } from './notice-text';
import { pushNotice, setNoticesPractice } from './notices';
import { perFrame } from './frame-batch';
import { ownOrders } from './own-orders';
import type { SectionId } from './sections';
import { followUpdates } from './updates';
import { followWorkingOrders } from './working-list';

export const connectionView = writable<ConnectionView | null>(null);
export const settings = writable<Settings | null>(null);
export const markets = writable<MarketSummary[]>([]);
export const account = writable<AccountView | null>(null);
export const keys = writable<KeyInfo[]>([]);
/** Accounts watched by address alone: no key here, so the master signs elsewhere (docs/airgap.md). */
export const watchOnly = writable<WatchOnlyView[]>([]);
export const lock = writable<LockStatus | null>(null);
export const agentStatus = writable<AgentStatusView | null>(null);
export const claims = writable<ClaimableEpoch[]>([]);
/** Orders sent this session and their outcomes, newest first (bounded in main). */
export const orderHistory = writable<OrderHistoryEntry[]>([]);
/** The section the app should show next (a link such as "Go to Funds"); App follows and clears it. */
export const requestedSection = writable<SectionId | null>(null);
/** The asset id shown on the trade screen; its current epoch follows the market list. */
export const selectedAsset = writable<string | null>(null);
/** Local wall clock in ms, ticking every second, for feed ages (countdowns read exchange-time.ts). */
export const now = writable(Date.now());

let client: BridgeClient | null = null;

export function bridgeClient(): BridgeClient | null {
  return client;
}

/** The message of any failure: the core's sentence when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof BridgeCallError || error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** Calls the core; on failure shows its sentence as a notice and returns null. */
export async function call<M extends BridgeMethod>(method: M, ...args: BridgeArgs<M>): Promise<BridgeResult<M> | null> {
  if (!client) {
    pushNotice('error', 'Not connected to the app.');
    return null;
  }
  try {
    return await client.call(method, ...args);
  } catch (error) {
    pushNotice('error', errorMessage(error));
    return null;
  }
}

/** Why a background load failed, by method: screens show the core's sentence in place of data. */
export const loadErrors = writable<Partial<Record<BridgeMethod, string>>>({});

/** Like call, but records a failure for the screen instead of raising a notice (background loads). */
export async function quietly<M extends BridgeMethod>(
  method: M,
  ...args: BridgeArgs<M>
): Promise<BridgeResult<M> | null> {
  try {
    const value = client ? await client.call(method, ...args) : null;
    loadErrors.update((e) => (e[method] === undefined ? e : { ...e, [method]: undefined }));
    return value;
  } catch (error) {
    loadErrors.update((e) => ({ ...e, [method]: errorMessage(error) }));
    return null;
  }
}

/** "BTC 1m #3" for a market of the list (the asset id's start when it is not listed). */
export function marketName(assetId: string, epoch: string): string {
  return marketLabel(get(markets), assetId, epoch);
}

/** Each figure is shown as soon as it arrives: a slow read (claims walk past epochs) never holds back the balance. */
export async function refreshAccount(): Promise<void> {
  await Promise.all([
    quietly('account.get').then((view) => view && account.set(view)),
    quietly('agents.status').then((agent) => agentStatus.set(agent)),
    quietly('claims.list').then((claimable) => claimable && claims.set(claimable)),
    quietly('orders.history').then((history) => history && orderHistory.set(history)),
  ]);
}

/** True once the key list has been read (a first launch shows its next steps only then). */
export const keysLoaded = writable(false);

export async function refreshKeys(): Promise<void> {
  const list = await quietly('keys.list');
  if (list) {
    keys.set(list);
    keysLoaded.set(true);
  }
  await refreshWatchOnly();
}

export async function refreshWatchOnly(): Promise<void> {
  const list = await quietly('airgap.watchList');
  if (list) watchOnly.set(list);
}

/** Whether an address is watched without its key here. */
export function isWatchOnly(address: string | null | undefined): boolean {
  return !!address && get(watchOnly).some((w) => w.address.toLowerCase() === address.toLowerCase());
}

/** Saves one part of the settings; the core answers with the whole validated object. */
export async function updateSettings(patch: Record<string, unknown>): Promise<boolean> {
  const next = await call('settings.update', patch);
  if (next) settings.set(next);
  return next !== null;
}

export function selectAsset(assetId: string): void {
  selectedAsset.set(assetId);
  const current = get(settings);
  if (current && current.layout.selectedMarket !== assetId) {
    void updateSettings({ layout: { ...current.layout, selectedMarket: assetId } });
  }
}

/** Whether the user wants this kind of notice (settings not read yet: the defaults, which notify). */
function notifies(kind: 'fills' | 'resolutions'): boolean {
  return get(settings)?.notifications[kind] ?? true;
}

/** Loads every view and subscribes to every event. Returns the unsubscriber. */
export function startTerminal(bridge: BridgeClient): () => void {
  client = bridge;
  let deploymentId: string | null | undefined;
  const offs = [
    bridge.on('connection', (v) => {
      setNoticesPractice(v.practice);
      connectionView.set(v);
      // Another deployment (entering or leaving practice, too): what was read of the last one goes.
      if (deploymentId !== undefined && v.deploymentId !== deploymentId) void refreshAccount();
      deploymentId = v.deploymentId;
    }),
    bridge.on('settings', (v) => settings.set(v)),
    // Market data: applied once per frame (lib/frame-batch.ts), the latest list wins.
    bridge.on('markets', (v) => perFrame.put('markets', () => markets.set(v))),
    bridge.on('account', (v) => {
      account.set(v);
      ownOrders.account(v);
    }),
    bridge.on('keys', (v) => {
      keys.set(v);
      void refreshWatchOnly();
    }),
    bridge.on('lock', (v) => {
      lock.set(v);
      if (!v.locked) void refreshAccount();
    }),
    // One notice per event. Fills of resting orders and resolutions are worded here from their
    // events, as the user's notification settings allow; a taker fill is told by its order's result.
    bridge.on('notice', (n) => pushNotice(n.level, n.message)),
    bridge.on('fill', (f) => {
      if (f.liquidity === 'maker' && notifies('fills')) pushNotice('info', fillText(f, marketName(f.assetId, f.epoch)));
    }),
    bridge.on('resolution', (r) => {
      if (notifies('resolutions')) pushNotice('info', resolutionText(r, marketName(r.assetId, r.epoch)));
      void quietly('claims.list').then((c) => c && claims.set(c));
    }),
    // Main tells the exchange's answer to an order the moment it has it: the order's echo settles now.
    bridge.on('orderAnswered', (entry) => ownOrders.answered([entry])),
    bridge.on('orderHistory', (h) => {
      ownOrders.answered(h);
      orderHistory.set(h);
    }),
    followUpdates(bridge, pushNotice),
    // Working orders run in main; the window draws and lists them (lib/working-orders.ts).
    followWorkingOrders(bridge),
  ];
  // The clock also rolls markets: once an epoch has expired, ask for the list again (at most
  // every few seconds) in case the core's own refresh has not arrived yet.
  let lastRoll = 0;
  const timer = setInterval(() => {
    const t = Date.now();
    now.set(t);
    const exchangeMs = t + (get(connectionView)?.clockOffsetMs ?? 0);
    if (t - lastRoll > 5000 && get(markets).some((m) => m.expiration < exchangeMs - 1000)) {
      lastRoll = t;
      void quietly('markets.list').then((list) => list && markets.set(list));
    }
  }, 1000);

  // Each answer is shown as it comes, not when the slowest has come: the Trade screen subscribes its
  // book as soon as the market list and the saved selection (settings) are both in.
  const prefs = quietly('settings.get').then((p) => {
    if (p) {
      settings.set(p);
      if (p.layout.selectedMarket) selectedAsset.set(p.layout.selectedMarket);
    }
  });
  const list = quietly('markets.list');
  void Promise.all([
    quietly('app.connection').then((conn) => {
      if (!conn) return;
      setNoticesPractice(conn.practice);
      connectionView.set(conn);
      deploymentId ??= conn.deploymentId;
    }),
    quietly('lock.status').then((lockState) => lockState && lock.set(lockState)),
    Promise.all([prefs, list]).then(([, l]) => l && markets.set(l)),
  ]).then(() => Promise.all([refreshKeys(), refreshAccount()]));

  return () => {
    for (const off of offs) off();
    clearInterval(timer);
    client = null;
  };
}

/** The theme in force (settings.theme once loaded); canvas components repaint when it changes. */
export const themeName = writable<'dark' | 'light'>('dark');
