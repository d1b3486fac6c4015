export type ChainErrorCode =
  | 'RPC_UNAVAILABLE'
  | 'WRONG_CHAIN'
  | 'INVALID_ARGUMENT'
  | 'NOT_OPERATOR'
  | 'WITHDRAWAL_ALREADY_PAID'
  | 'INSUFFICIENT_LEDGER_BALANCE'
  | 'TX_REVERTED'
  | 'TX_TIMEOUT';

/** A chain-helper failure: a machine code plus a sentence. Never carries a key. */
export class ChainError extends Error {
  override readonly name = 'ChainError';
  constructor(
    readonly code: ChainErrorCode,
    message: string,
  ) {
    super(message);
  }
}
