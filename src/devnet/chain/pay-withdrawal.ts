import { isAddress, isHexString } from 'ethers';
import { sendWithGasMargin } from '../../shared/gas-margin';
import { devnetContract } from './contracts';
import { ChainError } from './errors';
import { withOperator } from './operator-tx';
import { minedReceipt, openRpc } from './rpc';
import type { Address, Hex } from './types';

export interface PayWithdrawalArgs {
  rpcUrl: string;
  /** AccountLedger address (contracts.ledger). */
  ledger: Address;
  operatorKey: Hex;
  receiver: Address;
  /** Token units (6 decimals). */
  amount: bigint;
  /** bytes32 id, e.g. the withdrawal's orderHash; the ledger pays each id at most once. */
  withdrawalId: Hex;
}

function checkId(withdrawalId: string): void {
  if (!isHexString(withdrawalId, 32)) {
    throw new ChainError('INVALID_ARGUMENT', 'withdrawalId must be a 0x-prefixed 32-byte hex string.');
  }
}

/** Pays a withdrawal from the AccountLedger and waits for it to be mined. Returns the tx hash. */
export async function payWithdrawal(args: PayWithdrawalArgs): Promise<Hex> {
  checkId(args.withdrawalId);
  if (!isAddress(args.receiver)) throw new ChainError('INVALID_ARGUMENT', 'receiver is not an address.');
  if (args.amount <= 0n) throw new ChainError('INVALID_ARGUMENT', 'amount must be greater than zero.');
  return withOperator(args.rpcUrl, args.operatorKey, async (wallet, provider) => {
    const ledger = devnetContract('AccountLedger', args.ledger, wallet);
    // Checked first so a repeat is refused without spending gas; the contract enforces it regardless.
    if ((await ledger.getFunction('paid')(args.withdrawalId)) as boolean) {
      throw new ChainError('WITHDRAWAL_ALREADY_PAID', 'This withdrawal id was already paid on chain.');
    }
    const tx = await sendWithGasMargin(ledger.getFunction('payout'), args.receiver, args.amount, args.withdrawalId);
    const receipt = await minedReceipt(provider, tx.hash, 'payout');
    return receipt.hash as Hex;
  });
}

/** Whether the AccountLedger has already paid `withdrawalId`. */
export async function isWithdrawalPaid(args: { rpcUrl: string; ledger: Address; withdrawalId: Hex }): Promise<boolean> {
  checkId(args.withdrawalId);
  const { provider } = await openRpc(args.rpcUrl);
  try {
    return (await devnetContract('AccountLedger', args.ledger, provider).getFunction('paid')(
      args.withdrawalId,
    )) as boolean;
  } finally {
    provider.destroy();
  }
}
