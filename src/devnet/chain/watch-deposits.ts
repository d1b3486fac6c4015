import type { JsonRpcProvider } from 'ethers';
import { devnetInterface } from './contracts';
import { ChainError } from './errors';
import { openRpc } from './rpc';
import type { Address, Hex } from './types';

export interface QueuedDepositEvent {
  index: bigint;
  user: Address;
  amount: bigint;
  blockNumber: bigint;
  txHash: Hex;
}

export interface WatchDepositsOptions {
  rpcUrl: string;
  depositLedger: Address;
  /** First block to scan: the cursor stored from the last run, or the DepositLedger's deploy block. */
  fromBlock: bigint;
  /** Blocks a deposit needs, counting its own (0 and 1 both mean "once mined"). */
  confirmations: number;
  /** Awaited in order. If it throws, the watcher retries that deposit on the next poll. */
  onDeposit(event: QueuedDepositEvent): void | Promise<void>;
  /** Called after the cursor advances, so the caller can persist it. */
  onCursor?(cursor: bigint): void | Promise<void>;
  onError?(err: unknown): void;
  pollIntervalMs?: number;
  /** Largest getLogs block range per request. */
  maxBlockRange?: bigint;
}

export interface DepositWatcher {
  /** Next block to scan: every deposit in an earlier block has been delivered. Store it to resume. */
  cursor(): bigint;
  /** Scans now (serialised with the background loop); resolves when caught up to the confirmed head. */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

const iface = devnetInterface('DepositLedger');
const depositQueuedTopic = iface.getEvent('DepositQueued')!.topicHash;

/** Reads DepositQueued events in [fromBlock, toBlock], in chain order. */
export async function scanDeposits(
  provider: JsonRpcProvider,
  depositLedger: Address,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<(QueuedDepositEvent & { logIndex: number })[]> {
  const logs = await provider.getLogs({
    address: depositLedger,
    topics: [depositQueuedTopic],
    fromBlock: Number(fromBlock),
    toBlock: Number(toBlock),
  });
  return logs
    .map((log) => {
      const parsed = iface.parseLog(log);
      if (!parsed) throw new ChainError('TX_REVERTED', 'A DepositQueued log could not be decoded.');
      return {
        index: parsed.args[0] as bigint,
        user: parsed.args[1] as Address,
        amount: parsed.args[2] as bigint,
        blockNumber: BigInt(log.blockNumber),
        txHash: log.transactionHash as Hex,
        logIndex: log.index,
      };
    })
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
}

/**
 * Polls DepositQueued logs by block range, delivering each deposit once it has `confirmations`
 * blocks. Starting from a stored cursor finds deposits made while the caller was down. Within one
 * watcher every deposit is delivered exactly once; after a handler failure mid-block, a restart from
 * the stored cursor may repeat that block's earlier deposits, so callers also dedupe by index.
 */
export async function watchDeposits(opts: WatchDepositsOptions): Promise<DepositWatcher> {
  const { provider } = await openRpc(opts.rpcUrl);
  const required = BigInt(Math.max(1, opts.confirmations));
  const range = opts.maxBlockRange ?? 2_000n;
  let cursor = opts.fromBlock;
  // Log indexes already delivered in the cursor block (only non-empty after a handler failure).
  let deliveredInCursorBlock = new Set<number>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();

  async function scanOnce(): Promise<void> {
    const head = BigInt(await provider.getBlockNumber());
    const confirmedHead = head - required + 1n;
    while (!stopped && cursor <= confirmedHead) {
      const to = cursor + range - 1n < confirmedHead ? cursor + range - 1n : confirmedHead;
      for (const event of await scanDeposits(provider, opts.depositLedger, cursor, to)) {
        if (stopped) return;
        if (event.blockNumber === cursor && deliveredInCursorBlock.has(event.logIndex)) continue;
        if (event.blockNumber !== cursor) {
          cursor = event.blockNumber;
          deliveredInCursorBlock = new Set();
        }
        const { logIndex: _logIndex, ...deposit } = event;
        await opts.onDeposit(deposit);
        deliveredInCursorBlock.add(event.logIndex);
      }
      cursor = to + 1n;
      deliveredInCursorBlock = new Set();
      await opts.onCursor?.(cursor);
    }
  }

  function poll(): Promise<void> {
    running = running.catch(() => undefined).then(() => (stopped ? undefined : scanOnce()));
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      poll()
        .catch((err: unknown) => opts.onError?.(err))
        .finally(schedule);
    }, opts.pollIntervalMs ?? 1_000);
  }

  schedule();
  return {
    cursor: () => cursor,
    poll,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
      provider.destroy();
    },
  };
}
