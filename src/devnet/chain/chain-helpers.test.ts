import { JsonRpcProvider, Network, Wallet, id } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDevnetRevert, devnetContract } from './contracts';
import { ChainError } from './errors';
import { isWithdrawalPaid, payWithdrawal } from './pay-withdrawal';
import { processDeposits } from './process-deposits';
import { startChain, type DevnetChain } from './start-chain';
import type { Address, Hex } from './types';
import { watchDeposits, type DepositWatcher, type QueuedDepositEvent } from './watch-deposits';
import { minedReceipt } from './rpc';

let chain: DevnetChain;
let provider: JsonRpcProvider;
const watchers: DepositWatcher[] = [];
let deposited = 0n;
let paidOut = 0n;

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 3 });
  provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
});

afterAll(async () => {
  for (const w of watchers) await w.stop();
  provider?.destroy();
  await chain?.stop();
});

const token = (runner: JsonRpcProvider | Wallet = provider) =>
  devnetContract('SettlementToken', chain.contracts.settlementToken, runner);
const depositLedger = (runner: JsonRpcProvider | Wallet = provider) =>
  devnetContract('DepositLedger', chain.contracts.depositLedger, runner);
const balanceOf = (a: string) => token().getFunction('balanceOf')(a) as Promise<bigint>;

/** A plain approve + deposit from demo account `i`; returns the deposit's block. */
async function depositFrom(i: number, amount: bigint): Promise<bigint> {
  const wallet = new Wallet(chain.accounts[i]!.privateKey, provider);
  await minedReceipt(
    provider,
    (await token(wallet).getFunction('approve').send(chain.contracts.depositLedger, amount)).hash,
    'approve',
  );
  const receipt = await minedReceipt(
    provider,
    (await depositLedger(wallet).getFunction('deposit').send(amount)).hash,
    'deposit',
  );
  deposited += amount;
  return BigInt(receipt.blockNumber);
}

async function watch(fromBlock: bigint, confirmations: number, seen: QueuedDepositEvent[]): Promise<DepositWatcher> {
  const watcher = await watchDeposits({
    rpcUrl: chain.rpcUrl,
    depositLedger: chain.contracts.depositLedger,
    fromBlock,
    confirmations,
    pollIntervalMs: 60_000, // tests drive scans with poll()
    onDeposit: (e) => void seen.push(e),
  });
  watchers.push(watcher);
  return watcher;
}

async function conservation(): Promise<void> {
  const held = (await balanceOf(chain.contracts.depositLedger)) + (await balanceOf(chain.contracts.ledger));
  expect(held).toBe(deposited - paidOut);
}

