/**
 * The texts of main's dialogs for deployments and markets, rendered from typed facts in the style
 * of confirm-text.ts: one labelled line per fact, addresses in full and checksummed, the user's own
 * text (a deployment name, a market symbol) and the exchange's text (its domain name) quoted and
 * labelled as such.
 */
import type { Deployment, DomainFacts } from '../../settings';
import type { DeploymentDraft } from '../../settings/endpoint-rules';
import { endpointHosts } from '../../settings/endpoint-rules';
import { exchangeText, fullAddress, userText } from '../dialogs/confirm-text';
import type { ConfirmRequest } from '../dialogs/dialogs';
import type { InspectedMarket } from '../markets/market-inspector';

const TRUST_NOTE = 'This changes what the app trusts. Confirm only if you asked for it.';

function endpointLines(d: Pick<DeploymentDraft, 'httpUrl' | 'marketWsUrl' | 'oracleWsUrl' | 'rpcUrl'>): string[] {
  return [
    `Exchange API: ${d.httpUrl}`,
    `Market feed: ${d.marketWsUrl}`,
    `Oracle feed: ${d.oracleWsUrl}`,
    `Chain RPC: ${d.rpcUrl}`,
  ];
}

function hostList(d: Pick<DeploymentDraft, 'httpUrl' | 'marketWsUrl' | 'oracleWsUrl' | 'rpcUrl'>): string {
  return endpointHosts(d).join(', ');
}

const addressOrNone = (a: string | null | undefined): string => (a ? fullAddress(a) : 'none published');

/** Every pinned fact, one line each: what signatures are made under and where deposits go. */
export function factLines(facts: DomainFacts): string[] {
  return [
    `Chain id: ${facts.chainId}`,
    `Verifying contract (exchange): ${fullAddress(facts.verifyingContract)}`,
    `Domain name: ${exchangeText(facts.domainName)}`,
    `Deposit ledger (receives deposits): ${addressOrNone(facts.spenders?.depositLedger)}`,
    `Settlement token (approved for deposits): ${addressOrNone(facts.spenders?.settlementToken)}`,
    `Permit2 (spends the token in permit deposits): ${addressOrNone(facts.spenders?.permit2)}`,
  ];
}

