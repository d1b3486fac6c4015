/**
 * An ExchangeClient for one devnet key, signing in this process. The bots trade through it, and so
 * do tests and benchmarks that need a second trader beside the app.
 */
import { ExchangeClient, keySigner, type ExchangeClientOptions } from '../../client';
import { makeExchangeDomain, type Hex } from '../../shared/protocol';
import type { ExchangeContracts as DevnetContracts } from '../deployment';

/** What a client needs to know of a devnet (a DevnetHandle has all of it). */
export interface DevnetEndpoint {
  httpUrl: string;
  chainId: bigint;
  contracts: DevnetContracts;
  domainName: string;
}

export function devnetClient(
  devnet: DevnetEndpoint,
  privateKey: Hex,
  options: Omit<ExchangeClientOptions, 'baseUrl' | 'signer' | 'deployment'> = {},
): ExchangeClient {
  const domain = makeExchangeDomain({
    chainId: devnet.chainId,
    verifyingContract: devnet.contracts.exchange,
    name: devnet.domainName,
  });
  return new ExchangeClient({
    ...options,
    baseUrl: devnet.httpUrl,
    signer: keySigner(privateKey),
    deployment: () => ({ domain, ledger: devnet.contracts.ledger }),
  });
}