describe('watchDeposits', () => {
  it('finds deposits made before it started, exactly once, and resumes from the stored cursor', async () => {
    await depositFrom(0, 10_000_000n);
    await depositFrom(1, 20_000_000n);
    const seen: QueuedDepositEvent[] = [];
    const first = await watch(0n, 1, seen);
    await first.poll();
    await first.poll();
    expect(seen.map((e) => [e.index, e.user, e.amount])).toEqual([
      [1n, chain.accounts[0]!.address, 10_000_000n],
      [2n, chain.accounts[1]!.address, 20_000_000n],
    ]);
    expect(seen[0]!.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const stored = first.cursor();
    expect(stored).toBe(BigInt(await provider.getBlockNumber()) + 1n);
    await first.stop();

    // "Exchange down": a deposit lands, then a new watcher resumes from the stored cursor.
    const missedBlock = await depositFrom(2, 30_000_000n);
    const resumed: QueuedDepositEvent[] = [];
    const second = await watch(stored, 1, resumed);
    await second.poll();
    await second.poll();
    expect(resumed.map((e) => [e.index, e.amount, e.blockNumber])).toEqual([[3n, 30_000_000n, missedBlock]]);
    await second.stop();
  });

  it('delivers a deposit only once it has the required confirmations', async () => {
    const from = BigInt(await provider.getBlockNumber()) + 1n;
    const seen: QueuedDepositEvent[] = [];
    const watcher = await watch(from, 3, seen);
    const block = await depositFrom(0, 1_000_000n);
    await watcher.poll();
    expect(seen).toEqual([]); // 1 confirmation
    await provider.send('evm_mine', []);
    await watcher.poll();
    expect(seen).toEqual([]); // 2 confirmations
    expect(watcher.cursor()).toBe(block); // the deposit's block is not final yet
    await provider.send('evm_mine', []);
    await watcher.poll();
    expect(seen.map((e) => [e.index, e.blockNumber])).toEqual([[4n, block]]);
    await provider.send('evm_mine', []);
    await watcher.poll();
    expect(seen).toHaveLength(1);
  });

  it('retries a deposit whose handler failed, without repeating those already delivered', async () => {
    const from = BigInt(await provider.getBlockNumber()) + 1n;
    const a = await depositFrom(1, 2_000_000n);
    await depositFrom(2, 3_000_000n);
    const seen: bigint[] = [];
    let failOnce = true;
    const watcher = await watchDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      fromBlock: from,
      confirmations: 1,
      pollIntervalMs: 60_000,
      onDeposit: (e) => {
        if (e.index === 6n && failOnce) {
          failOnce = false;
          throw new Error('store unavailable');
        }
        seen.push(e.index);
      },
    });
    watchers.push(watcher);
    await expect(watcher.poll()).rejects.toThrow('store unavailable');
    expect(seen).toEqual([5n]);
    expect(watcher.cursor()).toBeGreaterThan(a);
    await watcher.poll();
    expect(seen).toEqual([5n, 6n]);
  });
});

describe('processDeposits', () => {
  it('sweeps queued deposits to the AccountLedger and advances the cursors', async () => {
    const dl = depositLedger();
    const pendingBefore = (await dl.getFunction('pendingBalance')()) as bigint;
    const next = (await dl.getFunction('nextPendingDepositId')()) as bigint;
    expect(pendingBefore).toBe(deposited);
    const result = await processDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      operatorKey: chain.operator.privateKey,
      upTo: 3n,
    });
    expect(result.swept.map((s) => s.index)).toEqual([1n, 2n, 3n]);
    expect(result.processedDepositIndex).toBe(3n);
    expect(result.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const sweptAmount = 60_000_000n;
    expect(await balanceOf(chain.contracts.ledger)).toBe(sweptAmount);
    expect(await dl.getFunction('processedBalance')()).toBe(sweptAmount);
    expect(await dl.getFunction('pendingBalance')()).toBe(pendingBefore - sweptAmount);
    expect(await dl.getFunction('pendingDepositCount')()).toBe(next - 1n - 3n);
    await conservation();

    const rest = await processDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      operatorKey: chain.operator.privateKey,
    });
    expect(rest.processedDepositIndex).toBe(next - 1n);
    expect(await dl.getFunction('pendingBalance')()).toBe(0n);
    expect(await dl.getFunction('canProcessNext')()).toBe(false);
    await conservation();
  });

  it('waits minBlockWait blocks and sends nothing when nothing is ready', async () => {
    await depositFrom(0, 4_000_000n);
    // The sweep itself mines the next block, so with minBlockWait 1 the deposit is ready now.
    expect(await depositLedger().getFunction('canProcessNext')()).toBe(false);
    await provider.send('evm_mine', []);
    expect(await depositLedger().getFunction('canProcessNext')()).toBe(true);
    const swept = await processDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      operatorKey: chain.operator.privateKey,
    });
    expect(swept.swept).toHaveLength(1);
    const none = await processDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      operatorKey: chain.operator.privateKey,
    });
    expect(none).toEqual({ txHash: null, swept: [], processedDepositIndex: swept.processedDepositIndex });
    await conservation();
  });

  it('refuses a sweep from a key that is not the operator', async () => {
    await depositFrom(1, 1_000_000n);
    await provider.send('evm_mine', []);
    const err = await processDeposits({
      rpcUrl: chain.rpcUrl,
      depositLedger: chain.contracts.depositLedger,
      operatorKey: chain.accounts[0]!.privateKey,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).code).toBe('NOT_OPERATOR');
    expect((err as ChainError).message).not.toContain(chain.accounts[0]!.privateKey.slice(2));
  });
});

