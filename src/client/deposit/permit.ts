import {
  bytesToHex,
  hashPermitTransferFrom,
  makePermit2Domain,
  signDigest,
  type Address,
  type Hex,
  type PermitTransferFrom,
} from '../../shared/protocol';

export interface DepositPermit {
  message: PermitTransferFrom;
  signature: Hex;
}

/** A uniformly random uint256 nonce: Permit2 nonces are unordered, so collisions are what matter. */
export function randomPermitNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return BigInt(bytesToHex(bytes));
}

/**
 * Signs the Permit2 PermitTransferFrom that lets `spender` (the DepositLedger) pull `amount` of
 * `token` from the key's owner (docs/protocol/deposits.md#permit2-deposit).
 */
export function signDepositPermit(args: {
  chainId: bigint;
  permit2: Address;
  token: Address;
  spender: Address;
  amount: bigint;
  nonce: bigint;
  deadline: bigint;
  privateKey: Hex;
}): DepositPermit {
  const message: PermitTransferFrom = {
    permitted: { token: args.token, amount: args.amount },
    spender: args.spender,
    nonce: args.nonce,
    deadline: args.deadline,
  };
  const digest = hashPermitTransferFrom(
    message,
    makePermit2Domain({ chainId: args.chainId, verifyingContract: args.permit2 }),
  );
  return { message, signature: signDigest(digest, args.privateKey) };
}
