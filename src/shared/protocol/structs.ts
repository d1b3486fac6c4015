// The one table of signed structs (docs/protocol/signing.md#type-strings). Type strings, typehash inputs, TypeScript
// action types, wire schemas and EIP-712 type lists for stock encoders are all derived from it.
import type { Address, Hex } from './hex';

/** Solidity types that appear in the protocol's structs; `bytes` only for unhashed extras. */
export type SolType =
  'uint8' | 'uint24' | 'uint32' | 'uint64' | 'uint128' | 'uint256' | 'bool' | 'address' | 'bytes32' | 'bytes';

export interface FieldDef {
  /** Key in the JSON/TypeScript action object. */
  readonly key: string;
  /** Solidity type in the type string. */
  readonly type: SolType;
  /** Struct member name when it differs from `key` (AgentApproval: approvalNonce → nonce). */
  readonly member?: string;
  /**
   * 'keccak': declared bytes32, the object carries raw bytes, the slot holds keccak256(bytes).
   * 'skip': carried in the object but not part of the struct.
   */
  readonly enc?: 'keccak' | 'skip';
  /** Narrower width the reference client's parser enforces (DepositOrder.permitNonce). */
  readonly wire?: SolType;
}

export interface StructDef {
  /** Value of `typ`, when the struct has one. */
  readonly typ?: bigint;
  /** Key of the action in a signed request body, when it has a route. */
  readonly jsonKey?: string;
  readonly fields: readonly FieldDef[];
}

// Auth prefix shared by every user action (docs/protocol/signing.md#auth-prefix).
const AUTH = [
  { key: 'typ', type: 'uint8' },
  { key: 'nonce', type: 'uint64' },
  { key: 'signer', type: 'address' },
  { key: 'signatureType', type: 'uint8' },
  { key: 'sender', type: 'address' },
] as const;

export const STRUCTS = {
  FillOrder: {
    typ: 2n,
    jsonKey: 'order',
    fields: [
      ...AUTH,
      { key: 'epoch', type: 'uint32' },
      { key: 'side', type: 'bool' },
      { key: 'assetId', type: 'uint256' },
      { key: 'size', type: 'uint64' },
      { key: 'price', type: 'uint24' },
      { key: 'timeInForce', type: 'uint8' },
      { key: 'approvalNonce', type: 'uint32' },
    ],
  },
  CancelOrder: {
    typ: 3n,
    jsonKey: 'cancel',
    fields: [
      ...AUTH,
      { key: 'assetId', type: 'uint256' },
      { key: 'epoch', type: 'uint32' },
      { key: 'orderHash', type: 'bytes32' },
      { key: 'approvalNonce', type: 'uint32' },
    ],
  },
  CancelReplaceOrder: {
    typ: 63n,
    jsonKey: 'cancelReplace',
    fields: [
      ...AUTH,
      { key: 'assetId', type: 'uint256' },
      { key: 'epoch', type: 'uint32' },
      { key: 'cancelOrderHash', type: 'bytes32' },
      { key: 'replacementOrderHash', type: 'bytes32' },
      { key: 'approvalNonce', type: 'uint32' },
      { key: 'allOrNothing', type: 'bool' },
    ],
  },
  ClaimOrder: {
    typ: 5n,
    jsonKey: 'claim',
    fields: [
      ...AUTH,
      { key: 'assetId', type: 'uint256' },
      { key: 'epoch', type: 'uint32' },
      { key: 'approvalNonce', type: 'uint32' },
    ],
  },
  WithdrawalOrder: {
    typ: 1n,
    jsonKey: 'withdrawal',
    fields: [
      ...AUTH,
      { key: 'receiver', type: 'address' },
      { key: 'amount', type: 'uint64' },
      { key: 'ledger', type: 'address' },
    ],
  },
  DepositOrder: {
    typ: 0n,
    jsonKey: 'deposit',
    fields: [
      ...AUTH,
      { key: 'amount', type: 'uint64' },
      { key: 'token', type: 'address' },
      { key: 'ledger', type: 'address' },
      // Declared uint64; the reference client's parser checks uint32 (docs/protocol/signing.md#the-permitnonce-width).
      { key: 'permitNonce', type: 'uint64', wire: 'uint32' },
      { key: 'permitSignature', type: 'bytes32', enc: 'keccak' },
    ],
  },
  ApproveAgentOrder: {
    typ: 61n,
    jsonKey: 'approval',
    fields: [
      ...AUTH,
      { key: 'agent', type: 'address' },
      { key: 'approvalNonce', type: 'uint32' },
      { key: 'approvalSignature', type: 'bytes32', enc: 'keccak' },
    ],
  },
  AgentApproval: {
    fields: [
      { key: 'master', type: 'address' },
      { key: 'agent', type: 'address' },
      { key: 'approvalNonce', type: 'uint32', member: 'nonce' },
      // The reference client's object carries it ("0x" while signing); never hashed.
      { key: 'approvalSignature', type: 'bytes', enc: 'skip' },
    ],
  },
  RevokeAgentOrder: {
    typ: 62n,
    jsonKey: 'revocation',
    fields: [...AUTH],
  },
  ResolutionOrder: {
    typ: 4n,
    jsonKey: 'resolution',
    fields: [
      ...AUTH,
      { key: 'assetId', type: 'uint256' },
      { key: 'epoch', type: 'uint32' },
      { key: 'price', type: 'uint64' },
    ],
  },
  PauseOrder: {
    typ: 6n,
    jsonKey: 'pause',
    fields: [...AUTH, { key: 'isPause', type: 'bool' }],
  },
  InvalidateOrder: {
    typ: 60n,
    jsonKey: 'invalidate',
    fields: [...AUTH, { key: 'id', type: 'uint128' }],
  },
  DepositSweepOrder: {
    typ: 7n,
    // Journal record; no auth prefix. Key order follows the journal object.
    fields: [
      { key: 'typ', type: 'uint8' },
      { key: 'id', type: 'uint128', enc: 'skip' },
      { key: 'arrivalTime', type: 'uint64', enc: 'skip' },
      { key: 'owner', type: 'address' },
      { key: 'amount', type: 'uint64' },
      { key: 'index', type: 'uint128' },
      { key: 'ledger', type: 'address' },
    ],
  },
} as const satisfies Record<string, StructDef>;