/** Step one of adding or editing: may the app contact these hosts at all? Nothing is fetched before yes. */
export function contactRequest(draft: DeploymentDraft, editing: Deployment | null): ConfirmRequest {
  const lines = [
    `Action: ${editing ? 'Change the addresses of an exchange deployment' : 'Connect to a new exchange deployment'}`,
    `Deployment: ${userText(draft.name)}`,
    `Hosts the app will contact: ${hostList(draft)}`,
    ...endpointLines(draft),
    `Chain id: ${draft.chainId}`,
  ];
  if (editing) lines.push('', `Before: ${hostList(editing)}, chain id ${editing.chainId}`);
  return {
    title: editing ? 'Change exchange addresses' : 'Connect to an exchange',
    message: `Let the app contact ${hostList(draft)} for chain ${draft.chainId}?`,
    detail: [
      ...lines,
      '',
      "Nothing is saved yet. Next the app reads the exchange's chain configuration and signing domain and shows them to you before anything is trusted.",
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Contact these hosts',
  };
}

/** Before the connect form's discovery: may the app contact the exchange and chain node the user typed? */
export function discoveryRequest(
  endpoints: Pick<DeploymentDraft, 'httpUrl' | 'marketWsUrl' | 'oracleWsUrl' | 'rpcUrl'>,
): ConfirmRequest {
  return {
    title: 'Look up an exchange',
    message: `Let the app contact ${hostList(endpoints)} to read how this exchange is set up?`,
    detail: [
      'Action: Read the setup of an exchange from its own answers',
      `Hosts the app will contact: ${hostList(endpoints)}`,
      ...endpointLines(endpoints),
      '',
      "Nothing is saved or trusted yet. The app reads the chain id from the node, the exchange's configuration and signing domain for that chain, and tries the two feed addresses; you see what was found before connecting.",
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Contact these hosts',
  };
}

/** Trust on first use: the facts read from the server, before anything is pinned or signed. */
export function firstPinRequest(name: string, host: string, facts: DomainFacts): ConfirmRequest {
  return {
    title: 'Trust this exchange',
    message: `Sign for this exchange on chain ${facts.chainId}, and send deposits only to the contracts listed?`,
    detail: [
      'Action: Pin the signing domain and token contracts of a deployment (first use)',
      `Deployment: ${userText(name)}`,
      `Host: ${host}`,
      ...factLines(facts),
      '',
      'Every signature from now on is valid only for this chain, contract and domain name, and deposits go only to these addresses. A later change stops signing until you accept it. Compare these lines with what the operator publishes.',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Trust and pin',
  };
}

/** A pinned deployment answers with other facts: old and new, line by line. */
export function changedPinRequest(name: string, pinned: DomainFacts, observed: DomainFacts): ConfirmRequest {
  const before = factLines(pinned);
  const after = factLines(observed);
  const lines = after.map((line, i) =>
    line === before[i] ? `${line} (unchanged)` : `${line}\n  was ${before[i]!.replace(/^[^:]+: /, '')}`,
  );
  return {
    title: 'Signing domain changed',
    message: 'The exchange now names a different signing domain or token contracts. Accept the new ones?',
    detail: [
      'Action: Replace the pinned signing domain and token contracts',
      `Deployment: ${userText(name)}`,
      ...lines,
      '',
      'Accept only if the operator announced this change. Everything you sign from now on will be valid only for the new domain, and deposits go to the new addresses.',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Accept the new domain',
  };
}

export function selectRequest(d: Deployment, pinned: DomainFacts | null, unconfirmed = false): ConfirmRequest {
  return {
    title: unconfirmed ? 'Confirm exchange' : 'Switch exchange',
    message: `${unconfirmed ? 'Let the app contact' : 'Trade on'} this deployment (chain ${d.chainId}, ${hostList(d)})?`,
    detail: [
      unconfirmed
        ? 'Action: Confirm a deployment saved without your confirmation (by an older version): the app has not contacted it yet'
        : 'Action: Select the deployment the app connects to, trades on and signs for',
      `Deployment: ${userText(d.name)}`,
      `Hosts: ${hostList(d)}`,
      ...endpointLines(d),
      `Chain id: ${d.chainId}`,
      ...(pinned ? factLines(pinned).slice(1) : ['Signing domain: not pinned yet (you will be asked once it answers)']),
      '',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Switch',
  };
}

export function removeRequest(d: Deployment): ConfirmRequest {
  return {
    title: 'Remove deployment',
    message: 'Remove this deployment and forget its pinned signing domain?',
    detail: [
      'Action: Remove a deployment',
      `Deployment: ${userText(d.name)}`,
      `Hosts: ${hostList(d)}`,
      `Chain id: ${d.chainId}`,
      '',
      'Your keys and your funds at the exchange are not affected. Adding it again asks you to confirm its signing domain again.',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Remove',
  };
}

export function editNameRequest(d: Deployment, name: string): ConfirmRequest {
  return {
    title: 'Rename deployment',
    message: 'Rename this deployment?',
    detail: [
      'Action: Rename a deployment (its addresses and pin stay)',
      `Now: ${userText(d.name)}`,
      `After: ${userText(name)}`,
      `Hosts: ${hostList(d)}`,
      '',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Rename',
  };
}

function marketLines(m: InspectedMarket): string[] {
  return [
    `Asset id: ${m.assetId}`,
    `Symbol id (oracle feed): ${m.symbolId}`,
    `Market: ${m.marketType === '1' ? 'up/down' : `type ${m.marketType}`}, every ${m.timeframe}, from ${new Date(m.startTime * 1000).toISOString()}`,
    `Strike in the id: ${m.strike}`,
    `Registered at the exchange: ${m.registered ? 'yes' : 'no'}`,
    `Oracle price for the symbol: ${m.oracle.kind === 'price' ? 'yes' : 'none seen'}`,
  ];
}

export function addMarketRequest(d: Deployment, symbol: string, m: InspectedMarket): ConfirmRequest {
  return {
    title: 'Add market',
    message: `Add this ${m.timeframe} market to the list, under the name you gave it?`,
    detail: [
      'Action: Add a market to a deployment',
      `Deployment: ${userText(d.name)}`,
      `Name: ${userText(symbol)}`,
      ...marketLines(m),
      '',
      'The name is yours: the exchange does not name markets. Orders you send to this market are for exactly this asset id.',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Add market',
  };
}

export function renameMarketRequest(d: Deployment, assetId: string, from: string, to: string): ConfirmRequest {
  return {
    title: 'Rename market',
    message: 'Rename this market?',
    detail: [
      'Action: Rename a market',
      `Deployment: ${userText(d.name)}`,
      `Asset id: ${assetId}`,
      `Now: ${userText(from)}`,
      `After: ${userText(to)}`,
      '',
      TRUST_NOTE,
    ].join('\n'),
    confirmLabel: 'Rename',
  };
}
