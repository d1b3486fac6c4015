/** funds.*: on-chain deposits with progress until credited, confirmed withdrawals, and the devnet faucet. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Contract, JsonRpcProvider } from 'ethers';
import type { DepositProgress, WithdrawalView } from '../../../shared/bridge';
import { formatDollars, toChecksumAddress, type Address, type Hex } from '../../../shared/protocol';
import { sendWithGasMargin } from '../../../shared/gas-margin';
import { pollReceipt } from '../../../shared/receipt-poll';
import { toAmount } from '../../../client';
import { createDepositClient, DepositError, rpcConnection, type DepositClient } from '../../../client';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import { confirmRequest } from '../dialogs/confirm-text';
import type { CoreContext } from '../context';
import { depositRequest, withdrawalRequest } from './funds-dialogs';
import { assertSameFacts, signingFacts } from '../session/signing-facts';
import type { TradingHost } from '../session/host';
import type { TradingSession } from '../session/session';
import { notConnected } from '../session/session';
import { readWithdrawals } from '../session/withdrawals-reader';

const FAUCET_ABI = [
  'function faucet()',
  'function FAUCET_AMOUNT() view returns (uint256)',
  'error FaucetCooldown(uint256 availableAt)',
];

const masterOf = (session: TradingSession): Address => session.desk.master('Choose the account first.');

function snake(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

async function balanceOf(session: TradingSession, master: Address): Promise<bigint> {
  return (await session.reader.getBalance(master)).balance;
}

/** Polls the exchange balance until it grew by `amount` (the deposit watcher credits after confirmations). */
async function waitForCredit(
  session: TradingSession,
  master: Address,
  before: bigint,
  amount: bigint,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await balanceOf(session, master)) >= before + amount) return true;
    } catch {
      /* keep polling until the deadline */
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

export function fundsHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'funds'> {
  return {
    'funds.deposit': async ({ amount, mode }) => {
      if (trading.session().deployment.builtIn === 'practice')
        throw new BridgeFailure(
          'funds.practice',
          'Practice has no chain to deposit from: use Add $1,000 to add play money. Nothing was signed or sent.',
        );
      const session = await trading.connected();
      const master = masterOf(session);
      const facts = session.signers.facts;
      if (!facts) throw notConnected(session.deployment);
      // The pinned spenders only (confirmed with the domain), never the exchange's current configuration.
      const { depositLedger, settlementToken, permit2 } = session.signers.pinnedSpenders();
      const units = toAmount(amount);
      session.signers.assertSigningAllowed();
      const depositId = randomUUID();
      let txHash: Hex | null = null;
      const progress = (
        stage: DepositProgress['stage'],
        confirmations: number,
        required: number,
        message: string,
      ): void => ctx.events.emit('deposit', { depositId, stage, confirmations, required, txHash, message });
      const withClient = <T>(fn: (client: DepositClient) => Promise<T>): Promise<T> =>
        ctx.vault.withWallet(master, async (wallet) => {
          const client = createDepositClient({
            rpcUrl: session.deployment.rpcUrl,
            expectedChainId: facts.chainId,
            depositLedger,
            pinned: { settlementToken, permit2 },
            wallet,
          });
          try {
            return await fn(client);
          } finally {
            client.close();
          }
        });
      // Read-only first: the dialog shows the token, the spender and the transactions this deposit will send.
      const plan = await withClient((client) => client.plan(amount)).catch((error: unknown) => {
        if (error instanceof DepositError) throw new BridgeFailure(`funds.${snake(error.code)}`, error.message);
        throw error;
      });
      const yes = await ctx.dialogs.confirm(depositRequest(plan, mode, session.deployment.name));
      if (!yes) return { confirmed: false };
      const before = await balanceOf(session, master);
      let result;
      try {
        result = await withClient((client) =>
          client.deposit(amount, {
            mode,
            confirmations: 1,
            onProgress: (p) => {
              txHash = p.txHash ?? txHash;
              progress(p.stage, p.confirmations, p.required, `Deposit of ${formatDollars(units)}: ${p.stage}`);
            },
          }),
        );
      } catch (error) {
        if (error instanceof DepositError) {
          progress('failed', 0, 1, error.message);
          throw new BridgeFailure(`funds.${snake(error.code)}`, error.message);
        }
        throw error;
      }
      void (async () => {
        const credited = await waitForCredit(
          session,
          master,
          before,
          units,
          trading.options.creditTimeoutMs ?? 120_000,
        );
        if (credited) {
          // Money in is not a gain: today's loss baseline moves with it (risk/loss-budget.ts).
          ctx.lossBudget.noteTransfer(master, units);
          progress('credited', 1, 1, `${formatDollars(units)} is now on your exchange balance.`);
          await session.desk.refresh();
        } else {
          ctx.events.emit('notice', {
            level: 'warning',
            message: `The deposit ${result.txHash} is on chain but the exchange has not credited it yet.`,
          });
        }
      })();
      return {
        confirmed: true,
        value: { depositId, index: result.index.toString(), txHash: result.txHash, amount: result.amount.toString() },
      };
    },

    'funds.withdraw': async ({ amount, receiver }) => {
      const session = await trading.connected();
      const master = masterOf(session);
      const units = toAmount(amount);
      const to = (receiver ?? master) as Address;
      // Withdrawals are always confirmed, whatever the settings say.
      session.signers.assertSigningAllowed();
      // More than is free is refused here, before main's dialog asks (as a deposit checks the wallet first).
      const free = await balanceOf(session, master);
      if (units > free)
        throw new BridgeFailure(
          'funds.over_balance',
          `Not withdrawn: ${formatDollars(units)} is ${formatDollars(units - free)} more than the ${formatDollars(free)} free on the exchange (collateral in orders and positions cannot be withdrawn). Nothing was signed.`,
        );
      const signing = signingFacts(
        session.deployment,
        ctx.pinning.pinFor(session.deployment.id),
        session.signers.facts?.chainId,
      );
      const yes = await ctx.dialogs.confirm(
        withdrawalRequest({
          units,
          receiver: to,
          master,
          ledger: session.signers.facts?.contracts.ledger,
          token: session.signers.facts?.contracts.settlementToken,
          signing,
        }),
      );
      if (!yes) return { confirmed: false };
      assertSameFacts(
        signing,
        signingFacts(session.deployment, ctx.pinning.pinFor(session.deployment.id), session.signers.facts?.chainId),
      );
      const r = await session.signers.client(master).withdraw({ amount: units, receiver: to });
      // Money out is not a loss: today's loss baseline moves with it (risk/loss-budget.ts).
      if (r.status !== 'WITHDRAWAL_FAILED') ctx.lossBudget.noteTransfer(master, -units);
      await session.desk.refresh();
      const listed = (await readWithdrawals(session.reader, master).catch(() => [])).find(
        (w) => w.id.toLowerCase() === r.id.toLowerCase(),
      );
      const view: WithdrawalView = listed ?? {
        id: r.id,
        amount: units.toString(),
        receiver: toChecksumAddress(to),
        status: r.status,
        txHash: null,
        requestedAt: Date.now(),
      };
      return {
        confirmed: true,
        value: r.status === 'WITHDRAWAL_FAILED' ? { ...view, status: 'WITHDRAWAL_FAILED' } : view,
      };
    },

    'funds.withdrawals': async () => {
      const session = await trading.connected();
      return readWithdrawals(session.reader, masterOf(session));
    },

    'funds.faucet': async () => {
      // Refuse before waiting for a connection: the answer does not depend on one.
      const deployment = trading.session().deployment;
      if (deployment.builtIn !== 'devnet') {
        throw new BridgeFailure(
          'funds.not_devnet',
          `The faucet exists only on the local devnet; ${deployment.name} has no faucet, so no tokens were minted.`,
        );
      }
      const session = await trading.connected();
      const master = masterOf(session);
      // The pinned token: a transaction goes only to a contract the user confirmed.
      const token = session.signers.pinnedSpenders().settlementToken;
      const provider = new JsonRpcProvider(rpcConnection(session.deployment.rpcUrl), undefined, {
        staticNetwork: true,
        batchMaxCount: 1,
      });
      try {
        const minted = (await new Contract(token, FAUCET_ABI, provider)
          .getFunction('FAUCET_AMOUNT')
          .staticCall()) as bigint;
        const yes = await ctx.dialogs.confirm(
          confirmRequest({
            capability: 'moves-value',
            title: 'Devnet faucet',
            action: 'Send a faucet transaction that mints test tokens to your wallet',
            confirmLabel: 'Send transaction',
            amount: { units: minted },
            receiver: master,
            token,
            from: master,
            chainId: session.deployment.chainId,
            deploymentName: session.deployment.name,
            notes: ['One transaction from your wallet on chain; it pays a little gas.'],
          }),
        );
        if (!yes) return { confirmed: false };
        const amount = await ctx.vault.withWallet(master, async (wallet) => {
          const contract = new Contract(token, FAUCET_ABI, wallet.connect(provider));
          try {
            const tx = await sendWithGasMargin(contract.getFunction('faucet'));
            // Polled by hand: tx.wait()'s block listeners outlive it and reject once the provider is destroyed below.
            const receipt = await pollReceipt(provider, tx.hash, { pollMs: 250, deadline: Date.now() + 60_000, sleep });
            if (!receipt)
              throw new BridgeFailure(
                'funds.faucet_timeout',
                'The faucet transaction was not mined within a minute; try again.',
              );
            if (receipt.status !== 1)
              throw new BridgeFailure('funds.faucet_reverted', 'The faucet transaction reverted on chain.');
          } catch (error) {
            if (error instanceof Error && /FaucetCooldown|execution reverted/.test(error.message)) {
              throw new BridgeFailure(
                'funds.faucet_cooldown',
                'The faucet gives each address tokens once an hour; try again later.',
              );
            }
            throw error;
          }
          return minted;
        });
        await session.desk.refresh();
        return { confirmed: true, value: { amount: amount.toString() } };
      } finally {
        provider.destroy();
      }
    },
  };
}