export type PrimaryType = keyof typeof STRUCTS;
export const PRIMARY_TYPES = Object.keys(STRUCTS) as PrimaryType[];

type FieldsOf<P extends PrimaryType> = (typeof STRUCTS)[P]['fields'][number];

/** TypeScript value of one field: bigint for integers, raw bytes as Hex for hashed-bytes fields. */
export type FieldValue<F extends FieldDef> = F extends { enc: 'keccak' }
  ? Hex
  : F['type'] extends 'bool'
    ? boolean
    : F['type'] extends 'address'
      ? Address
      : F['type'] extends 'bytes32' | 'bytes'
        ? Hex
        : bigint;

/** The full action object (everything the JSON carries), derived from the table. */
export type ActionOf<P extends PrimaryType> = { [F in FieldsOf<P> as F['key']]: FieldValue<F> };

/** The fields that are hashed: what the hash helpers need (a full action is assignable to it). */
export type HashInputOf<P extends PrimaryType> = {
  [F in FieldsOf<P> as F extends { enc: 'skip' } ? never : F['key']]: FieldValue<F>;
};

export type FillOrder = ActionOf<'FillOrder'>;
export type CancelOrder = ActionOf<'CancelOrder'>;
export type CancelReplaceOrder = ActionOf<'CancelReplaceOrder'>;
export type ClaimOrder = ActionOf<'ClaimOrder'>;
export type WithdrawalOrder = ActionOf<'WithdrawalOrder'>;
export type DepositOrder = ActionOf<'DepositOrder'>;
export type ApproveAgentOrder = ActionOf<'ApproveAgentOrder'>;
export type AgentApproval = ActionOf<'AgentApproval'>;
export type RevokeAgentOrder = ActionOf<'RevokeAgentOrder'>;
export type ResolutionOrder = ActionOf<'ResolutionOrder'>;
export type PauseOrder = ActionOf<'PauseOrder'>;
export type InvalidateOrder = ActionOf<'InvalidateOrder'>;
export type DepositSweepOrder = ActionOf<'DepositSweepOrder'>;

/** Primary types that have a `typ` and an action key in a request body. */
export type KeyedPrimaryType = {
  [P in PrimaryType]: (typeof STRUCTS)[P] extends { jsonKey: string } ? P : never;
}[PrimaryType];
export type JsonKeyOf<P extends KeyedPrimaryType> = (typeof STRUCTS)[P]['jsonKey'];

export function structDef(primaryType: PrimaryType): StructDef {
  return STRUCTS[primaryType];
}

/** Fields that enter the struct hash, in type-string order. */
export function hashedFields(primaryType: PrimaryType): readonly FieldDef[] {
  return STRUCTS[primaryType].fields.filter((f: FieldDef) => f.enc !== 'skip');
}

/** The EIP-712 type string, built from the table (checked against docs/protocol/signing.md#type-strings by tests). */
export function typeString(primaryType: PrimaryType): string {
  const members = hashedFields(primaryType).map((f) => `${f.type} ${f.member ?? f.key}`);
  return `${primaryType}(${members.join(',')})`;
}

/** `{ [primaryType]: [{name, type}] }` for a stock EIP-712 encoder (hashed-bytes fields as bytes32). */
export function eip712Types(primaryType: PrimaryType): Record<string, { name: string; type: string }[]> {
  return { [primaryType]: hashedFields(primaryType).map((f) => ({ name: f.member ?? f.key, type: f.type })) };
}
