// The whole devnet, end to end, through the app's client library: start-up, devnet.json, bots
// keeping two-sided books across an epoch roll-over, deposits (plain, permit, while the exchange
// is down), a withdrawal paid on chain, and conservation between chain and exchange.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDevnet, type DevnetHandle } from '../../src/devnet/devnet';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import type { DevnetFile } from '../../src/devnet/devnet-file';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { type ExchangeClient } from '../../src/client';
import { createDepositClient } from '../../src/client';
import { DigestSigner, type Address, type Hex } from '../../src/shared/protocol';
import { devnetClient } from '../../src/exchange/bots';

const PERIOD = 15n; // seconds: short enough to see a roll-over in a test
const ERC20 = ['function balanceOf(address) view returns (uint256)'];
const wait = { timeout: 45_000, interval: 250 };

let temp: TempDevnet | undefined;
let dir: string;
let devnet: DevnetHandle;
let provider: JsonRpcProvider;

const clientFor = (privateKey: Hex): ExchangeClient => devnetClient(devnet, privateKey);

const balanceOf = async (who: string): Promise<bigint> =>
  BigInt((await clientFor(devnet.accounts[0]!.privateKey).getBalance(who as Address)).balance);

async function deposit(privateKey: Hex, amount: string, mode: 'approve' | 'permit'): Promise<bigint> {
  const c = createDepositClient({
    rpcUrl: devnet.rpcUrl,
    expectedChainId: devnet.chainId,
    depositLedger: devnet.contracts.depositLedger,
    wallet: new Wallet(privateKey),
    pollIntervalMs: 100,
  });
  try {
    return (await c.deposit(amount, { mode })).amount;
  } finally {
    c.close();
  }
}

/** Lets the chain mine a few more blocks, so a double credit would have had its chance. */
async function blocksPass(n: number): Promise<void> {
  const start = await provider.getBlockNumber();
  await vi.waitFor(async () => expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(start + n), wait);
}

beforeAll(async () => {
  temp = await startTempDevnet('devnet-test-', {
    bots: 2,
    blockTimeMs: 500,
    botStepMs: 400,
    markets: (nowSec) => {
      const { BTC, ETH } = DEVNET_SYMBOLS;
      const startTime = nowSec - (nowSec % PERIOD);
      return {
        symbols: [BTC, ETH],
        markets: [
          defineMarket({ symbol: BTC, startTime, periodLength: PERIOD }),
          defineMarket({ symbol: ETH, startTime, periodLength: 300n }),
        ],
      };
    },
  });
  devnet = temp.devnet;
  dir = temp.dir;
  provider = new JsonRpcProvider(devnet.rpcUrl, Number(devnet.chainId), { staticNetwork: true });
}, 120_000);

afterAll(async () => {
  provider?.destroy();
  await temp?.stop();
});

