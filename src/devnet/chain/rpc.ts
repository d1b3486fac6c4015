import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcProvider, Network, type TransactionReceipt } from 'ethers';
import { pollReceipt } from '../../shared/receipt-poll';
import { ChainError } from './errors';

/** Asks the node for its chain id with a bare request (no ethers start-up retry loop, no console noise). */
export async function fetchChainId(rpcUrl: string): Promise<bigint> {
  let body: unknown;
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    body = await res.json();
  } catch (err) {
    throw new ChainError('RPC_UNAVAILABLE', `The chain RPC at ${rpcUrl} did not answer (${(err as Error).message}).`);
  }
  const result = (body as { result?: unknown }).result;
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) {
    throw new ChainError('RPC_UNAVAILABLE', `The chain RPC at ${rpcUrl} returned no chain id.`);
  }
  return BigInt(result);
}

/**
 * An ethers provider pinned to a known chain id (no network auto-detection), with request batching
 * off so each call is sent at once, and fast polling because devnet blocks are quick.
 */
export function pinnedProvider(rpcUrl: string, chainId: bigint, pollingIntervalMs = 250): JsonRpcProvider {
  const provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    pollingInterval: pollingIntervalMs,
    // The default 250 ms response cache would hand back stale nonces and block numbers.
    cacheTimeout: -1,
  });
  return provider;
}

/** Opens a pinned provider after reading the node's chain id. Call destroy() when done. */
export async function openRpc(rpcUrl: string): Promise<{ provider: JsonRpcProvider; chainId: bigint }> {
  const chainId = await fetchChainId(rpcUrl);
  return { provider: pinnedProvider(rpcUrl, chainId), chainId };
}

/**
 * The receipt of a sent transaction once mined and successful. Polled by hand rather than with
 * `tx.wait()`, whose block listeners outlive it and reject unhandled when the provider is destroyed.
 */
export async function minedReceipt(
  provider: JsonRpcProvider,
  hash: string,
  what: string,
  timeoutMs = 120_000,
): Promise<TransactionReceipt> {
  const receipt = await pollReceipt(provider, hash, { pollMs: 100, deadline: Date.now() + timeoutMs, sleep });
  if (!receipt)
    throw new ChainError('TX_TIMEOUT', `The ${what} transaction was not mined within ${timeoutMs / 1000} s.`);
  if (receipt.status !== 1) throw new ChainError('TX_REVERTED', `The ${what} transaction reverted.`);
  return receipt;
}
