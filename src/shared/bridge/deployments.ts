/**
 * Deployments and their markets: what the window may describe. Main checks every URL (encrypted
 * transport except on loopback), asks the user in its own dialogs before it contacts a new host,
 * pins the facts it read only after a second yes, and decodes pasted asset ids itself.
 */
import { z } from 'zod';
import { decimalString } from './primitives';

const deploymentId = z.string().min(1).max(64);
/** URLs as typed; main parses them and refuses with a sentence (the window keeps the input). */
const typedUrl = z.string().trim().min(1).max(500);

export const deploymentDraft = z
  .object({
    name: z.string().trim().min(1).max(80),
    httpUrl: typedUrl,
    marketWsUrl: typedUrl,
    oracleWsUrl: typedUrl,
    rpcUrl: typedUrl,
    chainId: z.string().trim().min(1).max(78),
  })
  .strict();

/** What the connect form asks for: the exchange's base URL and the chain node's; the rest is read from them. */
export const discoveryArgs = z.object({ httpUrl: typedUrl, rpcUrl: typedUrl }).strict();

/** One fact the discovery found (or could not), for the form to show: what, its value, where it came from. */
export const discoveredFact = z.object({
  what: z.string(),
  value: z.string(),
  /** Where the value came from, in words ("the chain node (eth_chainId)"), or why it is missing. */
  source: z.string(),
  found: z.boolean(),
});

/** A draft filled in from the exchange's and the node's own answers, and what was found. */
export const discovery = z.object({ draft: deploymentDraft, facts: z.array(discoveredFact) });

export const deploymentRef = z.object({ id: deploymentId }).strict();
export const deploymentEdit = z.object({ id: deploymentId, ...deploymentDraft.shape }).strict();
export const deploymentResult = z.object({ deploymentId });

/** What a pasted asset id turned out to be. */
export const inspectedMarket = z.object({
  assetId: decimalString,
  symbolId: decimalString,
  marketType: decimalString,
  startTime: z.number().int().nonnegative(),
  periodSeconds: z.number().int().positive(),
  timeframe: z.string(),
  strike: decimalString,
  registered: z.boolean(),
  epoch: decimalString.nullable(),
  epochStrike: decimalString.nullable(),
  oracle: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('price'), price: decimalString, at: z.number().int().nonnegative() }),
    z.object({ kind: z.literal('none'), reason: z.string() }),
  ]),
  sentence: z.string(),
});

/** Pasted text: main decodes it and says why when it is not an asset id. */
const pastedAssetId = z.string().max(200);
export const marketLookup = z.object({ deploymentId, assetId: pastedAssetId }).strict();
export const marketAdd = z
  .object({ deploymentId, assetId: pastedAssetId, symbol: z.string().trim().min(1).max(32) })
  .strict();
export const marketRename = z
  .object({ deploymentId, assetId: decimalString, symbol: z.string().trim().min(1).max(32) })
  .strict();
export const marketRemove = z.object({ deploymentId, assetId: decimalString }).strict();
export const marketMove = z
  .object({ deploymentId, assetId: decimalString, to: z.number().int().min(0).max(199) })
  .strict();
export const configuredMarket = z.object({ assetId: decimalString, symbol: z.string() });

export type DeploymentDraftArgs = z.infer<typeof deploymentDraft>;
export type Discovery = z.infer<typeof discovery>;
export type DiscoveredFact = z.infer<typeof discoveredFact>;
export type InspectedMarketView = z.infer<typeof inspectedMarket>;
export type ConfiguredMarket = z.infer<typeof configuredMarket>;
