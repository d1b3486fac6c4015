// Response schemas (docs/protocol/endpoints.md: endpoints, field shapes, response statuses), parsed at the edge into
// typed objects with bigint protocol integers. Types are strict; unknown keys are dropped (a newer server may add
// fields).
import { z } from 'zod';
import { ADDRESS_RE, BYTES32_RE, EVEN_HEX_RE, type Address, type Hex } from '../../shared/protocol';
import { ExchangeValidationError } from '../errors';

const DECIMAL_RE = /^(0|[1-9][0-9]*)$/;
const SIGNED_DECIMAL_RE = /^(0|-?[1-9][0-9]*)$/;

/**
 * A canonical unsigned decimal string → bigint. JSON numbers are refused
 * (docs/protocol/units.md#json-integers-and-widths).
 */
export const decStr = z
  .string()
  .regex(DECIMAL_RE, 'expected a canonical decimal string')
  .transform((s) => BigInt(s));
/** Signed decimal string (P&L). */
export const signedDecStr = z
  .string()
  .regex(SIGNED_DECIMAL_RE, 'expected a decimal string')
  .transform((s) => BigInt(s));
/** A safe-integer JSON number or a decimal string → bigint (seqId, ids; docs/protocol/endpoints.md#field-shapes). */
export const intLike = z.union([
  z
    .number()
    .int()
    .nonnegative()
    .refine(Number.isSafeInteger, 'expected a safe integer')
    .transform((n) => BigInt(n)),
  decStr,
]);
/** Times and counts: a safe-integer number or a decimal string within the safe range → number. */
export const safeNum = z.union([
  z.number().int().nonnegative().refine(Number.isSafeInteger, 'expected a safe integer'),
  z
    .string()
    .regex(DECIMAL_RE, 'expected a decimal string')
    .transform(Number)
    .refine(Number.isSafeInteger, 'expected a safe integer'),
]);
export const address = z
  .string()
  .regex(ADDRESS_RE, 'expected 0x followed by 40 hex digits')
  .transform((s) => s as Address);
export const bytes32 = z
  .string()
  .regex(BYTES32_RE, 'expected 0x followed by 64 hex digits')
  .transform((s) => s as Hex);
export const hexBytes = z
  .string()
  .regex(EVEN_HEX_RE, 'expected 0x-hex')
  .transform((s) => s as Hex);

export const healthSchema = z.object({ status: z.string() });

export const exchangeConfigSchema = z.object({
  chainId: decStr,
  contracts: z.object({
    exchange: address,
    ledger: address,
    depositLedger: address.optional(),
    settlementToken: address.optional(),
    permit2: address.optional(),
  }),
  // Not a documented key; read when a deployment volunteers its EIP-712 name (the doctor compares it;
  // docs/protocol/choices.md#domain-name-and-chain-configuration).
  domainName: z.string().optional(),
});

/**
 * GET /config/domain/:chainId (a devnet extension, not a documented route): the EIP-712 domain the server hashes with.
 */
export const domainConfigSchema = z.object({
  chainId: decStr,
  name: z.string(),
  version: z.string(),
  verifyingContract: address,
});

export const assetSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  registered: z.boolean(),
  expiration: decStr,
  assetType: decStr,
  strikePrice: decStr,
  resolutionPrice: decStr,
  isResolved: z.boolean(),
  ledger: address,
});

/** Documented with fewer fields than /asset; the rest are optional here (docs/protocol/endpoints.md#endpoints). */
export const assetAtEpochSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  expiration: decStr,
  strikePrice: decStr,
  resolutionPrice: decStr,
  registered: z.boolean().optional(),
  assetType: decStr.optional(),
  isResolved: z.boolean().optional(),
  ledger: address.optional(),
});

export const resolutionSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  id: intLike,
  ts: safeNum,
  price: decStr,
  isNull: z.boolean(),
});

export const markPriceSchema = z.object({ assetId: decStr, id: intLike, ts: safeNum, price: decStr });

export const settlementPriceSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  id: intLike,
  ts: safeNum,
  expirationTime: safeNum,
  settlementPrice: decStr,
});

export const balanceSchema = z.object({ account: address, ts: safeNum, balance: decStr, pending: decStr });

/**
 * A protocol amount that travels unsigned beside a sign flag (docs/signed-quantities.md): the value is
 * negative when the flag is true. An explicit minus is accepted too and is never flipped back by the flag,
 * so "-5" with the flag set is still −5, not +5.
 */
