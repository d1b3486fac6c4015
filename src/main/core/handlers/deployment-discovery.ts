/**
 * The connect form's discovery: from the exchange's base URL and its chain node's URL, everything
 * else a deployment needs, read from their own answers (after main's dialog allowed contacting them):
 * the chain id from the node (eth_chainId), held to the exchange's configuration and signing domain
 * for that chain (GET /config/chains/:id, /config/domain/:id), and the market and oracle feeds at
 * the addresses exchanges publish them on (/ws/ and /oracle-ws/ of the API host), each tried once.
 * What could not be found is said, and left for the user to type.
 */
import { JsonRpcProvider } from 'ethers';
import type { DeploymentDraftArgs, DiscoveredFact, Discovery } from '../../../shared/bridge';
import { ExchangeClient, probeFeed, rpcConnection } from '../../../client';
import { BridgeFailure } from '../bridge-runtime';
import { readDeploymentFacts, unreachable } from '../session/deployment-facts';

export interface DiscoveryOptions {
  /** Each read's timeout, ms. */
  readonly timeoutMs: number;
}

/** The feed addresses to try for a base URL: the usual paths on the API host, ws(s) as the API is http(s). */
export function feedCandidates(httpUrl: string): { marketWsUrl: string; oracleWsUrl: string } {
  const u = new URL(httpUrl);
  const scheme = u.protocol === 'https:' ? 'wss' : 'ws';
  return { marketWsUrl: `${scheme}://${u.host}/ws/`, oracleWsUrl: `${scheme}://${u.host}/oracle-ws/` };
}

async function nodeChainId(rpcUrl: string, timeoutMs: number): Promise<bigint> {
  const provider = new JsonRpcProvider(rpcConnection(rpcUrl), undefined, { staticNetwork: true, batchMaxCount: 1 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await Promise.race([
      provider.send('eth_chainId', []) as Promise<string>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return BigInt(answer);
  } catch {
    throw new BridgeFailure(
      'deployments.rpc_unreachable',
      `The chain node at ${new URL(rpcUrl).host} did not tell its chain id (eth_chainId): check the chain RPC URL. Nothing was saved.`,
    );
  } finally {
    clearTimeout(timer);
    provider.destroy();
  }
}

/** Reads and tries everything; throws a sentence only when nothing usable came back (no chain, no exchange). */
export async function discoverDeployment(
  httpUrl: string,
  rpcUrl: string,
  options: DiscoveryOptions,
): Promise<Discovery> {
  const chainId = await nodeChainId(rpcUrl, options.timeoutMs);
  const reader = new ExchangeClient({ baseUrl: httpUrl, timeoutMs: options.timeoutMs });
  const feeds = feedCandidates(httpUrl);
  const api = new URL(httpUrl).host;
  try {
    const [observed, market, oracle] = await Promise.all([
      readDeploymentFacts(reader, httpUrl, chainId.toString()).catch((error: unknown) => {
        throw unreachable(httpUrl, error);
      }),
      probeFeed(feeds.marketWsUrl, options.timeoutMs),
      probeFeed(feeds.oracleWsUrl, options.timeoutMs),
    ]);
    const facts: DiscoveredFact[] = [
      {
        what: 'Chain id',
        value: chainId.toString(),
        source: `the chain node (eth_chainId), and the exchange at ${api} serves it`,
        found: true,
      },
      {
        what: 'Exchange contract',
        value: observed.facts.verifyingContract,
        source: `the exchange's configuration for chain ${chainId}`,
        found: true,
      },
      {
        what: 'Signing domain',
        value: observed.facts.domainName,
        source: "the exchange's signing domain (its default name where it publishes none)",
        found: true,
      },
      feedFact('Market feed', feeds.marketWsUrl, market),
      feedFact('Oracle feed', feeds.oracleWsUrl, oracle),
    ];
    const draft: DeploymentDraftArgs = {
      name: api.slice(0, 80),
      httpUrl,
      // A feed that did not answer keeps the usual address for the user to correct.
      marketWsUrl: feeds.marketWsUrl,
      oracleWsUrl: feeds.oracleWsUrl,
      rpcUrl,
      chainId: chainId.toString(),
    };
    return { draft, facts };
  } finally {
    reader.http.close();
  }
}

function feedFact(what: string, url: string, answered: boolean): DiscoveredFact {
  return answered
    ? { what, value: url, source: 'answered at the usual address on the exchange’s host', found: true }
    : {
        what,
        value: url,
        source: 'nothing answered at the usual address: type the one your exchange publishes',
        found: false,
      };
}
