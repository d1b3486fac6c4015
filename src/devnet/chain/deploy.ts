import { ContractFactory, type JsonRpcProvider, type Wallet } from 'ethers';
import { ARTIFACTS } from './artifacts';
import type { ContractName } from './artifacts-schema';
import { minedReceipt } from './rpc';
import type { Address, DevnetContracts } from './types';

export interface DeployOptions {
  /** Deployer, also the operator of DepositLedger and AccountLedger; must have nonce 0. */
  deployer: Wallet;
  tokenName: string;
  tokenSymbol: string;
  /** EIP-712 domain name the Exchange marker reports (EIP-5267). */
  domainName: string;
  minBlockWait: bigint;
}

async function deploy(name: ContractName, deployer: Wallet, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = ARTIFACTS.contracts[name];
  const factory = new ContractFactory(abi, bytecode, deployer);
  const contract = await factory.deploy(...args);
  const sent = contract.deploymentTransaction();
  if (!sent) throw new Error(`${name} was deployed without a transaction.`);
  const receipt = await minedReceipt(deployer.provider as JsonRpcProvider, sent.hash, `${name} deployment`);
  if (!receipt.contractAddress) throw new Error(`${name} deployment created no contract.`);
  return receipt.contractAddress as Address;
}

/** Deploys the devnet contracts in DEPLOY_ORDER (accounts.ts), so addresses match predictDevnetContracts. */
export async function deployDevnetContracts(opts: DeployOptions): Promise<DevnetContracts> {
  const { deployer } = opts;
  const operator = deployer.address;
  const settlementToken = await deploy('SettlementToken', deployer, [opts.tokenName, opts.tokenSymbol]);
  const permit2 = await deploy('Permit2', deployer, []);
  const ledger = await deploy('AccountLedger', deployer, [settlementToken, operator]);
  const depositLedger = await deploy('DepositLedger', deployer, [
    settlementToken,
    ledger,
    permit2,
    operator,
    opts.minBlockWait,
  ]);
  const exchange = await deploy('Exchange', deployer, [opts.domainName, ledger, depositLedger]);
  return { exchange, ledger, depositLedger, settlementToken, permit2 };
}
