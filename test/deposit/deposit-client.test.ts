import { Contract, JsonRpcProvider, Network, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from '../../src/shared/protocol';
import { startChain, type DevnetChain } from '../../src/devnet/chain';
import { DEPOSIT_LEDGER_ABI, ERC20_ABI } from '../../src/client/deposit/abi';
import { createDepositClient, type DepositClient, type ChainDepositProgress } from '../../src/client/deposit/client';
import { DepositError, toDepositError } from '../../src/client/deposit/errors';
import { signDepositPermit } from '../../src/client/deposit/permit';
import { minedReceipt } from '../../src/devnet/chain/rpc';

// One chain for the whole file; each test uses its own demo account so balances stay independent.
let chain: DevnetChain;
let provider: JsonRpcProvider;
const clients: DepositClient[] = [];

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 6 });
  provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
});

afterAll(async () => {
  for (const c of clients) c.close();
  provider?.destroy();
  await chain?.stop();
});

function clientFor(privateKey: string, expectedChainId = chain.chainId): DepositClient {
  const client = createDepositClient({
    rpcUrl: chain.rpcUrl,
    expectedChainId,
    depositLedger: chain.contracts.depositLedger,
    wallet: new Wallet(privateKey),
    pollIntervalMs: 20,
  });
  clients.push(client);
  return client;
}

const token = () => new Contract(chain.contracts.settlementToken, ERC20_ABI, provider);
const ledger = () => new Contract(chain.contracts.depositLedger, DEPOSIT_LEDGER_ABI, provider);
const balanceOf = (a: string) => token().getFunction('balanceOf')(a) as Promise<bigint>;

async function snapshot(owner: string) {
  return {
    owner: await balanceOf(owner),
    depositLedger: await balanceOf(chain.contracts.depositLedger),
    next: (await ledger().getFunction('nextPendingDepositId')()) as bigint,
    pending: (await ledger().getFunction('pendingBalance')()) as bigint,
  };
}

async function rejection(p: Promise<unknown>): Promise<DepositError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DepositError);
  return err as DepositError;
}

