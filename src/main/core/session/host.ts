/**
 * Keeps one TradingSession for the selected deployment: starts it with the core, replaces it when
 * the selected deployment (or its URLs) change, and carries the account selection across.
 */
import type { AccountSelection, FeedHealth } from '../../../shared/bridge';
import { isConfirmed, selectedDeployment, type Deployment, type DomainFacts, type Settings } from '../../settings';
import { BridgeFailure, unavailable } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { connectionView, exchangeClockOf } from '../handlers/app';
import { offlineRefusal } from '../offline-mode';
import { AutoClaimer } from './auto-claim';
import { claimOne } from './claim-actions';
import type { MarketDirectory, MarketEntry } from './market-directory';
import { OracleHistory } from './oracle-history';
import { LedgerRunner } from '../risk/ledger-runner';
import { parseLimits } from '../risk/limits';
import { statusOf } from '../risk/budget-status';
import { TradingSession } from './session';
import { isPractice } from '../practice/practice-domain';
import type { DeploymentFacts } from './signers';
import type { DayRecordsPort } from './day-records';

export interface TradingOptions {
  /** Asset ids per deployment (the API cannot list them). */
  markets: MarketDirectory;
  pollMs?: number;
  healthMs?: number;
  balancePollMs?: number;
  /** How long a deposit waits for the exchange to credit it, ms (default 120 s). */
  creditTimeoutMs?: number;
  /** The built-in devnet's facts as its launcher wrote them (devnet.json): it is pinned with these. */
  attestedFacts?: (deployment: Deployment) => DomainFacts | null;
}

export interface TradingHost {
  readonly options: TradingOptions;
  /** The running session, or a coded failure saying there is none. */
  session(): TradingSession;
  /** The session once its first connect attempt finished (tests, harness). */
  connected(): Promise<TradingSession>;
  selection(): AccountSelection;
  /** What the running session read of the exchange (contracts, chain), or null with no session or before it connects. */
  facts(): DeploymentFacts | null;
  feeds(): FeedHealth[];
  clockOffsetMs(): number | null;
  /** The offset's uncertainty (ms), null before the first sample or without a session. */
  clockUncertaintyMs(): number | null;
  /** The window's page went away: the book streams it opened close (no page is left to close them). */
  windowGone(): void;
  /** Main saw the person's input at the window (never a bridge call): see TradingSession.personActive. */
  personActive(press: boolean): void;
  dispose(): void;
}

const NO_SELECTION: AccountSelection = { master: null, agent: null, tradeAs: 'master' };

/**
 * What a session is made for: a change of it starts another. The market list is not part of it: an
 * edit of the list (reordered, renamed, added to, cut) is applied to the running session in place
 * (TradingSession.setListed), so it neither reconnects nor opens a spell with no fair value to check
 * orders against.
 */
function sessionKey(ctx: CoreContext, s: Settings, offline: boolean): string {
  const deployment = selectedDeployment(s) ?? null;
  // Practice connects only while its worker answers at the URLs written (practice-mode.ts).
  const live = deployment ? (ctx.practice?.live(deployment) ?? !isPractice(deployment)) : false;
  const { markets: _markets, ...made } = deployment ?? {};
  return JSON.stringify([deployment ? made : null, offline, live]);
}

const listKey = (markets: readonly MarketEntry[]): string =>
  JSON.stringify(markets.map((m) => [m.assetId.toString(), m.symbol]));

/** The first practice master key: what practice trades with until the person picks another. */
function practiceSelection(ctx: CoreContext): AccountSelection {
  const key = ctx.vault.list().find((k) => k.practice === true && k.role === 'master');
  return key ? { master: key.address, agent: null, tradeAs: 'master' } : NO_SELECTION;
}

