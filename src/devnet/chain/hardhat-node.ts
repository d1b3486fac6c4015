import { createRequire } from 'node:module';

/** The slice of an EIP-1193 provider we use. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

interface JsonRpcServer {
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

export interface HardhatNodeOptions {
  host: string;
  port: number;
  chainId: bigint;
  genesisAccounts: { privateKey: string; balance: bigint }[];
}

export interface HardhatNode {
  rpcUrl: string;
  wsUrl: string;
  provider: Eip1193Provider;
  close(): Promise<void>;
}

/**
 * Runs Hardhat Network (EDR) in-process behind its JSON-RPC HTTP + WebSocket server, with no hardhat
 * project or config on disk. These are Hardhat 2 internals (the same calls `hardhat node` makes);
 * EDR ships prebuilt binaries for macOS, Windows and Linux, and nothing here touches the network.
 */
export async function startHardhatNode(opts: HardhatNodeOptions): Promise<HardhatNode> {
  const require = createRequire(import.meta.url);
  const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider') as {
    createHardhatNetworkProvider: (config: unknown, logger: { enabled: boolean }) => Promise<Eip1193Provider>;
  };
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server') as {
    JsonRpcServer: new (config: { hostname: string; port: number; provider: Eip1193Provider }) => JsonRpcServer;
  };
  const chainId = Number(opts.chainId);
  const provider = await createHardhatNetworkProvider(
    {
      hardfork: 'prague',
      chainId,
      networkId: chainId,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      // Start in automine so deployment is instant; startChain switches to interval mining afterwards.
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: new Map(),
      genesisAccounts: opts.genesisAccounts,
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
  const server = new JsonRpcServer({ hostname: opts.host, port: opts.port, provider });
  const { port } = await server.listen();
  // IPv6 literals need brackets inside a URL.
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    rpcUrl: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    provider,
    close: () => server.close(),
  };
}
