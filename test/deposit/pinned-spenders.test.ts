// Deposits pay only the contracts the user pinned: when the deposit ledger names another settlement
// token or Permit2 than the pinned ones, nothing is approved, signed or sent.
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type DevnetChain } from '../../src/devnet/chain';
import { createDepositClient, type DepositClient } from '../../src/client/deposit/client';
import type { Address } from '../../src/shared/protocol';

let chain: DevnetChain;
let provider: JsonRpcProvider;
const clients: DepositClient[] = [];
const OTHER = '0x00000000000000000000000000000000000000aa' as Address;

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 2 });
  provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
});

afterAll(async () => {
  for (const c of clients) c.close();
  provider?.destroy();
  await chain?.stop();
});

function clientPinned(pinned: { settlementToken: Address; permit2: Address }): DepositClient {
  const client = createDepositClient({
    rpcUrl: chain.rpcUrl,
    expectedChainId: chain.chainId,
    depositLedger: chain.contracts.depositLedger,
    pinned,
    wallet: new Wallet(chain.accounts[0]!.privateKey),
    pollIntervalMs: 20,
  });
  clients.push(client);
  return client;
}

describe('pinned spenders', () => {
  it('plans a deposit when the ledger names the pinned token and Permit2', async () => {
    const plan = await clientPinned({
      settlementToken: chain.contracts.settlementToken,
      permit2: chain.contracts.permit2.toLowerCase() as Address,
    }).plan('1');
    expect(plan.settlementToken.toLowerCase()).toBe(chain.contracts.settlementToken.toLowerCase());
    expect(plan.permit2.toLowerCase()).toBe(chain.contracts.permit2.toLowerCase());
  });

  it('refuses, sending nothing, when the ledger names another Permit2 or token than the pinned one', async () => {
    const owner = chain.accounts[0]!.address;
    const nonce = await provider.getTransactionCount(owner);
    for (const [pinned, what] of [
      [{ settlementToken: chain.contracts.settlementToken, permit2: OTHER }, 'Permit2'],
      [{ settlementToken: OTHER, permit2: chain.contracts.permit2 }, 'settlement token'],
    ] as const) {
      const client = clientPinned(pinned);
      await expect(client.deposit('1', { mode: 'permit' })).rejects.toMatchObject({
        code: 'SPENDER_MISMATCH',
        message: expect.stringMatching(
          new RegExp(
            `as its ${what}, but the pinned ${what} of this deployment is ${OTHER}: nothing was approved or sent\\.$`,
          ),
        ) as string,
      });
      await expect(client.deposit('1', { mode: 'approve' })).rejects.toMatchObject({ code: 'SPENDER_MISMATCH' });
    }
    expect(await provider.getTransactionCount(owner)).toBe(nonce);
  });
});