export function createTradingHost(ctx: CoreContext, options: TradingOptions): TradingHost {
  let current: TradingSession | null = null;
  /** The running session's records of the day; closed (written) with it. */
  let currentDay: (DayRecordsPort & { close(): void }) | null = null;
  let unconfirmed: Deployment | null = null;
  let selection = NO_SELECTION;
  /** The deployment the carried selection was made on: a practice selection never crosses to a real one, nor back. */
  let selectedOn: Deployment | null = null;
  let waitingForPractice = false;
  /** The last budget pushed to the window (the `risk` event), as JSON. */
  let lastRisk = '';
  /**
   * Oracle prices per deployment, kept across the sessions started for it: restarting a session (an
   * edited market list) keeps its fair values. A few deployments at most, the oldest dropped first.
   */
  const oracleHistories = new Map<string, OracleHistory>();
  const oracleHistoryOf = (deployment: Deployment): OracleHistory => {
    // The same deployment's same oracle: new URLs may be another oracle, whose prices are not these.
    const key = `${deployment.id}|${deployment.oracleWsUrl}`;
    let h = oracleHistories.get(key);
    if (!h) {
      h = new OracleHistory();
      oracleHistories.set(key, h);
      for (const id of [...oracleHistories.keys()].slice(0, -4)) oracleHistories.delete(id);
    }
    return h;
  };

  const host: TradingHost = {
    options,
    session: () => {
      const offline = ctx.offline();
      if (offline !== 'off') throw offlineRefusal(offline, 'trading needs the exchange');
      if (!current && unconfirmed) {
        throw new BridgeFailure(
          'deployments.unconfirmed',
          `${unconfirmed.name} was saved without your confirmation, so the app has not contacted it: confirm it in Settings → Deployments first.`,
        );
      }
      if (!current && waitingForPractice)
        throw new BridgeFailure(
          'practice.starting',
          'Practice is starting its exchange on this computer: it answers in a moment.',
        );
      if (!current)
        throw new BridgeFailure(
          'connection.no_deployment',
          'No exchange deployment is selected, so there is nothing to trade on.',
        );
      return current;
    },
    connected: async () => {
      const s = host.session();
      await s.whenConnected();
      return s;
    },
    selection: () => current?.desk.selection ?? selection,
    facts: () => current?.signers.facts ?? null,
    feeds: () => (current ? current.health.feedHealth() : []),
    clockOffsetMs: () => current?.health.clockOffsetMs() ?? null,
    clockUncertaintyMs: () => current?.health.clockUncertaintyMs() ?? null,
    // Kept in step a while (parked): the next page asks for the same book at once, and gets it at once.
    windowGone: () => current?.board.books.closeAll(true),
    personActive: (press) => current?.personActive(press),
    dispose: () => {
      off();
      current?.stop();
      currentDay?.close();
      current = null;
      currentDay = null;
    },
  };

  const emitConnection = (): void =>
    ctx.events.emit(
      'connection',
      connectionView(ctx, () => host.feeds(), exchangeClockOf(host)),
    );

  const start = (): void => {
    if (current) selection = current.desk.selection;
    current?.stop();
    currentDay?.close();
    current = null;
    currentDay = null;
    waitingForPractice = false;
    // Offline mode: no session, so nothing connects (offline-mode.ts).
    if (ctx.offline() !== 'off') return;
    const deployment = selectedDeployment(ctx.settings.getSettings());
    unconfirmed = deployment && !isConfirmed(deployment) ? deployment : null;
    // A deployment nobody confirmed in main's dialog is never contacted (see deployments.select).
    if (!deployment || unconfirmed) return;
    // Keys stay in their world: crossing between practice and a real deployment starts with practice's
    // own key or with no account, never with the other world's.
    if (selectedOn && isPractice(selectedOn) !== isPractice(deployment)) selection = NO_SELECTION;
    if (isPractice(deployment) && selection.master === null) selection = practiceSelection(ctx);
    selectedOn = deployment;
    if (isPractice(deployment) && !(ctx.practice?.live(deployment) ?? false)) {
      waitingForPractice = true;
      return;
    }
    const autoClaim = new AutoClaimer({
      enabled: () =>
        ctx.settings.getSettings().autoClaim && current === session && session.desk.selection.master !== null,
      claimable: async (assetId, epoch) => {
        const master = session.desk.selection.master;
        return master ? (await session.reader.getClaimable(assetId, epoch, master as `0x${string}`)).claimable : 0n;
      },
      claim: (assetId, epoch) => claimOne(session, assetId, epoch),
      notify: (level, message) => {
        if (current === session) ctx.events.emit('notice', { level, message: message.slice(0, 500) });
      },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const dayRecords = ctx.dayRecords.port(deployment);
    const session: TradingSession = new TradingSession({
      deployment,
      dayRecords,
      markets: options.markets(deployment),
      vault: ctx.vault,
      clearances: ctx.clearances,
      pinning: ctx.pinning,
      events: ctx.events,
      logger: ctx.logger.child({ scope: 'session' }),
      selection,
      oracleHistory: oracleHistoryOf(deployment),
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(options.healthMs === undefined ? {} : { healthMs: options.healthMs }),
      ...(options.balancePollMs === undefined ? {} : { balancePollMs: options.balancePollMs }),
      ...(options.attestedFacts ? { attestedFacts: options.attestedFacts } : {}),
      onConnectionChange: () => {
        if (current === session) emitConnection();
      },
      onResolved: (assetId, epoch) => void autoClaim.onResolved(assetId, epoch),
      onRiskInputs: () => ledger.look(),
      pendingOrders: (account) => ctx.reservations.count(account),
      tradedHere: (account) => ctx.lossBudget.peek(account)?.traded === true,
      notify: (level, message) => {
        if (current !== session) return;
        ctx.events.emit('notice', { level, message: message.slice(0, 500) });
      },
    });
    // The risk ledger acts between orders on this session's account (risk/ledger-runner.ts).
    const ledger = new LedgerRunner(
      {
        budget: ctx.lossBudget,
        reservations: ctx.reservations,
        limits: () => ctx.settings.read((s) => parseLimits(s.riskLimits)),
        notify: (level, message) => {
          if (current === session) ctx.events.emit('notice', { level, message: message.slice(0, 500) });
        },
        logger: ctx.logger.child({ scope: 'risk' }),
        looked: () => {
          if (current !== session) return;
          // One figure on screen, main's own, pushed when it changes (not read by the window now and then).
          const status = statusOf(ctx, session);
          const json = JSON.stringify(status);
          if (json === lastRisk) return;
          lastRisk = json;
          ctx.events.emit('risk', status);
        },
      },
      session,
    );
    current = session;
    currentDay = dayRecords;
    session.ready.catch((error: unknown) =>
      ctx.logger.error('session.connect_failed', {
        message: error instanceof Error ? error.message : 'non-error thrown',
      }),
    );
  };

  const isOffline = (): boolean => ctx.offline() !== 'off';
  let key = sessionKey(ctx, ctx.settings.getSettings(), isOffline());
  const restartIfChanged = (): void => {
    const settings = ctx.settings.getSettings();
    const nextKey = sessionKey(ctx, settings, isOffline());
    if (nextKey === key) {
      // The same deployment: only its market list may have changed, applied in place.
      const deployment = selectedDeployment(settings);
      if (current && deployment) {
        const listed = options.markets(deployment);
        if (listKey(listed) !== listKey(current.markets)) current.setListed(listed);
      }
      return;
    }
    key = nextKey;
    start();
    emitConnection();
  };
  const offSettings = ctx.settings.onChange(restartIfChanged);
  const offPractice = ctx.practice?.host.onChange(restartIfChanged) ?? (() => {});
  const off = (): void => {
    offSettings();
    offPractice();
  };
  start();
  return host;
}

/** The host of a core built without an exchange connection: every trading method says so. */
export function disabledTradingHost(): TradingHost {
  const failure = () =>
    unavailable('Trading is not available: this app core was started without an exchange connection.');
  const fail = (): never => {
    throw failure();
  };
  return {
    options: { markets: () => [] },
    session: fail,
    connected: () => Promise.reject(failure()),
    selection: () => NO_SELECTION,
    facts: () => null,
    feeds: () => [],
    clockOffsetMs: () => null,
    clockUncertaintyMs: () => null,
    windowGone: () => {},
    personActive: () => {},
    dispose: () => {},
  };
}
