/**
 * deployments.*: the only way the window can change which exchange main talks to and what it
 * trusts there. Adding or re-pointing a deployment takes two answers in main's dialogs: first "may
 * the app contact these hosts" (nothing is fetched before), then "trust these facts" (chain id,
 * exchange contract, domain name, token contracts read from the server and held to the configured
 * chain id). Selecting, removing, renaming and accepting a changed pin each take one.
 */
import type { ConfiguredMarket } from '../../../shared/bridge';
import { ExchangeClient } from '../../../client';
import {
  describePinChange,
  factsOf,
  isConfirmed,
  NO_DEPLOYMENT,
  pinStateOf,
  selectedDeployment,
  type Deployment,
  type DomainFacts,
  type Settings,
} from '../../settings';
import {
  checkDeploymentDraft,
  checkEndpoint,
  deploymentIdFor,
  type DeploymentDraft,
} from '../../settings/endpoint-rules';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { discoverDeployment, feedCandidates } from './deployment-discovery';
import { decodeAssetId } from '../markets/asset-decoder';
import { inspectMarket, type InspectOptions } from '../markets/market-inspector';
import { checkRpcChain, readDeploymentFacts, unreachable } from '../session/deployment-facts';
import {
  addMarketRequest,
  changedPinRequest,
  contactRequest,
  discoveryRequest,
  editNameRequest,
  firstPinRequest,
  removeRequest,
  renameMarketRequest,
  selectRequest,
} from './deployment-dialogs';

export interface DeploymentsOptions extends InspectOptions {
  /** Timeout of each read while adding a deployment, ms (default 10 s). */
  readTimeoutMs?: number;
}

const MAX_MARKETS = 200;
/** How long a discovery's "may I contact these hosts" also covers connecting with the same addresses. */
const DISCOVERY_KEPT_MS = 10 * 60_000;
/** As the settings schema allows. */
const MAX_DEPLOYMENTS = 50;

function hostOf(url: string): string {
  return new URL(url).host;
}

function sameFacts(a: DomainFacts, b: DomainFacts): boolean {
  return describePinChange(a, b) === '';
}

function endpointsOf(d: DeploymentDraft): string {
  return JSON.stringify([d.httpUrl, d.marketWsUrl, d.oracleWsUrl, d.rpcUrl, d.chainId]);
}

