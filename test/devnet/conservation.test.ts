// Conservation between chain and exchange while the bots trade (issue 5, item 7), checked at several
// moments: bots trading, a deposit mined but not yet credited, after its credit, a withdrawal queued,
// after its payout, across epoch roll-overs, and once everything has settled.
//
// The exact equation, for a chain read pinned at block B and exchange totals taken while the chain
// head stays at B (so the exchange cannot have seen anything later than B):
//
//   token.balanceOf(DepositLedger)@B + token.balanceOf(AccountLedger)@B
//     = free + pending + positionCollateral + queuedWithdrawals         (exchange totals)
//     + inFlight       (deposits queued on chain up to B, not yet credited by the exchange)
//     − paidUnjournaled (withdrawals paid on chain up to B that the exchange still lists as queued)
//
// where inFlight and paidUnjournaled are not free variables:
//   - the exchange credits deposits in index order, so `credited` is a prefix sum of the
//     DepositQueued amounts up to B, and inFlight is the sum of the rest (≥ 0);
//   - payouts are sent one at a time and journaled right after they are mined, so at most the
//     latest WithdrawalPaid up to B can be unjournaled (0 otherwise), and it is still queued.
// Trading (orders, fills, claims) moves money between free, pending and positionCollateral only, so
// the equation holds whatever the bots do; the engine's own identity
// free + pending + positionCollateral + queuedWithdrawals = credited − paidOut is checked too.
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devnetContract } from '../../src/devnet/chain/contracts';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { type ExchangeClient, MarketFeed } from '../../src/client';
import { createDepositClient } from '../../src/client';
import type { Address, Hex } from '../../src/shared/protocol';
import { devnetClient } from '../../src/exchange/bots';