describe('payWithdrawal', () => {
  it('pays the receiver exactly once per withdrawal id', async () => {
    const receiver = Wallet.createRandom().address as Address;
    const withdrawalId = id('withdrawal-1') as Hex;
    const args = {
      rpcUrl: chain.rpcUrl,
      ledger: chain.contracts.ledger,
      operatorKey: chain.operator.privateKey,
      receiver,
      amount: 7_500_000n,
      withdrawalId,
    };
    expect(await isWithdrawalPaid(args)).toBe(false);
    const txHash = await payWithdrawal(args);
    paidOut += 7_500_000n;
    expect(await balanceOf(receiver)).toBe(7_500_000n);
    expect(await isWithdrawalPaid(args)).toBe(true);
    const receipt = await provider.getTransactionReceipt(txHash);
    const log = devnetContract('AccountLedger', chain.contracts.ledger, provider).interface.parseLog(
      receipt!.logs.at(-1)!,
    );
    expect(log?.name).toBe('WithdrawalPaid');
    expect([...log!.args]).toEqual([withdrawalId, receiver, 7_500_000n]);

    const again = await payWithdrawal(args).catch((e: unknown) => e);
    expect((again as ChainError).code).toBe('WITHDRAWAL_ALREADY_PAID');
    expect(await balanceOf(receiver)).toBe(7_500_000n);
    await conservation();
  });

  it('is enforced by the contract too, and only the operator may pay', async () => {
    const withdrawalId = id('withdrawal-1');
    const operator = new Wallet(chain.operator.privateKey, provider);
    const ledger = devnetContract('AccountLedger', chain.contracts.ledger, operator);
    const direct = await ledger
      .getFunction('payout')
      .send(operator.address, 1n, withdrawalId)
      .catch((e: unknown) => e);
    expect(decodeDevnetRevert(direct)).toEqual({ name: 'AlreadyPaid', args: [withdrawalId] });
    const err = await payWithdrawal({
      rpcUrl: chain.rpcUrl,
      ledger: chain.contracts.ledger,
      operatorKey: chain.accounts[1]!.privateKey,
      receiver: chain.accounts[1]!.address,
      amount: 1n,
      withdrawalId: id('withdrawal-2') as Hex,
    }).catch((e: unknown) => e);
    expect((err as ChainError).code).toBe('NOT_OPERATOR');
  });

  it('serialises concurrent operator transactions (no nonce clashes)', async () => {
    await depositFrom(2, 1_000_000n);
    await provider.send('evm_mine', []);
    const receivers = [Wallet.createRandom().address, Wallet.createRandom().address] as Address[];
    const results = await Promise.all([
      payWithdrawal({
        rpcUrl: chain.rpcUrl,
        ledger: chain.contracts.ledger,
        operatorKey: chain.operator.privateKey,
        receiver: receivers[0]!,
        amount: 1n,
        withdrawalId: id('c-1') as Hex,
      }),
      processDeposits({
        rpcUrl: chain.rpcUrl,
        depositLedger: chain.contracts.depositLedger,
        operatorKey: chain.operator.privateKey,
      }),
      payWithdrawal({
        rpcUrl: chain.rpcUrl,
        ledger: chain.contracts.ledger,
        operatorKey: chain.operator.privateKey,
        receiver: receivers[1]!,
        amount: 2n,
        withdrawalId: id('c-2') as Hex,
      }),
    ]);
    paidOut += 3n;
    expect(results[1].swept.length).toBeGreaterThan(0);
    expect(await balanceOf(receivers[0]!)).toBe(1n);
    expect(await balanceOf(receivers[1]!)).toBe(2n);
    await conservation();
  });
});
