// The three air-gapped formats, declared once: the types main works with (bigints, checked) and the
// zod schemas of their JSON form, which is what files, QR payloads and the bridge carry. Every
// integer travels as a canonical decimal string; every action exactly as the exchange's own wire form.
import { z } from 'zod';
import { actionSchema, type Address, type ActionOf, type ExchangeDomain, type Hex } from '../../shared/protocol';

export const REQUEST_FORMAT = 'exchange-terminal/unsigned-request@1';
export const RESPONSE_FORMAT = 'exchange-terminal/signed-response@1';
export const KIT_FORMAT = 'exchange-terminal/emergency-kit@1';
export type AirgapFormat = typeof REQUEST_FORMAT | typeof RESPONSE_FORMAT | typeof KIT_FORMAT;

/** What the master can be asked to sign on a machine that holds no key. */
export const AIRGAP_KINDS = [
  'order',
  'cancel',
  'cancel-all',
  'cancel-replace',
  'claim',
  'withdrawal',
  'agent-approval',
  'agent-revocation',
] as const;
export type AirgapKind = (typeof AIRGAP_KINDS)[number];

/** The deployment's contracts a signer checks against its own pins before it signs. */
export interface AirgapContracts {
  /** The exchange: always the domain's verifyingContract. */
  exchange: Address;
  /** The account ledger withdrawals name; null when the preparing machine did not know it. */
  ledger: Address | null;
}

/** The structs of each kind, integers as bigint; the agent approval's outer struct carries "0x" until signed. */
export type UnsignedActions =
  | { kind: 'order'; order: ActionOf<'FillOrder'> }
  | { kind: 'cancel' | 'cancel-all'; cancel: ActionOf<'CancelOrder'> }
  | { kind: 'cancel-replace'; cancelReplace: ActionOf<'CancelReplaceOrder'>; replacement: ActionOf<'FillOrder'> }
  | { kind: 'claim'; claim: ActionOf<'ClaimOrder'> }
  | { kind: 'withdrawal'; withdrawal: ActionOf<'WithdrawalOrder'> }
  | { kind: 'agent-approval'; approval: ActionOf<'AgentApproval'>; approveAgent: ActionOf<'ApproveAgentOrder'> }
  | { kind: 'agent-revocation'; revocation: ActionOf<'RevokeAgentOrder'> };

export interface RequestHeader {
  /** Random, names this request in the response; not part of what is signed. */
  id: string;
  domain: Readonly<ExchangeDomain>;
  contracts: AirgapContracts;
  /** The master account that must sign. */
  signer: Address;
  createdAt: string;
  /** Recomputed from the structs and the domain whenever a request is read (formats/fingerprint). */
  fingerprint: string;
}

/** An unsigned request, parsed and checked: every struct field, nonce included. */
export type UnsignedRequest = RequestHeader & UnsignedActions;

export interface StepSignature {
  digest: Hex;
  signature: Hex;
}

/** What the offline machine hands back. */
export interface SignedResponse {
  requestId: string;
  fingerprint: string;
  domain: Readonly<ExchangeDomain>;
  signer: Address;
  /** One per signing step of the request's kind, in order. */
  signatures: StepSignature[];
  signedAt: string;
}

export interface KitMarket {
  assetId: bigint;
  /** What the user calls it, e.g. "BTC 5m". */
  label: string;
  fromEpoch: bigint;
  toEpoch: bigint;
  /** When the last covered epoch ends (as the preparing machine computed it). */
  until: string;
}

/** One pre-signed cancel-all: the rest of the CancelOrder is the kit's template (master EOA, zero hash). */
export interface KitCancel {
  assetId: bigint;
  epoch: bigint;
  nonce: bigint;
  signature: Hex;
}

export interface EmergencyKit {
  id: string;
  createdAt: string;
  domain: Readonly<ExchangeDomain>;
  contracts: AirgapContracts;
  signer: Address;
  /** Cancel-alls per market and epoch: one can be used, orders placed again, and cancelled again. */
  perEpoch: number;
  markets: KitMarket[];
  cancels: KitCancel[];
  revocation: { nonce: bigint; signature: Hex } | null;
  fingerprint: string;
}

