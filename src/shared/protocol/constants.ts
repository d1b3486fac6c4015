// Protocol enums and scales (docs/protocol/signing.md, docs/protocol/units.md). Values are facts of the protocol, not
// configuration.

/** Action type, the signed `typ` field (docs/protocol/signing.md#action-catalogue). */
export const Typ = {
  DEPOSIT: 0n,
  WITHDRAWAL: 1n,
  FILL: 2n,
  CANCEL: 3n,
  RESOLUTION: 4n,
  CLAIM: 5n,
  PAUSE: 6n,
  ONCHAIN_DEPOSIT: 7n,
  INVALIDATE: 60n,
  AGENT_APPROVE: 61n,
  AGENT_REVOKE: 62n,
  CANCEL_REPLACE: 63n,
} as const;
export type TypName = keyof typeof Typ;

/**
 * Signature types (docs/protocol/signing.md#signature-types). The API uses only EOA and AGENT; the parser accepts all
 * five.
 */
export const SignatureType = {
  EOA: 0n,
  PROXY: 1n,
  GNOSIS_SAFE: 2n,
  EIP_1271: 3n,
  AGENT: 4n,
} as const;
export const MAX_SIGNATURE_TYPE = 4n;

/** `side` is the order direction, not an outcome (docs/protocol/units.md#side). */
export const Side = { BUY: false, SELL: true } as const;

/** Time in force (docs/protocol/units.md#time-in-force). */
export const TimeInForce = { GTC: 0n, FOK: 1n, IOC: 2n, ALO: 3n } as const;
export const MAX_TIME_IN_FORCE = 3n;

export const ZERO_HASH = `0x${'0'.repeat(64)}`;
export const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

export const PROTOCOL_DECIMALS = 6;
/** 1.000000 in protocol units: $1 per contract, one contract, one token. */
export const PROTOCOL_SCALE = 1_000_000n;
/** Price tick: 0.1 cent. */
export const PRICE_TICK = 1_000n;
/** Size lot: 0.01 contract. */
export const SIZE_LOT = 10_000n;
export const MIN_PRICE = 1_000n;
export const MAX_PRICE = 999_000n;
export const MIN_SIZE = SIZE_LOT;
/** Reference-client maximum: 10^9 contracts. */
export const MAX_SIZE = 1_000_000_000_000_000n;
/** The exchange's practical maximum: 100,000 contracts. */
export const MAX_PRACTICAL_SIZE = 100_000_000_000n;
/** Deposits and withdrawals: at most 10^9 tokens. */
export const MAX_AMOUNT = 1_000_000_000_000_000n;
/** Minimum order margin the reference trading bot enforces (units). */
export const MIN_ORDER_MARGIN = 10n;
/**
 * Agent actions must carry an approvalNonce above this (2026-06-01T00:00:00Z),
 * docs/protocol/agents.md#the-approval-nonce.
 */
export const MIN_AGENT_APPROVAL_NONCE = 1_780_272_000n;

/** Maximum value of each Solidity unsigned type used by the protocol. */
export const UINT_MAX = {
  uint8: (1n << 8n) - 1n,
  uint16: (1n << 16n) - 1n,
  uint24: (1n << 24n) - 1n,
  uint32: (1n << 32n) - 1n,
  uint48: (1n << 48n) - 1n,
  uint56: (1n << 56n) - 1n,
  uint64: (1n << 64n) - 1n,
  uint128: (1n << 128n) - 1n,
  uint256: (1n << 256n) - 1n,
} as const;
export type UintType = keyof typeof UINT_MAX;
