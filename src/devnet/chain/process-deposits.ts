import { sendWithGasMargin } from '../../shared/gas-margin';
import { devnetContract, devnetInterface } from './contracts';
import { withOperator } from './operator-tx';
import { minedReceipt } from './rpc';
import type { Address, Hex } from './types';

export interface ProcessDepositsArgs {
  rpcUrl: string;
  depositLedger: Address;
  operatorKey: Hex;
  /** Last deposit index to sweep; defaults to every queued deposit that is old enough. */
  upTo?: bigint;
}

export interface SweptDeposit {
  index: bigint;
  user: Address;
  amount: bigint;
}

export interface ProcessDepositsResult {
  /** null when nothing was ready, so no transaction was sent. */
  txHash: Hex | null;
  swept: SweptDeposit[];
  processedDepositIndex: bigint;
}

const depositLedgerInterface = devnetInterface('DepositLedger');

/**
 * Sweeps queued deposits (those at least minBlockWait blocks old) from the DepositLedger to the
 * AccountLedger with DepositLedger.processUpTo. The exchange records one typ-7 entry per swept deposit.
 */
export async function processDeposits(args: ProcessDepositsArgs): Promise<ProcessDepositsResult> {
  return withOperator(args.rpcUrl, args.operatorKey, async (wallet, provider) => {
    const ledger = devnetContract('DepositLedger', args.depositLedger, wallet);
    const processedBefore = (await ledger.getFunction('processedDepositIndex')()) as bigint;
    const ready = (await ledger.getFunction('canProcessNext')()) as boolean;
    const upTo = args.upTo ?? ((await ledger.getFunction('nextPendingDepositId')()) as bigint) - 1n;
    if (!ready || upTo <= processedBefore) return { txHash: null, swept: [], processedDepositIndex: processedBefore };
    const tx = await sendWithGasMargin(ledger.getFunction('processUpTo'), upTo);
    const receipt = await minedReceipt(provider, tx.hash, 'processUpTo');
    const swept = receipt.logs.flatMap((log): SweptDeposit[] => {
      if (log.address.toLowerCase() !== args.depositLedger.toLowerCase()) return [];
      const parsed = depositLedgerInterface.parseLog(log);
      if (parsed?.name !== 'DepositProcessed') return [];
      return [{ index: parsed.args[0] as bigint, user: parsed.args[1] as Address, amount: parsed.args[2] as bigint }];
    });
    const last = swept.at(-1);
    return { txHash: receipt.hash as Hex, swept, processedDepositIndex: last ? last.index : processedBefore };
  });
}
