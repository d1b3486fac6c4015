// Wiring to the devnet chain (issue 5, item 3): DepositQueued events become journaled typ-7 credits
// (exactly once, keyed by deposit index, including deposits made while the service was down),
// queued deposits are swept into the AccountLedger, and queued withdrawals are paid on chain
// exactly once (the AccountLedger refuses a second payout of an id) with retries on failure.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ChainError,
  payWithdrawal,
  processDeposits,
  watchDeposits,
  type DepositWatcher,
  type QueuedDepositEvent,
} from './chain';
import { ZERO_HASH, type Hex } from '../shared/protocol';
import { DEPOSIT_CURSOR_FILE } from '../exchange/service/deposit-cursor';
import type { ChainSync, ChainSyncDeps, StartChainSync } from '../exchange/service/chain-wiring';

interface PayoutState {
  attempts: number;
  lastError: string | null;
  nextTryMs: number;
}

export const startChainSync: StartChainSync = async (deps: ChainSyncDeps): Promise<ChainSync> => {
  const { chain, ledger } = deps;
  const cursorFile = deps.dataDir === undefined ? undefined : join(deps.dataDir, DEPOSIT_CURSOR_FILE);
  const pollMs = chain.pollIntervalMs ?? 1000;
  const payouts = new Map<string, PayoutState>();
  let stopped = false;
  // One operator transaction at a time: sweeps and payouts share the operator's nonce.
  let operatorQueue: Promise<unknown> = Promise.resolve();
  const asOperator = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = operatorQueue.then(fn, fn);
    operatorQueue = run.catch(() => undefined);
    return run;
  };

  let fromBlock = chain.fromBlock ?? 0n;
  if (cursorFile !== undefined) {
    try {
      const stored = JSON.parse(await readFile(cursorFile, 'utf8')) as { nextBlock?: string };
      if (typeof stored.nextBlock === 'string' && /^[0-9]+$/.test(stored.nextBlock))
        fromBlock = BigInt(stored.nextBlock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }

  async function credit(e: QueuedDepositEvent): Promise<void> {
    const index = e.index.toString();
    if (ledger.state.deposits.has(index)) return; // already journaled (e.g. re-scanned block after a restart)
    const t = deps.nowMs();
    const applied = ledger.submit(
      'deposit',
      {
        typ: '7',
        id: index,
        arrivalTime: String(Math.floor(t / 1000)),
        owner: e.user.toLowerCase(),
        amount: e.amount.toString(),
        index,
        ledger: chain.contracts.ledger.toLowerCase(),
        source: 'chain',
        txHash: e.txHash,
      },
      t,
    );
    await ledger.durable(applied.seqId);
  }

  async function saveCursor(cursor: bigint): Promise<void> {
    if (cursorFile === undefined) return;
    // Written after the deposits before it are durable, so a restart never skips one.
    const tmp = `${cursorFile}.tmp`;
    await writeFile(tmp, JSON.stringify({ nextBlock: cursor.toString() }));
    await rename(tmp, cursorFile);
  }

  async function sweep(): Promise<void> {
    await asOperator(() =>
      processDeposits({
        rpcUrl: chain.rpcUrl,
        depositLedger: chain.contracts.depositLedger as Hex,
        operatorKey: chain.operatorKey,
      }),
    );
  }

  async function payOne(id: string, receiver: string, amount: bigint): Promise<void> {
    let txHash: Hex;
    try {
      txHash = await asOperator(() =>
        payWithdrawal({
          rpcUrl: chain.rpcUrl,
          ledger: chain.contracts.ledger as Hex,
          operatorKey: chain.operatorKey,
          receiver: receiver as Hex,
          amount,
          withdrawalId: id as Hex,
        }),
      );
    } catch (e) {
      // Paid before a crash, but the payout record was not journaled: record it now (tx hash unknown).
      if (e instanceof ChainError && e.code === 'WITHDRAWAL_ALREADY_PAID') txHash = ZERO_HASH as Hex;
      else throw e;
    }
    const applied = ledger.submit('payout', { id: id as Hex, txHash }, deps.nowMs());
    await ledger.durable(applied.seqId);
  }

  async function payAll(): Promise<void> {
    for (const w of ledger.engine.pendingPayouts()) {
      if (stopped) return;
      const info = ledger.state.withdrawals.get(w.id);
      if (info === undefined) continue;
      const st = payouts.get(w.id) ?? { attempts: 0, lastError: null, nextTryMs: 0 };
      payouts.set(w.id, st);
      if (deps.nowMs() < st.nextTryMs) continue;
      st.attempts++;
      try {
        await payOne(w.id, info.receiver, w.amount);
        st.lastError = null;
      } catch (e) {
        st.lastError = e instanceof Error ? e.message : String(e);
        // Back off: 1 s, 2 s, 4 s … up to 30 s (funds may still be waiting to be swept).
        st.nextTryMs = deps.nowMs() + Math.min(30_000, 1000 * 2 ** Math.min(5, st.attempts - 1));
      }
    }
  }

  const watcher: DepositWatcher = await watchDeposits({
    rpcUrl: chain.rpcUrl,
    depositLedger: chain.contracts.depositLedger as Hex,
    fromBlock,
    confirmations: chain.confirmations ?? 1,
    pollIntervalMs: pollMs,
    onDeposit: credit,
    onCursor: saveCursor,
    onError: (e) => deps.onError(e, 'watchDeposits'),
  });

  let round: Promise<void> = Promise.resolve();
  const poll = (): Promise<void> => {
    round = round
      .catch(() => undefined)
      .then(async () => {
        if (stopped) return;
        await watcher.poll();
        await sweep();
        await payAll();
      });
    return round;
  };
  const timer = setInterval(() => {
    poll().catch((e: unknown) => deps.onError(e, 'chain poll'));
  }, pollMs);
  timer.unref();

  return {
    poll,
    kickPayouts() {
      round = round.catch(() => undefined).then(payAll);
      round.catch((e: unknown) => deps.onError(e, 'payouts'));
    },
    payoutStatus(id) {
      const st = payouts.get(id);
      return st === undefined ? undefined : { attempts: st.attempts, lastError: st.lastError };
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round.catch(() => undefined);
      await watcher.stop();
    },
  };
};
