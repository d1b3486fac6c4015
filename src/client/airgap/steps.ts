// What each kind of request asks the master to sign, in order, and the digests of those structs.
// Digests are always recomputed here from the structs and the domain; a digest carried in a payload
// is only ever compared against them, never used.
import {
  SignatureType,
  Typ,
  ZERO_HASH,
  hashAction,
  type ActionOf,
  type Address,
  type Hex,
  type PrimaryType,
} from '../../shared/protocol';
import type { AirgapKind, UnsignedRequest } from './formats';

export interface SigningStep {
  primaryType: PrimaryType;
  /** The struct exactly as it is hashed. */
  action: Record<string, unknown>;
}

/** How many signatures each kind needs: cancel-replace signs the replacement first; an approval signs the inner approval first. */
export const STEP_COUNT: Readonly<Record<AirgapKind, number>> = {
  order: 1,
  cancel: 1,
  'cancel-all': 1,
  'cancel-replace': 2,
  claim: 1,
  withdrawal: 1,
  'agent-approval': 2,
  'agent-revocation': 1,
};

/** The approval's outer struct before the inner signature exists: what the fingerprint binds. */
export const APPROVAL_PLACEHOLDER = '0x' as Hex;

/**
 * The struct of step `index`. `prior` holds the signatures of the earlier steps: only the agent
 * approval needs one (its outer struct hashes the inner signature: docs/protocol/agents.md, Approve). Without it the outer struct
 * keeps the placeholder, which is what the fingerprint covers.
 */
export function stepAt(request: UnsignedRequest, index: number, prior: readonly Hex[] = []): SigningStep {
  switch (request.kind) {
    case 'order':
      return { primaryType: 'FillOrder', action: request.order };
    case 'cancel':
    case 'cancel-all':
      return { primaryType: 'CancelOrder', action: request.cancel };
    case 'cancel-replace':
      return index === 0
        ? { primaryType: 'FillOrder', action: request.replacement }
        : { primaryType: 'CancelReplaceOrder', action: request.cancelReplace };
    case 'claim':
      return { primaryType: 'ClaimOrder', action: request.claim };
    case 'withdrawal':
      return { primaryType: 'WithdrawalOrder', action: request.withdrawal };
    case 'agent-approval': {
      if (index === 0) return { primaryType: 'AgentApproval', action: request.approval };
      const inner = prior[0];
      return {
        primaryType: 'ApproveAgentOrder',
        action: { ...request.approveAgent, approvalSignature: inner ?? APPROVAL_PLACEHOLDER },
      };
    }
    case 'agent-revocation':
      return { primaryType: 'RevokeAgentOrder', action: request.revocation };
  }
}

export function stepDigest(request: UnsignedRequest, index: number, prior: readonly Hex[] = []): Hex {
  const step = stepAt(request, index, prior);
  return hashAction(step.primaryType, step.action as never, request.domain);
}

/** Digests that bind the request (the approval's outer struct with its placeholder). */
export function bindingDigests(request: UnsignedRequest): Hex[] {
  return Array.from({ length: STEP_COUNT[request.kind] }, (_, i) => stepDigest(request, i));
}

/** The cancel-all struct every kit entry shares, filled for one entry. */
export function kitCancelAction(
  signer: Address,
  entry: { assetId: bigint; epoch: bigint; nonce: bigint },
): ActionOf<'CancelOrder'> {
  return {
    typ: Typ.CANCEL,
    nonce: entry.nonce,
    signer,
    signatureType: SignatureType.EOA,
    sender: signer,
    assetId: entry.assetId,
    epoch: entry.epoch,
    orderHash: ZERO_HASH as Hex,
    approvalNonce: 0n,
  };
}

export function kitRevocationAction(signer: Address, nonce: bigint): ActionOf<'RevokeAgentOrder'> {
  return { typ: Typ.AGENT_REVOKE, nonce, signer, signatureType: SignatureType.EOA, sender: signer };
}
