/**
 * The market manager's look at one pasted asset id, before it is added to a deployment: decoded
 * fields, whether the exchange has it registered (GET /asset/:assetId), its current strike, and
 * whether the oracle feed has a price for its symbol id. Only deployments already confirmed in
 * main's dialog are asked; the id reaches the URL only as a validated decimal.
 */
import { ExchangeClient, ExchangeHttpError, OracleFeed, type ExchangeError } from '../../../client';
import type { Deployment } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';
import { decodeAssetId } from './asset-decoder';

export type OracleCheck = { kind: 'price'; price: string; at: number } | { kind: 'none'; reason: string };

export interface InspectedMarket {
  readonly assetId: string;
  readonly symbolId: string;
  readonly marketType: string;
  /** Unix seconds. */
  readonly startTime: number;
  readonly periodSeconds: number;
  readonly timeframe: string;
  /** The strike field of the id (oracle scale); the exchange sets each epoch's strike. */
  readonly strike: string;
  readonly registered: boolean;
  /** The current epoch and its strike when registered. */
  readonly epoch: string | null;
  readonly epochStrike: string | null;
  readonly oracle: OracleCheck;
  /** One sentence for the window: what was found. */
  readonly sentence: string;
}

export interface InspectOptions {
  /** How long to wait for an oracle price (default 5 s). */
  oracleWaitMs?: number;
}

/** Subscribes to the symbol on the deployment's oracle feed and waits for one price. */
export async function checkOracle(oracleWsUrl: string, symbolId: bigint, waitMs: number): Promise<OracleCheck> {
  let settle: (r: OracleCheck) => void = () => {};
  const result = new Promise<OracleCheck>((resolve) => (settle = resolve));
  const feed = new OracleFeed({
    url: oracleWsUrl,
    staleAfterMs: waitMs * 4,
    onError: (e: ExchangeError) => {
      // The feed refuses symbols it does not carry with an error frame.
      if (/not available|unknown|not found/i.test(e.message))
        settle({ kind: 'none', reason: `The oracle feed does not carry symbol ${symbolId}.` });
    },
  });
  const timer = setTimeout(
    () =>
      settle({
        kind: 'none',
        reason: `The oracle feed sent no price for symbol ${symbolId} within ${Math.round(waitMs / 1000)} s.`,
      }),
    waitMs,
  );
  try {
    const sub = feed.subscribe(symbolId, {
      onPrice: (p) => settle({ kind: 'price', price: p.price.toString(), at: p.tsMs }),
      onStale: () => {},
    });
    sub.ready.catch(() =>
      settle({ kind: 'none', reason: `The oracle feed did not accept a subscription to symbol ${symbolId}.` }),
    );
    return await result;
  } finally {
    clearTimeout(timer);
    feed.close();
  }
}

export async function inspectMarket(
  deployment: Deployment,
  text: string,
  options: InspectOptions = {},
): Promise<InspectedMarket> {
  const decoded = decodeAssetId(text);
  const f = decoded.fields;
  const reader = new ExchangeClient({ baseUrl: deployment.httpUrl, timeoutMs: 10_000 });
  let registered = false;
  let epoch: string | null = null;
  let epochStrike: string | null = null;
  try {
    const asset = await reader.getAsset(decoded.assetId);
    registered = asset.registered;
    if (registered) {
      epoch = asset.epoch.toString();
      epochStrike = asset.strikePrice.toString();
    }
  } catch (error) {
    if (!(error instanceof ExchangeHttpError && error.status === 404)) {
      throw new BridgeFailure(
        'markets.unreachable',
        `Could not ask ${new URL(deployment.httpUrl).host} about this asset id; nothing was added.`,
      );
    }
  } finally {
    reader.http.close();
  }
  const oracle = await checkOracle(deployment.oracleWsUrl, f.id, options.oracleWaitMs ?? 5_000);
  const sentence = registered
    ? `The exchange lists this ${decoded.timeframe} up/down market on symbol ${f.id}${oracle.kind === 'price' ? ', and the oracle has a price for it.' : `. ${oracle.reason}`}`
    : `The exchange does not list this asset id, so orders for it would be refused. ${oracle.kind === 'price' ? 'The oracle does have a price for its symbol.' : oracle.reason}`;
  return {
    assetId: decoded.assetId.toString(),
    symbolId: f.id.toString(),
    marketType: f.marketType.toString(),
    startTime: Number(f.startTime),
    periodSeconds: Number(f.periodLength),
    timeframe: decoded.timeframe,
    strike: f.strike.toString(),
    registered,
    epoch,
    epochStrike,
    oracle,
    sentence,
  };
}