describe('deposit client', () => {
  it('plans a deposit from the DepositLedger’s own addresses', async () => {
    const alice = chain.accounts[0]!;
    const plan = await clientFor(alice.privateKey).plan('100.25');
    expect(plan).toMatchObject({
      amount: 100_250_000n,
      amountHuman: '100.25',
      owner: alice.address,
      chainId: 31337n,
      settlementToken: chain.contracts.settlementToken,
      accountLedger: chain.contracts.ledger,
      permit2: chain.contracts.permit2,
      tokenSymbol: 'dUSD',
      approve: { approvalNeeded: true, transactions: 2 },
      permit: { permit2ApprovalNeeded: true, transactions: 2 },
    });
    expect(plan.tokenBalance).toBe(1_000_000_000_000n);
  });

  it('approve mode: approves, deposits, emits DepositQueued with the next index and moves the tokens', async () => {
    const alice = chain.accounts[0]!;
    const before = await snapshot(alice.address);
    const stages: ChainDepositProgress[] = [];
    const result = await clientFor(alice.privateKey).deposit('100', {
      mode: 'approve',
      onProgress: (p) => stages.push(p),
    });
    expect(result.amount).toBe(100_000_000n);
    expect(result.index).toBe(before.next);
    const after = await snapshot(alice.address);
    expect(after.owner).toBe(before.owner - 100_000_000n);
    expect(after.depositLedger).toBe(before.depositLedger + 100_000_000n);
    expect(after.next).toBe(before.next + 1n);
    expect(after.pending).toBe(before.pending + 100_000_000n);
    expect(stages.map((s) => s.stage)).toEqual(['checking', 'approving', 'approved', 'sent', 'mined']);
    expect(stages.at(-1)).toMatchObject({ stage: 'mined', txHash: result.txHash, confirmations: 1, required: 1 });

    // The receipt's log is the source of the index.
    const receipt = await provider.getTransactionReceipt(result.txHash);
    const parsed = ledger().interface.parseLog(receipt!.logs.at(-1)!);
    expect(parsed?.name).toBe('DepositQueued');
    expect([...parsed!.args]).toEqual([result.index, alice.address, 100_000_000n]);
    expect(BigInt(receipt!.blockNumber)).toBe(result.blockNumber);
  });

  it('approve mode skips the approval when the allowance already suffices', async () => {
    const bob = chain.accounts[1]!;
    const bobWallet = new Wallet(bob.privateKey, provider);
    await minedReceipt(
      provider,
      (
        await new Contract(chain.contracts.settlementToken, ERC20_ABI, bobWallet)
          .getFunction('approve')
          .send(chain.contracts.depositLedger, 5_000_000n)
      ).hash,
      'approve',
    );
    const stages: string[] = [];
    await clientFor(bob.privateKey).deposit('5', { mode: 'approve', onProgress: (p) => stages.push(p.stage) });
    expect(stages).toEqual(['checking', 'sent', 'mined']);
  });

  it('permit mode: approves Permit2 for exactly each deposit (never more), then one signed permit and one transaction', async () => {
    const carol = chain.accounts[2]!;
    const client = clientFor(carol.privateKey);
    const before = await snapshot(carol.address);
    const first: string[] = [];
    const r1 = await client.deposit('250.5', { mode: 'permit', onProgress: (p) => first.push(p.stage) });
    expect(first).toEqual(['checking', 'approving', 'approved', 'signing-permit', 'sent', 'mined']);
    const second: string[] = [];
    const r2 = await client.deposit('0.01', { mode: 'permit', onProgress: (p) => second.push(p.stage) });
    expect(second).toEqual(['checking', 'approving', 'approved', 'signing-permit', 'sent', 'mined']);
    expect([r1.index, r2.index]).toEqual([before.next, before.next + 1n]);
    // Each approval was spent by its own deposit: no standing allowance is left behind.
    expect(
      await new Contract(chain.contracts.settlementToken, ERC20_ABI, provider).getFunction('allowance')(
        carol.address,
        chain.contracts.permit2,
      ),
    ).toBe(0n);
    const after = await snapshot(carol.address);
    expect(after.owner).toBe(before.owner - 250_510_000n);
    expect(after.depositLedger).toBe(before.depositLedger + 250_510_000n);
  });

  it('waits for and reports the requested confirmations', async () => {
    const dave = chain.accounts[3]!;
    const stages: ChainDepositProgress[] = [];
    const mining = setInterval(() => void provider.send('evm_mine', []).catch(() => undefined), 30);
    try {
      const result = await clientFor(dave.privateKey).deposit('1', {
        mode: 'approve',
        confirmations: 3,
        onProgress: (p) => stages.push(p),
      });
      expect(BigInt(await provider.getBlockNumber()) - result.blockNumber + 1n).toBeGreaterThanOrEqual(3n);
    } finally {
      clearInterval(mining);
    }
    const confirmations = stages.filter((s) => s.stage === 'confirmations');
    expect(confirmations.at(-1)).toMatchObject({ confirmations: 3, required: 3 });
    expect(confirmations.map((s) => s.confirmations)).toEqual([...confirmations.map((s) => s.confirmations)].sort());
  });

  it('rejects an expired permit at the contract with PERMIT_EXPIRED and changes nothing', async () => {
    const erin = chain.accounts[4]!;
    const wallet = new Wallet(erin.privateKey, provider);
    await minedReceipt(
      provider,
      (
        await new Contract(chain.contracts.settlementToken, ERC20_ABI, wallet)
          .getFunction('approve')
          .send(chain.contracts.permit2, 10n ** 30n)
      ).hash,
      'approve',
    );
    const before = await snapshot(erin.address);
    const now = BigInt((await provider.getBlock('latest'))!.timestamp);
    const permit = signDepositPermit({
      chainId: chain.chainId,
      permit2: chain.contracts.permit2,
      token: chain.contracts.settlementToken,
      spender: chain.contracts.depositLedger,
      amount: 1_000_000n,
      nonce: 7n,
      deadline: now - 1n,
      privateKey: erin.privateKey,
    });
    const call = new Contract(chain.contracts.depositLedger, DEPOSIT_LEDGER_ABI, wallet).getFunction(
      'depositWithPermit',
    );
    const err = toDepositError(
      await call(1_000_000n, 7n, erin.address, now - 1n, permit.signature).catch((e: unknown) => e),
    );
    expect(err.code).toBe('PERMIT_EXPIRED');
    expect(err.message).toMatch(/expired/);
    expect(await snapshot(erin.address)).toEqual(before);

    // The client refuses an already-passed deadline before signing or sending.
    const clientErr = await rejection(
      clientFor(erin.privateKey).deposit('1', { mode: 'permit', permit: { deadline: now - 1n } }),
    );
    expect(clientErr.code).toBe('PERMIT_EXPIRED');
    expect(await snapshot(erin.address)).toEqual(before);
  });

  it('rejects a permit signed by another key with PERMIT_INVALID and changes nothing', async () => {
    const erin = chain.accounts[4]!;
    const mallory = Wallet.createRandom();
    const before = await snapshot(erin.address);
    const deadline = BigInt((await provider.getBlock('latest'))!.timestamp) + 600n;
    const forged = signDepositPermit({
      chainId: chain.chainId,
      permit2: chain.contracts.permit2,
      token: chain.contracts.settlementToken,
      spender: chain.contracts.depositLedger,
      amount: 1_000_000n,
      nonce: 8n,
      deadline,
      privateKey: mallory.privateKey as Hex,
    });
    // Submitted by mallory, claiming erin as owner: Permit2 must refuse.
    const malloryWallet = new Wallet(chain.accounts[5]!.privateKey, provider);
    const call = new Contract(chain.contracts.depositLedger, DEPOSIT_LEDGER_ABI, malloryWallet).getFunction(
      'depositWithPermit',
    );
    const err = toDepositError(
      await call(1_000_000n, 8n, erin.address, deadline, forged.signature).catch((e: unknown) => e),
    );
    expect(err.code).toBe('PERMIT_INVALID');
    expect(err.message).toMatch(/signature/);
    expect(err.message).not.toContain(mallory.privateKey.slice(2));
    expect(await snapshot(erin.address)).toEqual(before);
  });

  it('rejects a reused permit nonce with PERMIT_NONCE_USED', async () => {
    const erin = chain.accounts[4]!;
    const client = clientFor(erin.privateKey);
    const first = await client.deposit('2', { mode: 'permit', permit: { nonce: 123_456_789n } });
    expect(first.amount).toBe(2_000_000n);
    const before = await snapshot(erin.address);
    const err = await rejection(client.deposit('2', { mode: 'permit', permit: { nonce: 123_456_789n } }));
    expect(err.code).toBe('PERMIT_NONCE_USED');
    expect(await snapshot(erin.address)).toEqual(before);
  });

  it('refuses to act when the RPC is on another chain', async () => {
    const alice = chain.accounts[0]!;
    const before = await snapshot(alice.address);
    const client = clientFor(alice.privateKey, 8453n);
    expect((await rejection(client.plan('1'))).code).toBe('WRONG_CHAIN');
    const err = await rejection(client.deposit('1', { mode: 'approve' }));
    expect(err.code).toBe('WRONG_CHAIN');
    expect(err.message).toContain('31337');
    expect(await snapshot(alice.address)).toEqual(before);
  });

  it('rejects bad amounts with INVALID_AMOUNT before touching the chain', async () => {
    const client = clientFor(chain.accounts[0]!.privateKey);
    for (const bad of ['0', '1.001', '-1', '01', '1000000000.01', '1e3', '']) {
      expect((await rejection(client.plan(bad))).code, bad).toBe('INVALID_AMOUNT');
    }
  });

  it('reports INSUFFICIENT_TOKEN_BALANCE and INSUFFICIENT_GAS from the pre-flight checks', async () => {
    const poor = Wallet.createRandom();
    await provider.send('hardhat_setBalance', [poor.address, '0xde0b6b3a7640000']);
    const tokenErr = await rejection(clientFor(poor.privateKey).plan('1'));
    expect(tokenErr.code).toBe('INSUFFICIENT_TOKEN_BALANCE');
    expect(tokenErr.message).toContain('0 dUSD');

    const noGas = Wallet.createRandom();
    const operator = new Wallet(chain.operator.privateKey, provider);
    const mint = new Contract(
      chain.contracts.settlementToken,
      ['function mint(address,uint256)'],
      operator,
    ).getFunction('mint');
    await minedReceipt(provider, (await mint.send(noGas.address, 5_000_000n)).hash, 'mint');
    const gasErr = await rejection(clientFor(noGas.privateKey).deposit('5', { mode: 'approve' }));
    expect(gasErr.code).toBe('INSUFFICIENT_GAS');
    expect(await balanceOf(noGas.address)).toBe(5_000_000n);
  });
});
