/**
 * Blocks faster than the providers poll: the operator helpers open a provider, send, wait for the
 * receipt and destroy the provider. With ethers' `tx.wait()` the block listeners it leaves behind
 * rejected unhandled after `destroy()` ("provider destroyed; cancelled request"), which crashed the
 * e2e worker that hosts the devnet. Nothing may be left running once a helper returns.
 */
import { Wallet, randomBytes, hexlify } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetContract } from './contracts';
import { payWithdrawal } from './pay-withdrawal';
import { processDeposits } from './process-deposits';
import { minedReceipt, pinnedProvider } from './rpc';
import { startChain, type DevnetChain } from './start-chain';
import type { Address, Hex } from './types';

const BLOCK_MS = 40; // well under pinnedProvider's 250 ms polling: several blocks per poll

let chain: DevnetChain;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  chain = await startChain({ port: 0, accounts: 1, blockTime: BLOCK_MS });
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await chain?.stop();
});

describe('operator helpers on a chain with fast interval mining', () => {
  it('sweep and pay out repeatedly, leaving no request behind to reject after the provider is gone', async () => {
    const provider = pinnedProvider(chain.rpcUrl, chain.chainId);
    try {
      const wallet = new Wallet(chain.accounts[0]!.privateKey, provider);
      const amount = 50_000_000n;
      const token = devnetContract('SettlementToken', chain.contracts.settlementToken, wallet);
      await minedReceipt(
        provider,
        (await token.getFunction('approve').send(chain.contracts.depositLedger, amount)).hash,
        'approve',
      );
      const deposit = devnetContract('DepositLedger', chain.contracts.depositLedger, wallet).getFunction('deposit');
      await minedReceipt(provider, (await deposit.send(amount)).hash, 'deposit');
    } finally {
      provider.destroy();
    }

    // minBlockWait is one block: the sweep is ready once the next block is mined.
    let swept = 0n;
    for (let attempt = 0; attempt < 20 && swept === 0n; attempt++) {
      const result = await processDeposits({
        rpcUrl: chain.rpcUrl,
        depositLedger: chain.contracts.depositLedger,
        operatorKey: chain.operator.privateKey,
      });
      swept = result.swept.reduce((sum, s) => sum + s.amount, 0n);
    }
    expect(swept).toBe(50_000_000n);

    const receiver = Wallet.createRandom().address;
    for (let i = 0; i < 8; i++) {
      const txHash = await payWithdrawal({
        rpcUrl: chain.rpcUrl,
        ledger: chain.contracts.ledger,
        operatorKey: chain.operator.privateKey,
        receiver: receiver as Address,
        amount: 1_000_000n,
        withdrawalId: hexlify(randomBytes(32)) as Hex,
      });
      expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    }

    // Give anything left behind time to fail: many blocks and several polling intervals.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(unhandled.map((r) => (r instanceof Error ? r.message : String(r)))).toEqual([]);

    const check = pinnedProvider(chain.rpcUrl, chain.chainId);
    try {
      const paid = (await devnetContract('SettlementToken', chain.contracts.settlementToken, check).getFunction(
        'balanceOf',
      )(receiver)) as bigint;
      expect(paid).toBe(8_000_000n);
    } finally {
      check.destroy();
    }
  });
});
