import { startChainSync } from './chain-sync';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type DevnetChain } from './chain';
import { devnetContract } from './chain/contracts';
import { DigestSigner, type Address } from '../shared/protocol';
import {
  startExchangeService,
  type ExchangeServiceHandle,
  type ExchangeServiceOptions,
} from '../exchange/service/service';
import { jsonClient, signedBody, withdrawalOrder } from '../../test/support/exchange/testkit';
import { minedReceipt } from './chain/rpc';

let chain: DevnetChain;
let provider: JsonRpcProvider;
let dataDir: string;
let svc: ExchangeServiceHandle;
let options: ExchangeServiceOptions;
type Body = Record<string, unknown>;
/** Asymmetric matchers typed as unknown (they are `any` in vitest's types). */
const matching = (re: RegExp): unknown => expect.stringMatching(re) as unknown;

beforeAll(async () => {
  chain = await startChain({ port: 0, accounts: 2 });
  provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
  dataDir = await mkdtemp(join(tmpdir(), 'exchange-chain-'));
  // A frozen exchange clock: the restart below compares state hashes, and a real clock could cross
  // an epoch boundary in between, which the restarted scheduler would (rightly) resolve.
  const frozen = Date.now();
  options = {
    clock: () => frozen,
    dataDir,
    chainId: chain.chainId,
    chain: {
      rpcUrl: chain.rpcUrl,
      contracts: chain.contracts,
      operatorKey: chain.operator.privateKey,
      confirmations: 1,
      pollIntervalMs: 600_000,
      start: startChainSync,
    },
    schedulerIntervalMs: 0,
    pingIntervalMs: 0,
    oracle: { publishIntervalMs: 0 },
    onError: () => undefined,
  };
  svc = await startExchangeService({ ...options, fresh: true });
});

afterAll(async () => {
  await svc?.stop();
  provider?.destroy();
  await chain?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const token = (runner: JsonRpcProvider | Wallet = provider) =>
  devnetContract('SettlementToken', chain.contracts.settlementToken, runner);
const balanceOf = (a: string) => token().getFunction('balanceOf')(a) as Promise<bigint>;

async function deposit(i: number, amount: bigint): Promise<void> {
  const wallet = new Wallet(chain.accounts[i]!.privateKey, provider);
  await minedReceipt(
    provider,
    (await token(wallet).getFunction('approve').send(chain.contracts.depositLedger, amount)).hash,
    'approve',
  );
  await minedReceipt(
    provider,
    (await devnetContract('DepositLedger', chain.contracts.depositLedger, wallet).getFunction('deposit').send(amount))
      .hash,
    'deposit',
  );
}

const ledgerBalance = async (a: string) =>
  BigInt((await jsonClient(svc.httpUrl).get<Body>(`/balance/${a}`)).body['balance'] as string);

describe('exchange service on a real chain', () => {
  it('credits a deposit once, sweeps it, and pays a withdrawal on chain exactly once', async () => {
    const user = chain.accounts[0]!;
    await deposit(0, 50_000_000n);
    await svc.pollChain();
    await svc.pollChain();
    expect(await ledgerBalance(user.address)).toBe(50_000_000n);
    expect((await jsonClient(svc.httpUrl).get<Body>(`/config/chains/${chain.chainId}`)).body).toEqual({
      chainId: chain.chainId.toString(),
      contracts: chain.contracts,
    });

    // One more block lets the deposit age past minBlockWait; the next round sweeps it.
    await provider.send('evm_mine', []);
    await svc.pollChain();
    expect(await balanceOf(chain.contracts.ledger)).toBe(50_000_000n);

    const http = jsonClient(svc.httpUrl);
    const key = new DigestSigner(user.privateKey);
    const receiver: Address = chain.accounts[1]!.address;
    const before = await balanceOf(receiver);
    const w = await http.post<Body>(
      '/withdrawals',
      signedBody(
        'withdrawals',
        withdrawalOrder({ key }, { amount: 20_000_000n, ledger: chain.contracts.ledger, receiver }),
        svc.domain,
        key,
      ),
    );
    expect(w).toMatchObject({ status: 202, body: { status: 'WITHDRAWN' } });
    expect(await ledgerBalance(user.address)).toBe(30_000_000n);
    let list: Body[] = [];
    for (let i = 0; i < 20; i++) {
      await svc.pollChain();
      list = (await http.get<Body>(`/withdrawals/${user.address}`)).body['withdrawals'] as Body[];
      if (list[0]?.['status'] === 'PAID') break;
    }
    expect(list).toEqual([
      expect.objectContaining({ id: w.body['id'], status: 'PAID', txHash: matching(/^0x[0-9a-f]{64}$/) }),
    ]);
    expect(await balanceOf(receiver)).toBe(before + 20_000_000n);
    expect(svc.checkInvariants()).toEqual([]);

    // Restart: nothing is credited or paid twice; a deposit made while down is credited once.
    const hash = svc.stateHash();
    await svc.stop();
    await deposit(1, 7_000_000n);
    svc = await startExchangeService(options);
    expect(svc.stateHash()).toBe(hash);
    await svc.pollChain();
    await svc.pollChain();
    expect(await ledgerBalance(user.address)).toBe(30_000_000n);
    expect(await ledgerBalance(chain.accounts[1]!.address)).toBe(7_000_000n);
    expect(await balanceOf(receiver)).toBe(before + 20_000_000n - 7_000_000n);
    expect(svc.checkInvariants()).toEqual([]);
  });
});
