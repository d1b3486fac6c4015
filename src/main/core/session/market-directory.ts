/**
 * Where the asset ids of a deployment come from. The exchange API has no route that lists markets
 * (docs/protocol/choices.md#markets), so each deployment needs a directory: for the embedded devnet it is the `markets`
 * list of its devnet.json (the same file that carries the demo accounts); elsewhere it is configuration.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Deployment } from '../../settings';
import { parseDevnetJson } from '../devnet/devnet-file';

export interface MarketEntry {
  readonly assetId: bigint;
  /** Ticker for people, e.g. "BTC". */
  readonly symbol: string;
}

/** The markets of one deployment; an empty list when none are known. */
export type MarketDirectory = (deployment: Deployment) => readonly MarketEntry[];

const devnetFileSchema = z.object({
  markets: z
    .array(z.object({ assetId: z.string().regex(/^(0|[1-9][0-9]*)$/), symbol: z.string().min(1).max(32) }))
    .max(200),
});

/** Parses the `markets` list of a devnet.json text; null when it has none. */
export function parseDevnetMarkets(text: string): MarketEntry[] | null {
  return (
    parseDevnetJson(text, devnetFileSchema)?.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })) ??
    null
  );
}

/** A fixed list for the devnet deployment (tests, and the harness); other deployments list their own. */
export function devnetMarkets(entries: readonly MarketEntry[]): MarketDirectory {
  return (deployment) => (deployment.builtIn === 'devnet' ? entries : configuredMarkets(deployment));
}

/** Reads the devnet's markets from its devnet.json each time a session starts (the devnet may restart). */
export function devnetFileMarkets(path: string): MarketDirectory {
  return (deployment) => {
    if (deployment.builtIn !== 'devnet') return [];
    try {
      return parseDevnetMarkets(readFileSync(path, 'utf8')) ?? [];
    } catch {
      return [];
    }
  };
}

/** Markets listed in a deployment's own settings (any deployment other than the devnet). */
export function configuredMarkets(deployment: Deployment): MarketEntry[] {
  return (deployment.markets ?? []).map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol }));
}

/**
 * The app's directory: the devnet's file when running on the devnet, the deployment's configured
 * list otherwise (and also for a devnet deployment whose file lists nothing).
 */
export function appMarkets(devnetFile: string | null): MarketDirectory {
  const fromFile = devnetFile ? devnetFileMarkets(devnetFile) : null;
  return (deployment) => {
    const listed = fromFile?.(deployment) ?? [];
    return listed.length > 0 ? listed : configuredMarkets(deployment);
  };
}
