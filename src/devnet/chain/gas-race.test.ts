/**
 * Why every transaction we send carries gasWithMargin: a deposit estimated while earlier deposits
 * are pending, then mined in the same block right after the operator's sweep (which takes
 * pendingBalance to zero), writes pendingBalance from zero instead of from non-zero and needs
 * ~17,000 more gas than estimated. With the bare estimate it is mined as reverted (seen in CI as
 * "funds.tx_reverted"); with the margin it goes through.
 */
import { Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gasWithMargin } from '../../shared/gas-margin';
import { devnetContract } from './contracts';
import { minedReceipt, pinnedProvider } from './rpc';
import { startChain, type DevnetChain } from './start-chain';

let chain: DevnetChain;
let provider: JsonRpcProvider;

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 2 });
  provider = pinnedProvider(chain.rpcUrl, chain.chainId);
});

afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

const mine = () => provider.send('evm_mine', []);

/** Deposit `amount` from a fresh approval, mined on its own (automine on). */
async function depositNow(wallet: Wallet, amount: bigint): Promise<void> {
  const token = devnetContract('SettlementToken', chain.contracts.settlementToken, wallet);
  await minedReceipt(
    provider,
    (await token.getFunction('approve').send(chain.contracts.depositLedger, amount)).hash,
    'approve',
  );
  await minedReceipt(
    provider,
    (await devnetContract('DepositLedger', chain.contracts.depositLedger, wallet).getFunction('deposit').send(amount))
      .hash,
    'deposit',
  );
}

/**
 * One pending deposit is ready to sweep; the user estimates the next deposit, then the sweep and
 * that deposit are mined in one block, sweep first. Returns the deposit's receipt status.
 */
async function depositBehindSweep(limit: (estimate: bigint) => bigint): Promise<number> {
  const user = new Wallet(chain.accounts[0]!.privateKey, provider);
  const operator = new Wallet(chain.operator.privateKey, provider);
  const ledger = devnetContract('DepositLedger', chain.contracts.depositLedger, user);
  await depositNow(user, 5_000_000n);
  await mine(); // minBlockWait is one block
  const token = devnetContract('SettlementToken', chain.contracts.settlementToken, user);
  await minedReceipt(
    provider,
    (await token.getFunction('approve').send(chain.contracts.depositLedger, 7_000_000n)).hash,
    'approve',
  );
  expect(await ledger.getFunction('pendingBalance')()).toBe(5_000_000n);

  const deposit = ledger.getFunction('deposit');
  const estimate = await deposit.estimateGas(7_000_000n);
  const processUpTo = devnetContract('DepositLedger', chain.contracts.depositLedger, operator).getFunction(
    'processUpTo',
  );
  const upTo = ((await ledger.getFunction('nextPendingDepositId')()) as bigint) - 1n;
  const sweepGas = gasWithMargin(await processUpTo.estimateGas(upTo));

  await provider.send('evm_setAutomine', [false]);
  try {
    const sweep = await processUpTo.send(upTo, { gasLimit: sweepGas });
    const sent = await deposit.send(7_000_000n, { gasLimit: limit(estimate) });
    await mine();
    const [sweepReceipt, depositReceipt] = await Promise.all([
      provider.getTransactionReceipt(sweep.hash),
      provider.getTransactionReceipt(sent.hash),
    ]);
    expect(sweepReceipt?.status).toBe(1);
    expect(depositReceipt?.blockNumber).toBe(sweepReceipt?.blockNumber);
    expect(depositReceipt!.index).toBeGreaterThan(sweepReceipt!.index);
    return depositReceipt!.status!;
  } finally {
    await provider.send('evm_setAutomine', [true]);
  }
}

describe('a deposit mined right behind a sweep', () => {
  it('runs out of gas with the bare estimate', async () => {
    expect(await depositBehindSweep((estimate) => estimate)).toBe(0);
  });

  it('goes through with gasWithMargin', async () => {
    expect(await depositBehindSweep(gasWithMargin)).toBe(1);
  });
});