// ---------------------------------------------------------------------------------------------
// JSON forms (the edge). Actions are parsed by the protocol's own strict schemas.

const DECIMAL_RE = /^(0|[1-9][0-9]*)$/;
const decimal = z.string().max(78).regex(DECIMAL_RE, 'a canonical unsigned decimal string');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address');
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hash');
const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 0x-prefixed 65-byte signature');
const id = z.string().regex(/^[0-9a-f]{32}$/, '32 lowercase hex digits');
const isoTime = z.iso.datetime();
const fingerprint = z.string().regex(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/, 'five groups of four base32 letters');

export const domainJson = z.strictObject({
  name: z.string().min(1).max(100),
  version: z.string().min(1).max(20),
  chainId: decimal,
  verifyingContract: address,
});
export const contractsJson = z.strictObject({ exchange: address, ledger: address.nullable() });

const header = {
  format: z.literal(REQUEST_FORMAT),
  id,
  domain: domainJson,
  contracts: contractsJson,
  signer: address,
  createdAt: isoTime,
  fingerprint,
};

export const requestJson = z.discriminatedUnion('kind', [
  z.strictObject({ ...header, kind: z.literal('order'), order: actionSchema('FillOrder') }),
  z.strictObject({ ...header, kind: z.literal('cancel'), cancel: actionSchema('CancelOrder') }),
  z.strictObject({ ...header, kind: z.literal('cancel-all'), cancel: actionSchema('CancelOrder') }),
  z.strictObject({
    ...header,
    kind: z.literal('cancel-replace'),
    cancelReplace: actionSchema('CancelReplaceOrder'),
    replacement: actionSchema('FillOrder'),
  }),
  z.strictObject({ ...header, kind: z.literal('claim'), claim: actionSchema('ClaimOrder') }),
  z.strictObject({ ...header, kind: z.literal('withdrawal'), withdrawal: actionSchema('WithdrawalOrder') }),
  z.strictObject({
    ...header,
    kind: z.literal('agent-approval'),
    approval: actionSchema('AgentApproval'),
    approveAgent: actionSchema('ApproveAgentOrder'),
  }),
  z.strictObject({ ...header, kind: z.literal('agent-revocation'), revocation: actionSchema('RevokeAgentOrder') }),
]);

export const responseJson = z.strictObject({
  format: z.literal(RESPONSE_FORMAT),
  requestId: id,
  fingerprint,
  domain: domainJson,
  signer: address,
  // Two steps at most today (cancel-replace, agent approval); a few more leaves room and bounds the work.
  signatures: z
    .array(z.strictObject({ digest: bytes32, signature }))
    .min(1)
    .max(4),
  signedAt: isoTime,
});

/** Bounds the work a kit asks of a reader: signatures are checked one by one. */
export const MAX_KIT_ENTRIES = 2000;
export const MAX_KIT_PER_EPOCH = 8;

export const kitJson = z.strictObject({
  format: z.literal(KIT_FORMAT),
  id,
  createdAt: isoTime,
  domain: domainJson,
  contracts: contractsJson,
  signer: address,
  perEpoch: z.number().int().min(1).max(MAX_KIT_PER_EPOCH),
  markets: z
    .array(
      z.strictObject({
        assetId: decimal,
        label: z.string().min(1).max(64),
        fromEpoch: decimal,
        toEpoch: decimal,
        until: isoTime,
      }),
    )
    .min(1)
    .max(32),
  cancels: z
    .array(z.strictObject({ assetId: decimal, epoch: decimal, nonce: decimal, signature }))
    .min(1)
    .max(MAX_KIT_ENTRIES),
  revocation: z.strictObject({ nonce: decimal, signature }).nullable(),
  fingerprint,
});

/** Just enough to tell which of our formats a JSON value claims to be. */
export const formatProbe = z.object({ format: z.string() });