const PERIOD = 10n; // seconds: several epochs within the test
/** Blocks before a deposit is credited: with 500 ms blocks, a window in which a mined deposit is surely in flight. */
const CONFIRMATIONS = 4;
const ERC20 = ['function balanceOf(address) view returns (uint256)'];
const wait = { timeout: 45_000, interval: 200 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let provider: JsonRpcProvider;

interface Moment {
  label: string;
  block: number;
  onChain: bigint;
  exchange: bigint;
  inFlight: bigint;
  paidUnjournaled: bigint;
  queued: bigint;
  positionCollateral: bigint;
}

const sum = (xs: bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);

/** One consistent reading of chain and exchange (see the header), with every clause asserted. */
async function conservation(label: string): Promise<Moment> {
  const token = new Contract(devnet.contracts.settlementToken, ERC20, provider);
  const depositLedger = devnetContract('DepositLedger', devnet.contracts.depositLedger, provider);
  const accountLedger = devnetContract('AccountLedger', devnet.contracts.ledger, provider);
  for (let attempt = 0; attempt < 50; attempt++) {
    const block = await provider.getBlockNumber();
    const before = devnet.exchange.totals();
    const [dl, al, queuedLogs, paidLogs] = await Promise.all([
      token.getFunction('balanceOf')(devnet.contracts.depositLedger, { blockTag: block }) as Promise<bigint>,
      token.getFunction('balanceOf')(devnet.contracts.ledger, { blockTag: block }) as Promise<bigint>,
      depositLedger.queryFilter(depositLedger.filters['DepositQueued']!(), 0, block),
      accountLedger.queryFilter(accountLedger.filters['WithdrawalPaid']!(), 0, block),
    ]);
    const t = devnet.exchange.totals();
    // Retry unless the head stayed at B and the exchange's money did not move during the read.
    if ((await provider.getBlockNumber()) !== block || t.credited !== before.credited || t.paidOut !== before.paidOut)
      continue;

    const amountOf = (log: unknown): bigint => (log as { args: { amount: bigint } }).args.amount;
    const queuedAmounts = queuedLogs.map(amountOf); // chain order = index order
    const paidAmounts = paidLogs.map(amountOf);
    const exchange = t.free + t.pending + t.positionCollateral + t.queuedWithdrawals;
    expect(exchange, `${label}: engine identity`).toBe(t.credited - t.paidOut);

    // credited is a prefix sum of the deposits queued up to B.
    let prefix = 0n;
    const prefixes = [0n, ...queuedAmounts.map((a) => (prefix += a))];
    expect(prefixes, `${label}: credited is a prefix of the chain's deposits`).toContain(t.credited);
    const inFlight = sum(queuedAmounts) - t.credited;

    // At most the latest payout is paid on chain but not yet journaled, and then it is still queued.
    const paidUnjournaled = sum(paidAmounts) - t.paidOut;
    expect([0n, paidAmounts.at(-1) ?? 0n], `${label}: unjournaled payout`).toContain(paidUnjournaled);
    expect(paidUnjournaled <= t.queuedWithdrawals, `${label}: an unjournaled payout is still queued`).toBe(true);

    const onChain = dl + al;
    expect(onChain, `${label}: chain = exchange + in flight − paid unjournaled`).toBe(
      exchange + inFlight - paidUnjournaled,
    );
    expect(devnet.exchange.checkInvariants(), label).toEqual([]);
    return {
      label,
      block,
      onChain,
      exchange,
      inFlight,
      paidUnjournaled,
      queued: t.queuedWithdrawals,
      positionCollateral: t.positionCollateral,
    };
  }
  throw new Error(`${label}: no consistent reading in 50 attempts`);
}

const clientFor = (privateKey: Hex): ExchangeClient => devnetClient(devnet, privateKey);

beforeAll(async () => {
  temp = await startTempDevnet('devnet-conservation-', {
    bots: 2,
    blockTimeMs: 500,
    botStepMs: 400,
    confirmations: CONFIRMATIONS,
    markets: (nowSec) => {
      const { BTC, ETH } = DEVNET_SYMBOLS;
      const startTime = nowSec - (nowSec % PERIOD);
      return {
        symbols: [BTC, ETH],
        markets: [
          defineMarket({ symbol: BTC, startTime, periodLength: PERIOD }),
          defineMarket({ symbol: ETH, startTime, periodLength: 60n }),
        ],
      };
    },
  });
  devnet = temp.devnet;
  provider = new JsonRpcProvider(devnet.rpcUrl, Number(devnet.chainId), { staticNetwork: true });
}, 120_000);

afterAll(async () => {
  provider?.destroy();
  await temp?.stop();
});

describe('conservation between chain and exchange while bots trade', () => {
  it('holds at every moment: trading, deposit in flight, withdrawal queued and paid, across epochs', async () => {
    const alice = devnet.accounts[0]!;
    const reader = clientFor(alice.privateKey);
    const btc = devnet.markets.markets[0]!.assetId;
    const feed = new MarketFeed({ url: devnet.marketWsUrl });
    let trades = 0;
    const sub = feed.subscribe(btc, { onUpdate: (u) => void (u.type === 'trade' && trades++) });
    const moments: Moment[] = [];
    try {
      await sub.ready;
      moments.push(await conservation('bots funded and quoting'));
      const startEpoch = BigInt((await reader.getAsset(btc)).epoch);

      // A deposit: mined, then (CONFIRMATIONS blocks later) credited.
      const deposits = createDepositClient({
        rpcUrl: devnet.rpcUrl,
        expectedChainId: devnet.chainId,
        depositLedger: devnet.contracts.depositLedger,
        wallet: new Wallet(alice.privateKey),
        pollIntervalMs: 100,
      });
      let deposited;
      try {
        deposited = await deposits.deposit('500', { mode: 'approve', confirmations: 1 });
      } finally {
        deposits.close();
      }
      const mined = await conservation('deposit mined');
      moments.push(mined);
      // Before its CONFIRMATIONS-th block the exchange must not have credited it: it is in flight.
      if (BigInt(mined.block) < deposited.blockNumber + BigInt(CONFIRMATIONS) - 1n)
        expect(mined.inFlight).toBe(deposited.amount);
      await vi.waitFor(
        async () =>
          expect(BigInt((await reader.getBalance(alice.address)).balance)).toBeGreaterThanOrEqual(deposited.amount),
        wait,
      );
      moments.push(await conservation('deposit credited'));

      // A withdrawal: queued on the exchange, then paid on chain by the operator.
      const receiver = Wallet.createRandom().address as Address;
      expect((await reader.withdraw({ amount: '123.45', receiver })).status).toBe('WITHDRAWN');
      moments.push(await conservation('withdrawal requested'));
      const token = new Contract(devnet.contracts.settlementToken, ERC20, provider);
      await vi.waitFor(async () => expect(await token.getFunction('balanceOf')(receiver)).toBe(123_450_000n), wait);
      moments.push(await conservation('withdrawal paid on chain'));

      // Bots keep trading across roll-overs; a reading per epoch.
      for (let e = 1n; e <= 3n; e++) {
        await vi.waitFor(
          async () => expect(BigInt((await reader.getAsset(btc)).epoch)).toBeGreaterThanOrEqual(startEpoch + e),
          wait,
        );
        moments.push(await conservation(`epoch ${startEpoch + e}`));
      }
      await vi.waitFor(() => expect(trades).toBeGreaterThan(0), wait);

      // Settled: nothing in flight, nothing queued, so chain and exchange agree term for term.
      await vi.waitFor(() => expect(devnet.exchange.totals().queuedWithdrawals).toBe(0n), wait);
      const settled = await conservation('settled');
      moments.push(settled);
      expect(settled.inFlight).toBe(0n);
      expect(settled.paidUnjournaled).toBe(0n);
      expect(settled.onChain).toBe(settled.exchange);
      // Alice's 500 in, 123.45 out, on top of the bots' deposits.
      expect(settled.onChain).toBe(moments[0]!.onChain + deposited.amount - 123_450_000n);
      // The bots did trade: fills on the tape, and money in open positions at some reading.
      expect(trades).toBeGreaterThan(0);
      expect(moments.some((m) => m.positionCollateral > 0n)).toBe(true);
    } finally {
      await sub.unsubscribe().catch(() => {});
      feed.close();
      // The readings, for whoever reads the test output (a failure names the moment already).
      process.stdout.write(
        `${moments.map((m) => `${m.label}: block ${m.block} chain ${m.onChain} inFlight ${m.inFlight} queued ${m.queued} paidUnjournaled ${m.paidUnjournaled} positions ${m.positionCollateral}`).join('\n')}\n`,
      );
    }
  }, 180_000);
});
