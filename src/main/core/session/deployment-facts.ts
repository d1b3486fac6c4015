/**
 * Reads what a deployment says about itself (chain configuration, EIP-712 domain, token contracts)
 * and holds it to the chain id the user configured: a server that names another chain, or an RPC
 * node on another chain, gets nothing pinned and nothing signed. Used when a deployment is added
 * (before the user sees the facts) and on every connect (before the pin is checked).
 */
import { JsonRpcProvider } from 'ethers';
import { rpcConnection } from '../../../client';
import { DEFAULT_DOMAIN_NAME } from '../../../shared/protocol';
import { ExchangeError, ExchangeHttpError, type ExchangeConfig, type ExchangeReader } from '../../../client';
import type { DomainFacts } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';

/** The facts to pin, plus the account ledger the session signs with. */
export interface ObservedDeployment {
  readonly facts: DomainFacts & { spenders: NonNullable<DomainFacts['spenders']> };
  readonly contracts: ExchangeConfig['contracts'];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function chainMismatch(where: string, served: bigint, configured: string): BridgeFailure {
  return new BridgeFailure(
    'deployments.chain_mismatch',
    `${where} serves chain ${served}, but this deployment is set to chain ${configured}: nothing was pinned and nothing will be signed.`,
  );
}

/**
 * GET /config/chains/:chainId and /config/domain/:chainId (the latter optional: the documented
 * default name where the deployment does not serve it). Throws a coded sentence on a chain mismatch,
 * a chain the exchange does not serve, or two different exchange contracts.
 */
export async function readDeploymentFacts(
  reader: ExchangeReader,
  baseUrl: string,
  chainId: string,
): Promise<ObservedDeployment> {
  const host = hostOf(baseUrl);
  const configured = BigInt(chainId);
  let config: ExchangeConfig;
  try {
    config = await reader.getExchangeConfig(configured);
  } catch (error) {
    if (error instanceof ExchangeHttpError && error.status === 404) {
      throw new BridgeFailure(
        'deployments.chain_not_served',
        `The exchange at ${host} does not serve chain ${chainId} (it answered 404 for its configuration): nothing was pinned.`,
      );
    }
    throw error;
  }
  if (config.chainId !== configured) throw chainMismatch(`The exchange at ${host}`, config.chainId, chainId);
  let domainName = config.domainName ?? DEFAULT_DOMAIN_NAME;
  try {
    const domain = await reader.getExchangeDomain(configured);
    if (domain.chainId !== configured)
      throw chainMismatch(`The exchange's signing domain at ${host}`, domain.chainId, chainId);
    if (domain.verifyingContract.toLowerCase() !== config.contracts.exchange.toLowerCase()) {
      throw new BridgeFailure(
        'deployments.contract_mismatch',
        `The exchange at ${host} names two different exchange contracts (${config.contracts.exchange} in its configuration, ${domain.verifyingContract} in its signing domain): nothing was pinned.`,
      );
    }
    domainName = domain.name;
  } catch (error) {
    // The domain route is an extension; a deployment without it uses the documented default name.
    if (!(error instanceof ExchangeHttpError && error.status === 404)) throw error;
  }
  const c = config.contracts;
  return {
    facts: {
      chainId,
      verifyingContract: c.exchange,
      domainName: domainName.slice(0, 200),
      spenders: {
        depositLedger: c.depositLedger ?? null,
        settlementToken: c.settlementToken ?? null,
        permit2: c.permit2 ?? null,
      },
    },
    contracts: c,
  };
}

/** eth_chainId of the RPC node; throws a sentence when it is unreachable or on another chain. */
export async function checkRpcChain(rpcUrl: string, chainId: string, timeoutMs = 10_000): Promise<void> {
  const provider = new JsonRpcProvider(rpcConnection(rpcUrl), undefined, { staticNetwork: true, batchMaxCount: 1 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await Promise.race([
      provider.send('eth_chainId', []) as Promise<string>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    let served: bigint;
    try {
      served = BigInt(answer);
    } catch {
      throw new BridgeFailure(
        'deployments.rpc_unreadable',
        `The RPC node at ${hostOf(rpcUrl)} answered eth_chainId with something that is not a number.`,
      );
    }
    if (served !== BigInt(chainId)) throw chainMismatch(`The RPC node at ${hostOf(rpcUrl)}`, served, chainId);
  } catch (error) {
    if (error instanceof BridgeFailure) throw error;
    throw new BridgeFailure(
      'deployments.rpc_unreachable',
      `The RPC node at ${hostOf(rpcUrl)} did not answer eth_chainId: check the RPC URL.`,
    );
  } finally {
    clearTimeout(timer);
    provider.destroy();
  }
}

/** A failure to reach or read the exchange, as the sentence the dialog flow shows. */
export function unreachable(baseUrl: string, error: unknown): BridgeFailure {
  if (error instanceof BridgeFailure) return error;
  const why =
    error instanceof ExchangeError
      ? ` (${error.code === 'TRANSPORT_ERROR' || error.code === 'TIMEOUT' ? 'no answer' : 'an answer that is not an exchange configuration'})`
      : '';
  return new BridgeFailure(
    'deployments.unreachable',
    `Could not read the chain configuration from ${hostOf(baseUrl)}${why}: check the base URL, including its API prefix. Nothing was saved.`,
  );
}
