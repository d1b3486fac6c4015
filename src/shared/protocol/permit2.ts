// Uniswap Permit2 SignatureTransfer typed data (docs/protocol/deposits.md#permit2-deposit). Domain has no `version`.
import { bytesToHex, type Address, type Hex } from './hex';
import { keccak_256, keccakUtf8 } from './keccak';
import { checkUint, writeAddress, writeUint } from './words';

export interface Permit2Domain {
  name: string;
  chainId: bigint;
  verifyingContract: Address;
}

export interface PermitTransferFrom {
  permitted: { token: Address; amount: bigint };
  spender: Address;
  nonce: bigint;
  deadline: bigint;
}

export const PERMIT2_DOMAIN_TYPE_STRING = 'EIP712Domain(string name,uint256 chainId,address verifyingContract)';
export const TOKEN_PERMISSIONS_TYPE_STRING = 'TokenPermissions(address token,uint256 amount)';
export const PERMIT_TRANSFER_FROM_TYPE_STRING =
  'PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)' +
  TOKEN_PERMISSIONS_TYPE_STRING;

const DOMAIN_TYPEHASH = keccakUtf8(PERMIT2_DOMAIN_TYPE_STRING);
const TOKEN_PERMISSIONS_TYPEHASH = keccakUtf8(TOKEN_PERMISSIONS_TYPE_STRING);
const PERMIT_TRANSFER_FROM_TYPEHASH = keccakUtf8(PERMIT_TRANSFER_FROM_TYPE_STRING);

/** Types for a stock EIP-712 encoder (e.g. ethers `signTypedData`). */
export const PERMIT2_TYPES = {
  PermitTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
} as const;

export function makePermit2Domain(opts: { chainId: bigint; verifyingContract: Address }): Readonly<Permit2Domain> {
  return Object.freeze({ name: 'Permit2', chainId: opts.chainId, verifyingContract: opts.verifyingContract });
}

export function permit2DomainSeparator(domain: Permit2Domain): Hex {
  return bytesToHex(separatorBytes(domain));
}

function separatorBytes(domain: Permit2Domain): Uint8Array {
  const buf = new Uint8Array(128);
  buf.set(DOMAIN_TYPEHASH, 0);
  buf.set(keccakUtf8(domain.name), 32);
  writeUint(buf, 64, checkUint(domain.chainId, 'uint256', '$.domain.chainId'));
  writeAddress(buf, 96, domain.verifyingContract, '$.domain.verifyingContract');
  return keccak_256(buf);
}

export function permitTransferFromStructHash(message: PermitTransferFrom): Hex {
  return bytesToHex(structBytes(message));
}

function structBytes(m: PermitTransferFrom): Uint8Array {
  const tp = new Uint8Array(96);
  tp.set(TOKEN_PERMISSIONS_TYPEHASH, 0);
  writeAddress(tp, 32, m.permitted.token, '$.permitted.token');
  writeUint(tp, 64, checkUint(m.permitted.amount, 'uint256', '$.permitted.amount'));
  const buf = new Uint8Array(160);
  buf.set(PERMIT_TRANSFER_FROM_TYPEHASH, 0);
  buf.set(keccak_256(tp), 32);
  writeAddress(buf, 64, m.spender, '$.spender');
  writeUint(buf, 96, checkUint(m.nonce, 'uint256', '$.nonce'));
  writeUint(buf, 128, checkUint(m.deadline, 'uint256', '$.deadline'));
  return keccak_256(buf);
}

/** EIP-712 digest of a PermitTransferFrom over the Permit2 domain; sign it with signDigest. */
export function hashPermitTransferFrom(message: PermitTransferFrom, domain: Permit2Domain): Hex {
  const buf = new Uint8Array(66);
  buf[0] = 0x19;
  buf[1] = 0x01;
  buf.set(separatorBytes(domain), 2);
  buf.set(structBytes(message), 34);
  return bytesToHex(keccak_256(buf));
}
