/** The facts main shows before a deposit or a withdrawal, from the deposit plan and the pinned domain. */
import type { DepositPlan } from '../../../client';
import { confirmRequest, fullAddress } from '../dialogs/confirm-text';
import type { ConfirmRequest } from '../dialogs/dialogs';
import type { SigningFacts } from '../session/signing-facts';

export function depositRequest(plan: DepositPlan, mode: 'approve' | 'permit', deploymentName: string): ConfirmRequest {
  const permit = mode === 'permit';
  const transactions = permit ? plan.permit.transactions : plan.approve.transactions;
  const approval = permit ? plan.permit.permit2ApprovalNeeded : plan.approve.approvalNeeded;
  const notes = [
    `Tokens go to the deposit ledger ${fullAddress(plan.depositLedger)}, which credits them to ${fullAddress(plan.owner)} on the exchange.`,
    approval
      ? `First an approval of exactly this amount (never more) to the spender, then the deposit: ${transactions} transactions from your wallet, each paying gas.`
      : `${transactions} transaction${transactions === 1 ? '' : 's'} from your wallet, paying gas; the spender's allowance already covers this amount.`,
    ...(permit
      ? [
          'You also sign a Permit2 transfer of exactly this amount for the deposit ledger (an EIP-712 signature under the Permit2 domain above).',
        ]
      : []),
  ];
  return confirmRequest({
    capability: 'moves-value',
    title: 'Deposit',
    action: permit
      ? 'Deposit to the exchange with a Permit2 signature'
      : 'Deposit to the exchange (approve, then deposit)',
    confirmLabel: 'Deposit',
    amount: { units: plan.amount, symbol: plan.tokenSymbol },
    receiver: plan.depositLedger,
    spender: permit ? plan.permit2 : plan.depositLedger,
    spenderRole: permit ? 'Permit2' : 'deposit ledger',
    token: plan.settlementToken,
    from: plan.owner,
    chainId: plan.chainId,
    ...(permit
      ? { verifyingContract: plan.permit2, domainName: 'Permit2', domainNameSource: 'the Permit2 contract' }
      : {}),
    deploymentName,
    notes,
  });
}

export function withdrawalRequest(w: {
  units: bigint;
  receiver: string;
  master: string;
  ledger: string | undefined;
  token: string | undefined;
  signing: SigningFacts;
}): ConfirmRequest {
  const own = w.receiver.toLowerCase() === w.master.toLowerCase();
  return confirmRequest({
    capability: 'moves-value',
    title: 'Withdraw',
    action: 'Withdraw from the exchange',
    confirmLabel: 'Withdraw',
    amount: { units: w.units },
    receiver: w.receiver,
    ...(w.token ? { token: w.token } : {}),
    from: w.master,
    ...w.signing,
    notes: [
      own
        ? 'The tokens are paid to your own wallet on chain.'
        : 'The tokens are paid to a different address than your account: check every character of the receiver.',
      ...(w.ledger ? [`The withdrawal names the account ledger ${fullAddress(w.ledger)}.`] : []),
    ],
  });
}