export function withSignFlag(value: bigint, negative: boolean): bigint {
  return negative && value > 0n ? -value : value;
}

/**
 * GET /position: `size`, `balance`, `margin` and `pnl` are magnitudes whose signs are the flags `side`,
 * `bSide`, `mSide` and `pSide` beside them. Parsed here into signed bigints so nothing inside reads an
 * amount without its flag: `inventory` > 0 is long Up, < 0 short; `realisedPnl` < 0 is a loss.
 */
export const positionSchema = z
  .object({
    account: address,
    assetId: decStr,
    epoch: decStr,
    ts: safeNum,
    size: signedDecStr,
    margin: signedDecStr,
    balance: signedDecStr,
    pnl: signedDecStr,
    side: z.boolean(),
    bSide: z.boolean(),
    mSide: z.boolean(),
    pSide: z.boolean(),
  })
  .transform((p) => ({
    account: p.account,
    assetId: p.assetId,
    epoch: p.epoch,
    ts: p.ts,
    size: withSignFlag(p.size, p.side),
    inventory: withSignFlag(p.balance, p.bSide),
    margin: withSignFlag(p.margin, p.mSide),
    realisedPnl: withSignFlag(p.pnl, p.pSide),
  }));

export const bookOrderSchema = z.object({
  id: bytes32,
  size: decStr,
  price: intLike,
  time: safeNum.optional(),
  account: address.optional(),
});

export const l2LevelSchema = z.object({
  price: decStr,
  size: decStr,
  orderCount: safeNum,
  orders: z.array(bookOrderSchema).optional(),
});

export const orderBookSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  ts: safeNum,
  seqId: intLike,
  bids: z.array(l2LevelSchema),
  asks: z.array(l2LevelSchema),
});

export const bookOrdersSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  seqId: intLike,
  ts: safeNum,
  buys: z.array(bookOrderSchema),
  sells: z.array(bookOrderSchema),
});

export const topOfBookSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  seqId: intLike,
  ts: safeNum,
  // An empty side may come as null (not specified; accepted).
  bid: l2LevelSchema.nullable(),
  ask: l2LevelSchema.nullable(),
  last: decStr,
  lastTs: safeNum,
});

export const claimableSchema = z.object({ account: address, assetId: decStr, epoch: decStr, claimable: decStr });

export const agentStatusSchema = z.object({
  agent: z.union([address, z.literal('')]),
  // A decimal string; a JSON number is rejected (docs/protocol/agents.md#status).
  nonce: decStr,
  status: z.enum(['active', 'inactive', 'expired']),
});

const labelOrInt = z.union([z.string(), z.number().int(), z.boolean()]);

export const ledgerOrderSchema = z.object({
  id: bytes32,
  type: labelOrInt,
  side: labelOrInt,
  epoch: intLike,
  size: intLike,
  price: intLike,
  limitPrice: intLike,
  account: address,
  assetId: intLike,
  filled: intLike,
  remaining: intLike,
  reservedPosition: intLike,
  reservedSize: intLike,
  reservedMargin: intLike,
  maxSize: intLike,
  timeInForce: labelOrInt,
  nonce: intLike,
  signer: address,
  signature: hexBytes,
  signatureType: intLike,
  approvalSignature: z.union([hexBytes, z.literal('')]),
  approvalNonce: intLike,
  seq: intLike,
  lastTxId: z.union([z.string(), z.number()]),
  version: intLike,
});

export const ledgerOrdersSchema = z.object({
  assetId: decStr,
  epoch: decStr,
  ts: safeNum,
  account: address.optional(),
  orders: z.array(ledgerOrderSchema),
});

export const ledgerEntriesSchema = z.object({
  seqId: intLike,
  ts: safeNum,
  // Typed journal entries (docs/protocol/signing.md#journal-entries); kept as records, their shape depends on `typ`.
  entries: z.array(z.record(z.string(), z.unknown())),
});

// ---------------------------------------------------------------- signed-action responses
// (docs/protocol/endpoints.md#response-statuses)

export const newOrderResponseSchema = z.object({
  orderId: bytes32,
  status: z.enum(['ACCEPTED', 'CANCELLED', 'REJECTED', 'FILLED', 'PARTIALLY_FILLED']),
  reason: z.string(),
  filled: decStr,
  remaining: decStr,
  cancelled: decStr,
});

