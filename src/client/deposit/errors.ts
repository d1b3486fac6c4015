import { Interface } from 'ethers';
import { UnitsError } from '../../shared/protocol';
import { DEPOSIT_ERRORS_ABI } from './abi';
import { RpcTransportError } from './bounded-rpc';
import { findRevertData } from '../../shared/revert-data';

export type DepositErrorCode =
  | 'INVALID_AMOUNT'
  | 'RPC_UNAVAILABLE'
  | 'WRONG_CHAIN'
  | 'NOT_A_DEPOSIT_LEDGER'
  | 'SPENDER_MISMATCH'
  | 'TOKEN_DECIMALS'
  | 'INSUFFICIENT_TOKEN_BALANCE'
  | 'INSUFFICIENT_ALLOWANCE'
  | 'INSUFFICIENT_GAS'
  | 'PERMIT_EXPIRED'
  | 'PERMIT_INVALID'
  | 'PERMIT_NONCE_USED'
  | 'CONFIRMATION_TIMEOUT'
  | 'TX_REVERTED';

/** A deposit failure: a machine code and a sentence for the user. Never carries key material. */
export class DepositError extends Error {
  override readonly name = 'DepositError';
  constructor(
    readonly code: DepositErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const errorsInterface = new Interface(DEPOSIT_ERRORS_ABI);

const REVERT_CODES: Record<string, [DepositErrorCode, string]> = {
  SignatureExpired: ['PERMIT_EXPIRED', 'The deposit permit has expired; sign a new one.'],
  InvalidSignature: ['PERMIT_INVALID', 'The deposit permit signature does not belong to the depositing wallet.'],
  InvalidSigner: ['PERMIT_INVALID', 'The deposit permit signature does not belong to the depositing wallet.'],
  InvalidSignatureLength: ['PERMIT_INVALID', 'The deposit permit signature is malformed.'],
  InvalidContractSignature: ['PERMIT_INVALID', 'The contract wallet rejected the deposit permit signature.'],
  InvalidAmount: ['PERMIT_INVALID', 'The deposit asks for more than the permit allows.'],
  InvalidNonce: ['PERMIT_NONCE_USED', 'This permit nonce was already used; sign a new permit.'],
  ERC20InsufficientBalance: [
    'INSUFFICIENT_TOKEN_BALANCE',
    'The wallet holds too few settlement tokens for this deposit.',
  ],
  ERC20InsufficientAllowance: ['INSUFFICIENT_ALLOWANCE', 'The token allowance is too small for this deposit.'],
  ZeroAmount: ['INVALID_AMOUNT', 'The deposit amount must be greater than zero.'],
  AmountTooLarge: ['INVALID_AMOUNT', 'The deposit amount is larger than the exchange accepts.'],
  TransferFailed: ['TX_REVERTED', 'The settlement token refused the transfer.'],
};

/** Maps anything a deposit step throws to a DepositError. */
export function toDepositError(err: unknown): DepositError {
  if (err instanceof DepositError) return err;
  if (err instanceof UnitsError) return new DepositError('INVALID_AMOUNT', err.message);
  if (err instanceof RpcTransportError) return new DepositError('RPC_UNAVAILABLE', err.message);
  const data = findRevertData(err);
  if (data !== undefined) {
    const parsed = errorsInterface.parseError(data);
    const mapped = parsed ? REVERT_CODES[parsed.name] : undefined;
    if (mapped) return new DepositError(mapped[0], mapped[1]);
    if (parsed) return new DepositError('TX_REVERTED', `The deposit transaction would revert (${parsed.name}).`);
  }
  const e = err as { code?: unknown; shortMessage?: unknown; reason?: unknown; message?: unknown };
  if (e.code === 'INSUFFICIENT_FUNDS') {
    return new DepositError('INSUFFICIENT_GAS', 'The wallet has too little native currency to pay for gas.');
  }
  if (typeof e.reason === 'string' && /exceeds balance/i.test(e.reason)) {
    return new DepositError(
      'INSUFFICIENT_TOKEN_BALANCE',
      'The wallet holds too few settlement tokens for this deposit.',
    );
  }
  if (e.code === 'NETWORK_ERROR' || e.code === 'TIMEOUT' || (err instanceof TypeError && /fetch/i.test(err.message))) {
    return new DepositError('RPC_UNAVAILABLE', 'The chain RPC did not answer.');
  }
  // ethers' shortMessage describes the failure without request bodies; never echo anything else.
  const detail =
    typeof e.shortMessage === 'string' ? e.shortMessage : typeof e.reason === 'string' ? e.reason : 'unknown error';
  return new DepositError('TX_REVERTED', `The chain refused the deposit: ${detail}.`);
}
