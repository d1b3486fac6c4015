/**
 * The watch-only machine drafts a complete unsigned request (every field, nonce included) under the
 * selected deployment's pinned domain and the contracts it knows; the window names only the action.
 */
import type { AirgapAction } from '../../../shared/bridge/airgap';
import { makeExchangeDomain, type Address, type Hex } from '../../../shared/protocol';
import {
  draftApproveAgent,
  draftCancel,
  draftCancelAll,
  draftCancelReplace,
  draftClaim,
  draftOrder,
  draftRevokeAgent,
  draftWithdrawal,
  defaultApprovalNonce,
  type DraftContext,
  type UnsignedRequest,
} from '../../../client';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { selectedSigningFacts } from '../session/signing-facts';

/** The pinned domain of the selected deployment, after every check that applies to a signature. */
export function pinnedDraftDomain(ctx: CoreContext, servedChainId: bigint | undefined) {
  const facts = selectedSigningFacts(ctx, servedChainId, 'airgap.no_domain');
  return makeExchangeDomain({
    chainId: BigInt(facts.chainId),
    verifyingContract: facts.verifyingContract as Address,
    name: facts.domainName,
  });
}

export async function draftAction(
  ctx: CoreContext,
  master: Address,
  action: AirgapAction,
  known: { ledger: Address | undefined; chainId: bigint | undefined; exchangeNowMs: number },
): Promise<UnsignedRequest> {
  const domain = pinnedDraftDomain(ctx, known.chainId);
  const draft: DraftContext = {
    signer: master,
    domain,
    contracts: { exchange: domain.verifyingContract, ledger: known.ledger ?? null },
    now: () => new Date(ctx.now()),
  };
  const market = (a: { assetId: string; epoch: string }) => ({ assetId: BigInt(a.assetId), epoch: BigInt(a.epoch) });
  switch (action.kind) {
    case 'order':
      return draftOrder(draft, {
        ...market(action),
        side: action.side,
        price: action.price,
        size: action.size,
        timeInForce: action.timeInForce,
      });
    case 'cancel':
      return draftCancel(draft, { ...market(action), orderHash: action.orderHash as Hex });
    case 'cancelAll':
      return draftCancelAll(draft, market(action));
    case 'cancelReplace':
      return draftCancelReplace(draft, {
        ...market(action),
        cancelOrderHash: action.cancelOrderHash as Hex,
        side: action.side,
        price: action.price,
        size: action.size,
        timeInForce: action.timeInForce,
      });
    case 'claim':
      return draftClaim(draft, market(action));
    case 'withdrawal':
      if (!known.ledger)
        throw new BridgeFailure(
          'airgap.no_ledger',
          'The account ledger of this deployment is not known yet: connect before preparing a withdrawal.',
        );
      return draftWithdrawal(draft, {
        amount: action.amount,
        ledger: known.ledger,
        ...(action.receiver ? { receiver: action.receiver as Address } : {}),
      });
    case 'approveAgent':
      // Its nonce is its expiry, a few minutes from now in the exchange's time: sign and send it soon.
      return draftApproveAgent(draft, {
        agent: action.agent as Address,
        approvalNonce: defaultApprovalNonce(known.exchangeNowMs),
      });
    case 'revokeAgent':
      return draftRevokeAgent(draft);
  }
}