export const cancelResponseSchema = z.object({
  id: bytes32,
  status: z.enum(['CANCELLED', 'CANCEL_FAILED', 'CANCEL_NOT_COMMITTED']),
  orderIds: z.array(bytes32),
});

export const cancelReplaceResponseSchema = z.object({
  id: bytes32,
  status: z.enum(['SUCCESS', 'CANCEL_FAILED', 'REPLACEMENT_FAILED', 'CANCEL_COMMITTED_REPLACEMENT_FAILED']),
  cancel: cancelResponseSchema,
  replacement: newOrderResponseSchema.nullable(),
});

/**
 * GET /fills/:account (a devnet extension, not a documented route): own fills at the prices they traded at, newest
 * first.
 */
export const ownFillSchema = z.object({
  orderId: bytes32,
  assetId: decStr,
  epoch: decStr,
  /** true = sell. */
  side: z.boolean(),
  price: decStr,
  size: decStr,
  liquidity: z.enum(['maker', 'taker']),
  /** Exchange time, ms. */
  ts: safeNum,
});
export const ownFillsSchema = z.object({ account: address, fills: z.array(ownFillSchema) });

export const claimResponseSchema = z.object({ id: bytes32, status: z.enum(['CLAIMED', 'CLAIM_FAILED']) });
export const withdrawalResponseSchema = z.object({ id: bytes32, status: z.enum(['WITHDRAWN', 'WITHDRAWAL_FAILED']) });
export const agentResponseSchema = z.object({ id: bytes32, status: z.enum(['SUCCESS', 'FAIL']) });

export type Health = z.infer<typeof healthSchema>;
export type ExchangeConfig = z.infer<typeof exchangeConfigSchema>;
export type Asset = z.infer<typeof assetSchema>;
export type DomainConfig = z.infer<typeof domainConfigSchema>;
export type AssetAtEpoch = z.infer<typeof assetAtEpochSchema>;
export type Resolution = z.infer<typeof resolutionSchema>;
export type MarkPrice = z.infer<typeof markPriceSchema>;
export type SettlementPrice = z.infer<typeof settlementPriceSchema>;
export type Balance = z.infer<typeof balanceSchema>;
export type ExchangePosition = z.infer<typeof positionSchema>;
export type BookOrder = z.infer<typeof bookOrderSchema>;
export type L2Level = z.infer<typeof l2LevelSchema>;
export type OrderBook = z.infer<typeof orderBookSchema>;
export type BookOrders = z.infer<typeof bookOrdersSchema>;
export type TopOfBook = z.infer<typeof topOfBookSchema>;
export type Claimable = z.infer<typeof claimableSchema>;
export type AgentStatus = z.infer<typeof agentStatusSchema>;
export type LedgerOrder = z.infer<typeof ledgerOrderSchema>;
export type LedgerOrders = z.infer<typeof ledgerOrdersSchema>;
export type LedgerEntries = z.infer<typeof ledgerEntriesSchema>;
export type OwnFillRecord = z.infer<typeof ownFillSchema>;
export type OwnFills = z.infer<typeof ownFillsSchema>;
export type NewOrderResponse = z.infer<typeof newOrderResponseSchema>;
export type CancelResponse = z.infer<typeof cancelResponseSchema>;
export type CancelReplaceResponse = z.infer<typeof cancelReplaceResponseSchema>;
export type ClaimResponse = z.infer<typeof claimResponseSchema>;
export type WithdrawalResponse = z.infer<typeof withdrawalResponseSchema>;
export type AgentResponse = z.infer<typeof agentResponseSchema>;

function pathOf(path: readonly PropertyKey[]): string {
  let s = '$';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : `.${String(seg)}`;
  return s;
}

/** Parse a response body; a malformed one throws ExchangeValidationError naming the field path. */
export function parseResponse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({
    code: i.code === 'invalid_type' ? ('invalid_type' as const) : ('invalid_value' as const),
    path: pathOf(i.path),
    message: i.message,
  }));
  const first = issues[0];
  throw new ExchangeValidationError(
    'INVALID_RESPONSE',
    `The exchange sent a malformed ${what}${first ? ` (${first.path}: ${first.message})` : ''}.`,
    issues,
  );
}
