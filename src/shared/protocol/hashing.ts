// Fast EIP-712 struct hashing: each struct is compiled once into a list of word writers over a
// preallocated buffer; hashing an action is one pass of fixed-width writes plus two keccaks.
import type { UintType } from './constants';
import { domainSeparatorBytes, type ExchangeDomain } from './domain';
import { validationError } from './errors';
import { bytesToHex, type Hex } from './hex';
import { keccak_256, keccakUtf8 } from './keccak';
import {
  STRUCTS,
  PRIMARY_TYPES,
  hashedFields,
  typeString,
  type HashInputOf,
  type PrimaryType,
  type StructDef,
} from './structs';
import { checkUint, writeAddress, writeBool, writeBytes32, writeKeccakOfBytes, writeUint } from './words';

type Writer = (buf: Uint8Array, off: number, v: unknown, path: string) => void;

interface Compiled {
  readonly typehash: Uint8Array;
  readonly keys: readonly string[];
  readonly paths: readonly string[];
  readonly writers: readonly Writer[];
  readonly typ: bigint | undefined;
  /** Reused between calls: hashing is synchronous, so no two calls share it at once. */
  readonly buf: Uint8Array;
}

function uintWriter(type: UintType): Writer {
  return (buf, off, v, path) => writeUint(buf, off, checkUint(v, type, path));
}

function compile(primaryType: PrimaryType): Compiled {
  const def: StructDef = STRUCTS[primaryType];
  const fields = hashedFields(primaryType);
  const writers = fields.map((f): Writer => {
    if (f.enc === 'keccak') return writeKeccakOfBytes;
    switch (f.type) {
      case 'bool':
        return writeBool;
      case 'address':
        return writeAddress;
      case 'bytes32':
        return writeBytes32;
      case 'bytes':
        throw new Error(`${primaryType}.${f.key}: dynamic bytes cannot be a hashed field`);
      default:
        return uintWriter(f.type);
    }
  });
  return {
    typehash: keccakUtf8(typeString(primaryType)),
    keys: fields.map((f) => f.key),
    paths: fields.map((f) => `$.${f.key}`),
    writers,
    typ: def.typ,
    buf: new Uint8Array(32 * (fields.length + 1)),
  };
}

const COMPILED = Object.fromEntries(PRIMARY_TYPES.map((p) => [p, compile(p)])) as Record<PrimaryType, Compiled>;

/** keccak256 of the type string. */
export function typehash(primaryType: PrimaryType): Hex {
  return bytesToHex(COMPILED[primaryType].typehash);
}

export function structHashBytes<P extends PrimaryType>(primaryType: P, action: HashInputOf<P>): Uint8Array {
  const c = COMPILED[primaryType];
  if (c === undefined) throw validationError('invalid_value', '$', `Unknown primary type "${String(primaryType)}".`);
  if (typeof action !== 'object' || action === null)
    throw validationError('invalid_type', '$', 'Expected an action object.');
  const obj = action as Record<string, unknown>;
  if (c.typ !== undefined && obj['typ'] !== c.typ) {
    throw validationError('invalid_value', '$.typ', `typ must be ${c.typ} for ${primaryType}.`);
  }
  const { buf, keys, writers, paths } = c;
  buf.set(c.typehash, 0);
  for (let i = 0; i < keys.length; i++) {
    const v = obj[keys[i]!];
    if (v === undefined) throw validationError('missing_field', paths[i]!, `Field "${keys[i]}" is required.`);
    writers[i]!(buf, 32 * (i + 1), v, paths[i]!);
  }
  return keccak_256(buf);
}

export function structHash<P extends PrimaryType>(primaryType: P, action: HashInputOf<P>): Hex {
  return bytesToHex(structHashBytes(primaryType, action));
}

const DIGEST_BUF = new Uint8Array(66);
DIGEST_BUF[0] = 0x19;
DIGEST_BUF[1] = 0x01;

/** keccak256(0x19 0x01 ‖ domainSeparator ‖ structHash), given both as bytes. */
export function eip712Digest(separator: Uint8Array, structHashValue: Uint8Array): Uint8Array {
  DIGEST_BUF.set(separator, 2);
  DIGEST_BUF.set(structHashValue, 34);
  return keccak_256(DIGEST_BUF);
}

export function hashActionBytes<P extends PrimaryType>(
  primaryType: P,
  action: HashInputOf<P>,
  domain: ExchangeDomain,
): Uint8Array {
  const sh = structHashBytes(primaryType, action);
  return eip712Digest(domainSeparatorBytes(domain), sh);
}

/** The digest (the API's `orderHash`) of any action over the exchange domain. */
export function hashAction<P extends PrimaryType>(primaryType: P, action: HashInputOf<P>, domain: ExchangeDomain): Hex {
  return bytesToHex(hashActionBytes(primaryType, action, domain));
}

type Helper<P extends PrimaryType> = (action: HashInputOf<P>, domain: ExchangeDomain) => Hex;
const helper =
  <P extends PrimaryType>(p: P): Helper<P> =>
  (action, domain) =>
    hashAction(p, action, domain);

// The reference client's names (docs/protocol/signing.md#hash-helper-names).
export const hashFillOrderJS = helper('FillOrder');
export const hashCancelOrderJS = helper('CancelOrder');
export const hashCancelReplaceOrderJS = helper('CancelReplaceOrder');
export const hashWithdrawalOrderJS = helper('WithdrawalOrder');
export const hashClaimOrderJS = helper('ClaimOrder');
export const hashApproveAgentOrderJS = helper('ApproveAgentOrder');
export const hashAgentApprovalJS = helper('AgentApproval');
export const hashRevokeAgentOrderJS = helper('RevokeAgentOrder');
export const hashDepositOrderJS = helper('DepositOrder');
export const hashResolutionOrderJS = helper('ResolutionOrder');
export const hashPauseOrderJS = helper('PauseOrder');
export const hashInvalidateOrderJS = helper('InvalidateOrder');
export const hashDepositSweepOrderJS = helper('DepositSweepOrder');
