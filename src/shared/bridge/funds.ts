import { z } from 'zod';
import { address, bytes32, decimalString, humanString, marketRef, unixMs } from './primitives';

export const agentStatusView = z.object({
  master: address,
  agent: address.nullable(),
  status: z.enum(['active', 'inactive', 'expired']),
  /** The approval nonce: a unix-seconds timestamp (docs/protocol/agents.md#the-approval-nonce). */
  approvalNonce: decimalString,
  /** When the approval stops being usable, in unix ms, as far as the exchange documents it. */
  expiresAt: unixMs.nullable(),
});

export const depositArgs = z.object({ amount: humanString, mode: z.enum(['approve', 'permit']) }).strict();

export const depositProgress = z.object({
  depositId: z.string(),
  stage: z.enum([
    'checking',
    'approving',
    'approved',
    'signing-permit',
    'sent',
    'mined',
    'confirmations',
    'credited',
    'failed',
  ]),
  confirmations: z.number().int().nonnegative(),
  required: z.number().int().nonnegative(),
  txHash: bytes32.nullable(),
  message: z.string(),
});

export const depositResult = z.object({
  depositId: z.string(),
  index: decimalString,
  txHash: bytes32,
  amount: decimalString,
});

export const withdrawArgs = z.object({ amount: humanString, receiver: address.optional() }).strict();

export const withdrawalView = z.object({
  id: bytes32,
  amount: decimalString,
  receiver: address,
  status: z.enum(['WITHDRAWN', 'WITHDRAWAL_FAILED', 'PAID', 'QUEUED']),
  txHash: bytes32.nullable(),
  requestedAt: unixMs,
});

export const claimableEpoch = z.object({
  ...marketRef.shape,
  symbol: z.string(),
  amount: decimalString,
});

export const claimResult = z.object({
  ...marketRef.shape,
  status: z.enum(['CLAIMED', 'CLAIM_FAILED']),
  amount: decimalString,
  summary: z.string(),
});

export type AgentStatusView = z.infer<typeof agentStatusView>;
export type DepositProgress = z.infer<typeof depositProgress>;
export type DepositResult = z.infer<typeof depositResult>;
export type WithdrawalView = z.infer<typeof withdrawalView>;
export type ClaimableEpoch = z.infer<typeof claimableEpoch>;
export type ClaimResult = z.infer<typeof claimResult>;