export function deploymentsHandlers(ctx: CoreContext, options: DeploymentsOptions = {}): AreaHandlers<'deployments'> {
  const { settings, pinning, dialogs } = ctx;
  const timeoutMs = options.readTimeoutMs ?? 10_000;

  const find = (id: string, current: Settings = settings.getSettings()): Deployment => {
    const d = current.deployments.find((x) => x.id === id);
    if (!d)
      throw new BridgeFailure('deployments.unknown', 'That deployment does not exist (it may have been removed).');
    return d;
  };

  const notBuiltIn = (d: Deployment, what: string): void => {
    if (d.builtIn === 'devnet')
      throw new BridgeFailure(
        'deployments.built_in',
        `The built-in devnet follows the devnet the app was started with: its ${what} cannot be changed here.`,
      );
    if (d.builtIn === 'practice')
      throw new BridgeFailure(
        'deployments.built_in',
        `Practice runs on this computer and main keeps its ${what}: Reset practice starts it over.`,
      );
  };

  const replace = (id: string, next: Deployment): Settings => {
    const current = settings.getSettings();
    return settings.updateSettings({ deployments: current.deployments.map((d) => (d.id === id ? next : d)) });
  };

  /** Reads what the server says about itself and holds it to the configured chain id (exchange and RPC). */
  const observe = async (draft: DeploymentDraft): Promise<DomainFacts> => {
    const reader = new ExchangeClient({ baseUrl: draft.httpUrl, timeoutMs });
    try {
      const observed = await readDeploymentFacts(reader, draft.httpUrl, draft.chainId);
      await checkRpcChain(draft.rpcUrl, draft.chainId, timeoutMs);
      return observed.facts;
    } catch (error) {
      throw unreachable(draft.httpUrl, error);
    } finally {
      reader.http.close();
    }
  };

  const stamp = (): string => new Date(ctx.now()).toISOString();
  /** Endpoints the user let the app contact for a discovery, and when (a connect with them soon after is not asked again). */
  const discovered = new Map<string, number>();
  let inspecting = false;

  const marketsOf = (d: Deployment): ConfiguredMarket[] =>
    (d.markets ?? []).map((m) => ({ assetId: m.assetId, symbol: m.symbol }));

  /** Market checks contact the deployment: only one the user confirmed. */
  const contactable = (id: string): Deployment => {
    const d = find(id);
    if (!isConfirmed(d)) {
      throw new BridgeFailure(
        'deployments.unconfirmed',
        `${d.name} was saved without your confirmation, so the app does not contact it: confirm it in Settings → Deployments first.`,
      );
    }
    return d;
  };

  const editableMarkets = (id: string): Deployment => {
    const d = contactable(id);
    if (d.builtIn !== undefined)
      throw new BridgeFailure(
        'deployments.built_in',
        `${d.builtIn === 'practice' ? 'Practice' : 'The built-in devnet'} lists its own markets; add markets to a deployment you added.`,
      );
    return d;
  };

  return {
    'deployments.discover': async ({ httpUrl, rpcUrl }) => {
      const base = httpUrl.trim();
      const node = rpcUrl.trim();
      checkEndpoint('httpUrl', base);
      checkEndpoint('rpcUrl', node);
      const endpoints = { httpUrl: base, rpcUrl: node, ...feedCandidates(base) };
      if (!(await dialogs.confirm(discoveryRequest(endpoints)))) return { confirmed: false };
      const found = await discoverDeployment(base, node, { timeoutMs });
      // Connecting with exactly these addresses soon after needs no second "may I contact" (the pin still asks).
      discovered.set(endpointsOf(found.draft), ctx.now());
      return { confirmed: true, value: found };
    },

    'deployments.add': async (args) => {
      const draft = checkDeploymentDraft(args);
      const current = settings.getSettings();
      const twin = current.deployments.find((d) => d.httpUrl === draft.httpUrl && d.chainId === draft.chainId);
      if (twin)
        throw new BridgeFailure(
          'deployments.duplicate',
          `This exchange and chain are already set up as "${twin.name}".`,
        );
      if (current.deployments.length >= MAX_DEPLOYMENTS)
        throw new BridgeFailure(
          'deployments.too_many',
          `The app keeps at most ${MAX_DEPLOYMENTS} deployments: remove one first.`,
        );
      const askedAt = discovered.get(endpointsOf(draft));
      const justAsked = askedAt !== undefined && ctx.now() - askedAt < DISCOVERY_KEPT_MS;
      if (!justAsked && !(await dialogs.confirm(contactRequest(draft, null)))) return { confirmed: false };
      const facts = await observe(draft);
      if (!(await dialogs.confirm(firstPinRequest(draft.name, hostOf(draft.httpUrl), facts))))
        return { confirmed: false };
      const latest = settings.getSettings();
      const id = deploymentIdFor(draft.name, new Set(latest.deployments.map((d) => d.id)));
      // Pin first, so the session that starts for the new selection finds its facts already trusted.
      pinning.acceptPin(id, facts);
      settings.updateSettings({
        deployments: [...latest.deployments, { id, ...draft, confirmedAt: stamp() }],
        selectedDeploymentId: id,
      });
      ctx.logger.info('deployments.added', { id, host: hostOf(draft.httpUrl), chainId: draft.chainId });
      return { confirmed: true, value: { deploymentId: id } };
    },

    'deployments.edit': async ({ id, ...args }) => {
      const existing = find(id);
      notBuiltIn(existing, 'addresses and name');
      const draft = checkDeploymentDraft(args);
      if (endpointsOf(draft) === endpointsOf(existing)) {
        if (draft.name === existing.name) return { confirmed: true, value: { deploymentId: id } };
        if (!(await dialogs.confirm(editNameRequest(existing, draft.name)))) return { confirmed: false };
        replace(id, { ...find(id), name: draft.name });
        return { confirmed: true, value: { deploymentId: id } };
      }
      if (!(await dialogs.confirm(contactRequest(draft, existing)))) return { confirmed: false };
      const facts = await observe(draft);
      const pin = pinning.pinFor(id);
      if (!pin || !sameFacts(factsOf(pin), facts)) {
        const request = pin
          ? changedPinRequest(draft.name, factsOf(pin), facts)
          : firstPinRequest(draft.name, hostOf(draft.httpUrl), facts);
        if (!(await dialogs.confirm(request))) return { confirmed: false };
        pinning.acceptPin(id, facts);
      }
      replace(id, { ...find(id), ...draft, confirmedAt: stamp() });
      ctx.logger.info('deployments.edited', { id, host: hostOf(draft.httpUrl), chainId: draft.chainId });
      return { confirmed: true, value: { deploymentId: id } };
    },

    'deployments.select': async ({ id }) => {
      const current = settings.getSettings();
      const d = find(id, current);
      // Practice needs its exchange started first: practice.start does that (and says when it asks).
      if (d.builtIn === 'practice' && current.selectedDeploymentId !== id)
        throw new BridgeFailure(
          'deployments.practice',
          'Practice starts from its own choice: pick Practice to start it.',
        );
      const unconfirmed = !isConfirmed(d);
      // Selecting the selected one again is how a deployment saved without a dialog gets confirmed.
      if (current.selectedDeploymentId === id && !unconfirmed) return { confirmed: true, value: { deploymentId: id } };
      const pin = pinning.pinFor(id);
      if (!(await dialogs.confirm(selectRequest(d, pin ? factsOf(pin) : null, unconfirmed))))
        return { confirmed: false };
      const latest = find(id);
      if (unconfirmed) replace(id, { ...latest, confirmedAt: stamp() });
      settings.updateSettings({ selectedDeploymentId: id });
      return { confirmed: true, value: { deploymentId: id } };
    },

    'deployments.remove': async ({ id }) => {
      const d = find(id);
      notBuiltIn(d, 'entry');
      if (!(await dialogs.confirm(removeRequest(d)))) return { confirmed: false };
      const current = settings.getSettings();
      const rest = current.deployments.filter((x) => x.id !== id);
      // Removing the selected one selects none: switching to another takes its own yes.
      const selected = current.selectedDeploymentId === id ? NO_DEPLOYMENT : current.selectedDeploymentId;
      settings.updateSettings({ deployments: rest, selectedDeploymentId: selected });
      pinning.forget(id);
      return { confirmed: true, value: null };
    },

    'deployments.acceptPin': async () => {
      const current = settings.getSettings();
      const deployment = selectedDeployment(current);
      const observed = deployment ? current.pendingPinChanges[deployment.id] : undefined;
      if (!deployment || !observed) {
        throw new BridgeFailure(
          'deployments.no_pending_change',
          'The signing domain of this deployment has not changed: there is nothing to accept.',
        );
      }
      const pin = current.pins[deployment.id];
      const request = pin
        ? changedPinRequest(deployment.name, factsOf(pin), observed)
        : firstPinRequest(deployment.name, hostOf(deployment.httpUrl), observed);
      if (!(await dialogs.confirm(request))) return { confirmed: false };
      // Accept exactly what was shown, and only if it is still what is pending.
      const now = settings.getSettings().pendingPinChanges[deployment.id];
      if (!now || !sameFacts(now, observed))
        throw new BridgeFailure(
          'deployments.pin_moved',
          'The deployment changed its answer while the dialog was open; nothing was accepted. Look again.',
        );
      pinning.acceptPin(deployment.id, observed);
      return { confirmed: true, value: pinStateOf(settings.getSettings()) };
    },

    'deployments.inspectMarket': async ({ deploymentId, assetId }) => {
      // Each check opens a socket to the exchange's oracle: one at a time, however often the window asks.
      if (inspecting)
        throw new BridgeFailure(
          'markets.busy',
          'Another market check is still running: wait for its answer, then try again.',
        );
      inspecting = true;
      try {
        return await inspectMarket(contactable(deploymentId), assetId, options);
      } finally {
        inspecting = false;
      }
    },

    'deployments.addMarket': async ({ deploymentId, assetId, symbol }) => {
      const d = editableMarkets(deploymentId);
      const decoded = decodeAssetId(assetId);
      const id = decoded.assetId.toString();
      const taken = marketsOf(d).find((m) => m.assetId === id);
      if (taken)
        throw new BridgeFailure('markets.duplicate', `This market is already in the list as "${taken.symbol}".`);
      if (marketsOf(d).length >= MAX_MARKETS)
        throw new BridgeFailure('markets.too_many', `A deployment lists at most ${MAX_MARKETS} markets.`);
      const inspected = await inspectMarket(d, id, options);
      if (!inspected.registered)
        throw new BridgeFailure(
          'markets.not_registered',
          `Asset ${id} is not registered at ${hostOf(d.httpUrl)}: it was not added.`,
        );
      if (!(await dialogs.confirm(addMarketRequest(d, symbol, inspected)))) return { confirmed: false };
      const latest = editableMarkets(deploymentId);
      if (marketsOf(latest).some((m) => m.assetId === id))
        throw new BridgeFailure('markets.duplicate', 'This market was added meanwhile.');
      const markets = [...marketsOf(latest), { assetId: id, symbol }];
      replace(deploymentId, { ...latest, markets });
      return { confirmed: true, value: markets };
    },

    'deployments.renameMarket': async ({ deploymentId, assetId, symbol }) => {
      const d = editableMarkets(deploymentId);
      const market = marketsOf(d).find((m) => m.assetId === assetId);
      if (!market)
        throw new BridgeFailure('markets.unknown', `Asset ${assetId} is not in the list of this deployment.`);
      if (market.symbol === symbol) return { confirmed: true, value: marketsOf(d) };
      if (!(await dialogs.confirm(renameMarketRequest(d, assetId, market.symbol, symbol)))) return { confirmed: false };
      const latest = editableMarkets(deploymentId);
      const markets = marketsOf(latest).map((m) => (m.assetId === assetId ? { ...m, symbol } : m));
      replace(deploymentId, { ...latest, markets });
      return { confirmed: true, value: markets };
    },

    'deployments.removeMarket': ({ deploymentId, assetId }) => {
      const d = editableMarkets(deploymentId);
      const markets = marketsOf(d).filter((m) => m.assetId !== assetId);
      if (markets.length === marketsOf(d).length)
        throw new BridgeFailure('markets.unknown', `Asset ${assetId} is not in the list of this deployment.`);
      replace(deploymentId, { ...d, markets });
      return markets;
    },

    'deployments.moveMarket': ({ deploymentId, assetId, to }) => {
      const d = editableMarkets(deploymentId);
      const markets = marketsOf(d);
      const from = markets.findIndex((m) => m.assetId === assetId);
      if (from < 0)
        throw new BridgeFailure('markets.unknown', `Asset ${assetId} is not in the list of this deployment.`);
      const [moved] = markets.splice(from, 1);
      markets.splice(Math.min(to, markets.length), 0, moved!);
      replace(deploymentId, { ...d, markets });
      return markets;
    },
  };
}
