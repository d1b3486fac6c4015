import { Contract, Wallet } from 'ethers';
import { DEPLOY_ORDER, DEVNET_MNEMONIC, deriveDevnetKeys, predictDevnetContracts } from './accounts';
import { ARTIFACTS } from './artifacts';
import { deployDevnetContracts } from './deploy';
import { startHardhatNode } from './hardhat-node';
import { minedReceipt, pinnedProvider } from './rpc';
import type { DevnetAccount, DevnetContracts, DevnetKey } from './types';

export interface StartChainOptions {
  /** Loopback port; 0 (the default) picks a free one. The devnet CLI passes 8545. */
  port?: number;
  host?: string;
  chainId?: bigint;
  mnemonic?: string;
  /** Number of funded demo accounts (HD indexes 1..N). */
  accounts?: number;
  /** 'auto' mines a block per transaction; a number mines one block every that many ms. */
  blockTime?: number | 'auto';
  /** Settlement-token units (6 decimals) minted to each demo account. */
  tokensPerAccount?: bigint;
  /** Wei given to the operator and each demo account at genesis. */
  ethPerAccount?: bigint;
  /** Blocks a deposit waits before the operator may sweep it. */
  minBlockWait?: bigint;
  /** EIP-712 domain name reported by the Exchange marker. */
  domainName?: string;
}

export interface DevnetChain {
  rpcUrl: string;
  wsUrl: string;
  chainId: bigint;
  accounts: DevnetAccount[];
  contracts: DevnetContracts;
  operator: DevnetKey;
  /** Measured start-up time in ms: node, deployment + funding, total. */
  timings: { nodeMs: number; deployMs: number; totalMs: number };
  stop(): Promise<void>;
}

export const DEVNET_DEFAULTS = {
  host: '127.0.0.1',
  chainId: 31337n,
  accounts: 4,
  tokensPerAccount: 1_000_000n * 10n ** 6n,
  ethPerAccount: 10_000n * 10n ** 18n,
  minBlockWait: 1n,
  domainName: 'Service Exchange',
  tokenName: 'Devnet USD',
  tokenSymbol: 'dUSD',
} as const;

/** Starts a local EVM chain with the exchange contracts deployed and demo accounts funded. Prints nothing. */
export async function startChain(options: StartChainOptions = {}): Promise<DevnetChain> {
  const started = performance.now();
  const chainId = options.chainId ?? DEVNET_DEFAULTS.chainId;
  const blockTime = options.blockTime ?? 'auto';
  if (blockTime !== 'auto' && (!Number.isInteger(blockTime) || blockTime <= 0)) {
    throw new RangeError('blockTime must be "auto" or a positive whole number of milliseconds.');
  }
  const ethPerAccount = options.ethPerAccount ?? DEVNET_DEFAULTS.ethPerAccount;
  const { operator, accounts } = deriveDevnetKeys(
    options.mnemonic ?? DEVNET_MNEMONIC,
    options.accounts ?? DEVNET_DEFAULTS.accounts,
  );

  // Gas money comes from genesis: no funding transactions needed.
  const node = await startHardhatNode({
    host: options.host ?? DEVNET_DEFAULTS.host,
    port: options.port ?? 0,
    chainId,
    genesisAccounts: [operator, ...accounts].map((a) => ({ privateKey: a.privateKey, balance: ethPerAccount })),
  });
  const nodeReady = performance.now();
  const provider = pinnedProvider(node.rpcUrl, chainId);
  try {
    const deployer = new Wallet(operator.privateKey, provider);
    const contracts = await deployDevnetContracts({
      deployer,
      tokenName: DEVNET_DEFAULTS.tokenName,
      tokenSymbol: DEVNET_DEFAULTS.tokenSymbol,
      domainName: options.domainName ?? DEVNET_DEFAULTS.domainName,
      minBlockWait: options.minBlockWait ?? DEVNET_DEFAULTS.minBlockWait,
    });
    const expected = predictDevnetContracts(operator.address);
    if (DEPLOY_ORDER.some((key) => contracts[key] !== expected[key])) {
      throw new Error('Devnet contracts did not deploy to their predicted addresses (deployer nonce was not 0).');
    }
    if (accounts.length > 0) {
      const token = new Contract(contracts.settlementToken, ARTIFACTS.contracts.SettlementToken.abi, deployer);
      const amount = options.tokensPerAccount ?? DEVNET_DEFAULTS.tokensPerAccount;
      const tx = await token.getFunction('mintBatch').send(
        accounts.map((a) => a.address),
        accounts.map(() => amount),
      );
      await minedReceipt(provider, tx.hash, 'mintBatch');
    }
    if (blockTime !== 'auto') {
      await node.provider.request({ method: 'evm_setAutomine', params: [false] });
      await node.provider.request({ method: 'evm_setIntervalMining', params: [blockTime] });
    }
  } catch (err) {
    provider.destroy();
    await node.close();
    throw err;
  }
  provider.destroy();
  const ready = performance.now();

  let stopping: Promise<void> | undefined;
  return {
    rpcUrl: node.rpcUrl,
    wsUrl: node.wsUrl,
    chainId,
    accounts,
    contracts: predictDevnetContracts(operator.address),
    operator,
    timings: {
      nodeMs: Math.round(nodeReady - started),
      deployMs: Math.round(ready - nodeReady),
      totalMs: Math.round(ready - started),
    },
    stop() {
      stopping ??= (async () => {
        // Stop the mining timer first so nothing keeps the process alive.
        if (blockTime !== 'auto') await node.provider.request({ method: 'evm_setIntervalMining', params: [0] });
        await node.close();
      })();
      return stopping;
    },
  };
}