describe('startDevnet', () => {
  it('comes up and writes devnet.json with URLs, chain, contracts and demo keys', async () => {
    const file = JSON.parse(await readFile(join(dir, 'devnet', 'devnet.json'), 'utf8')) as DevnetFile;
    expect(file.httpUrl).toBe(devnet.httpUrl);
    expect(file.rpcUrl).toBe(devnet.rpcUrl);
    expect(file.chainId).toBe(devnet.chainId.toString());
    expect(file.contracts).toEqual(devnet.contracts);
    expect(file.domain.verifyingContract).toBe(devnet.contracts.exchange);
    const demo = file.accounts.filter((a) => a.role === 'demo');
    expect(demo.map((a) => a.address)).toEqual(devnet.accounts.map((a) => a.address));
    expect(demo.every((a) => new DigestSigner(a.privateKey as Hex).address === a.address)).toBe(true);
    expect(file.warning).toMatch(/DEVNET ONLY/);
    expect((await clientFor(devnet.accounts[0]!.privateKey).getHealth()).status).toBe('ok');
  });

  it('bots make every book two-sided', async () => {
    const reader = clientFor(devnet.accounts[0]!.privateKey);
    for (const m of devnet.markets.markets) {
      await vi.waitFor(async () => {
        const { epoch } = await reader.getAsset(m.assetId);
        const top = await reader.getTopOfBook(m.assetId, BigInt(epoch));
        expect(top.bid).not.toBeNull();
        expect(top.ask).not.toBeNull();
        expect(BigInt(top.bid!.price)).toBeLessThan(BigInt(top.ask!.price));
      }, wait);
    }
  });

  it('the oracle moves', async () => {
    const reader = clientFor(devnet.accounts[0]!.privateKey);
    const assetId = devnet.markets.markets[0]!.assetId;
    const first = (await reader.getMarkPrice(assetId)).price;
    await vi.waitFor(async () => expect((await reader.getMarkPrice(assetId)).price).not.toBe(first), wait);
  });

  it('credits a plain and a permit deposit exactly once', async () => {
    const alice = devnet.accounts[0]!;
    const before = await balanceOf(alice.address);
    const a = await deposit(alice.privateKey, '100', 'approve');
    const b = await deposit(alice.privateKey, '25.5', 'permit');
    expect(a + b).toBe(125_500_000n);
    await vi.waitFor(async () => expect(await balanceOf(alice.address)).toBe(before + a + b), wait);
    await blocksPass(3);
    expect(await balanceOf(alice.address)).toBe(before + a + b);
  });

  it('credits a deposit made while the exchange is down after it restarts, once', async () => {
    const bob = devnet.accounts[1]!;
    const before = await balanceOf(bob.address);
    let amount = 0n;
    await devnet.restartExchange(async () => {
      amount = await deposit(bob.privateKey, '42', 'approve');
    });
    await vi.waitFor(async () => expect(await balanceOf(bob.address)).toBe(before + amount), wait);
    await blocksPass(3);
    expect(await balanceOf(bob.address)).toBe(before + amount);
  });

  it('pays a withdrawal to the receiver on chain', async () => {
    const carol = devnet.accounts[2]!;
    await deposit(carol.privateKey, '50', 'approve');
    await vi.waitFor(async () => expect(await balanceOf(carol.address)).toBeGreaterThanOrEqual(50_000_000n), wait);
    const receiver = Wallet.createRandom().address;
    const res = await clientFor(carol.privateKey).withdraw({ amount: '12.34', receiver: receiver as Address });
    expect(res.status).toBe('WITHDRAWN');
    const token = new Contract(devnet.contracts.settlementToken, ERC20, provider);
    await vi.waitFor(async () => expect(await token.getFunction('balanceOf')(receiver)).toBe(12_340_000n), wait);
  });

  it('keeps a two-sided book through an epoch roll-over', async () => {
    const reader = clientFor(devnet.accounts[0]!.privateKey);
    const assetId = devnet.markets.markets[0]!.assetId;
    const start = BigInt((await reader.getAsset(assetId)).epoch);
    await vi.waitFor(async () => expect(BigInt((await reader.getAsset(assetId)).epoch)).toBeGreaterThan(start), {
      timeout: 60_000,
      interval: 500,
    });
    const next = BigInt((await reader.getAsset(assetId)).epoch);
    await vi.waitFor(async () => {
      const top = await reader.getTopOfBook(assetId, next);
      expect(top.bid).not.toBeNull();
      expect(top.ask).not.toBeNull();
    }, wait);
    // The old epoch's quotes were withdrawn by the bots (cancel-all on roll-over) or cleared by resolution.
    await vi.waitFor(async () => {
      for (const bot of devnet.botAccounts) {
        const old = await reader.getBookOrders(assetId, start, bot.address);
        expect(old.buys.length + old.sells.length).toBe(0);
      }
    }, wait);
  }, 90_000);
});

describe('startDevnet restarts', () => {
  it("resets a previous run's exchange state on a non-fresh start (the chain does not persist) and says so", async () => {
    const d = await mkdtemp(join(tmpdir(), 'devnet-restart-'));
    try {
      const notices: string[] = [];
      const opts = {
        dataDir: d,
        ports: { http: 0, rpc: 0 },
        bots: 0,
        onProgress: (p: { stage: string; message: string }) => void (p.stage === 'notice' && notices.push(p.message)),
      };
      const first = await startDevnet(opts);
      await first.stop();
      expect(existsSync(join(d, 'devnet.json'))).toBe(false); // removed on a clean stop
      expect(notices).toEqual([]);
      const second = await startDevnet(opts);
      const previous = devnet;
      try {
        expect(notices).toHaveLength(1);
        expect(notices[0]).toMatch(/reset/);
        expect(existsSync(join(d, 'devnet.json'))).toBe(true);
        // Conservation with no trading: tokens held by DepositLedger + AccountLedger equal the sum of
        // exchange balances + locked (pending) + unpaid withdrawals, once every deposit is credited.
        devnet = second;
        const alice = second.accounts[0]!;
        await deposit(alice.privateKey, '300', 'approve');
        await vi.waitFor(async () => expect(await balanceOf(alice.address)).toBe(300_000_000n), wait);
        await clientFor(alice.privateKey).withdraw({ amount: '100', receiver: second.accounts[1]!.address });
        const p = new JsonRpcProvider(second.rpcUrl, Number(second.chainId), { staticNetwork: true });
        try {
          const token = new Contract(second.contracts.settlementToken, ERC20, p);
          await vi.waitFor(
            async () =>
              expect(await token.getFunction('balanceOf')(second.accounts[1]!.address)).toBe(
                1_000_000_000_000n + 100_000_000n,
              ),
            wait,
          );
          const onChain =
            ((await token.getFunction('balanceOf')(second.contracts.depositLedger)) as bigint) +
            ((await token.getFunction('balanceOf')(second.contracts.ledger)) as bigint);
          let onExchange = 0n;
          for (const a of [...second.accounts, ...second.botAccounts]) {
            const b = await clientFor(alice.privateKey).getBalance(a.address);
            onExchange += BigInt(b.balance) + BigInt(b.pending);
          }
          expect(onChain).toBe(onExchange);
          expect(onChain).toBe(200_000_000n);
          expect(second.exchange.checkInvariants()).toEqual([]);
        } finally {
          p.destroy();
        }
      } finally {
        devnet = previous;
        await second.stop();
      }
    } finally {
      await rm(d, { recursive: true, force: true });
    }
  }, 120_000);
});
