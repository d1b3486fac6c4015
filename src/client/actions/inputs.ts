// Caller inputs → protocol integers, checked before anything is hashed or signed
// (docs/protocol/units.md#checks-before-signing). Strings are human decimals (price in cents, size and amount in
// contracts/tokens); bigints are protocol units and get the same range and tick checks.
import {
  ADDRESS_RE,
  BYTES32_RE,
  MAX_AMOUNT,
  MAX_PRICE,
  MAX_SIZE,
  MIN_AGENT_APPROVAL_NONCE,
  MIN_PRICE,
  MIN_SIZE,
  PRICE_TICK,
  SIZE_LOT,
  TimeInForce,
  UINT_MAX,
  ZERO_HASH,
  parseAmount,
  parsePrice,
  parseSize,
  type Address,
  type Hex,
} from '../../shared/protocol';
import { ExchangeValidationError, localCheck } from '../errors';

export type PriceInput = string | bigint;
export type SizeInput = string | bigint;
export type AmountInput = string | bigint;
export type SideInput = boolean | 'buy' | 'sell';
export type TimeInForceInput = bigint | keyof typeof TimeInForce;

function invalid(code: string, sentence: string): never {
  throw new ExchangeValidationError(code, sentence);
}

/** Cents string ("62.5") or protocol bigint (625000n) → protocol price. */
export function toPrice(v: PriceInput): bigint {
  if (typeof v === 'string') return localCheck(() => parsePrice(v));
  if (typeof v !== 'bigint' || v < MIN_PRICE || v > MAX_PRICE || v % PRICE_TICK !== 0n) {
    invalid(
      'INVALID_PRICE',
      `Price must be a multiple of ${PRICE_TICK} between ${MIN_PRICE} and ${MAX_PRICE} protocol units (0.1 to 99.9 cents). Got ${String(v)}.`,
    );
  }
  return v;
}

/** Contracts string ("12.5") or protocol bigint → protocol size. */
export function toSize(v: SizeInput): bigint {
  if (typeof v === 'string') return localCheck(() => parseSize(v));
  if (typeof v !== 'bigint' || v < MIN_SIZE || v > MAX_SIZE || v % SIZE_LOT !== 0n) {
    invalid(
      'INVALID_SIZE',
      `Size must be a multiple of ${SIZE_LOT} between ${MIN_SIZE} and ${MAX_SIZE} protocol units (0.01 to 1000000000 contracts). Got ${String(v)}.`,
    );
  }
  return v;
}

/** Tokens string ("100.25") or protocol bigint → protocol amount (> 0, ≤ 10^15). */
export function toAmount(v: AmountInput): bigint {
  if (typeof v === 'string') return localCheck(() => parseAmount(v));
  if (typeof v !== 'bigint' || v <= 0n || v > MAX_AMOUNT) {
    invalid(
      'INVALID_AMOUNT',
      `Amount must be greater than 0 and at most ${MAX_AMOUNT} protocol units (1000000000 tokens). Got ${String(v)}.`,
    );
  }
  return v;
}

/** false = BUY, true = SELL (docs/protocol/units.md#side). */
export function toSide(v: SideInput): boolean {
  if (v === 'buy' || v === false) return false;
  if (v === 'sell' || v === true) return true;
  return invalid('INVALID_SIDE', `Side must be "buy" or "sell". Got ${String(v)}.`);
}

export function toTimeInForce(v: TimeInForceInput | undefined): bigint {
  if (v === undefined) return TimeInForce.GTC;
  if (typeof v === 'string' && v in TimeInForce) return TimeInForce[v];
  if (typeof v === 'bigint' && v >= 0n && v <= 3n) return v;
  return invalid('INVALID_TIME_IN_FORCE', `Time in force must be GTC, FOK, IOC or ALO. Got ${String(v)}.`);
}

export function toAddress(v: string, what: string): Address {
  if (typeof v !== 'string' || !ADDRESS_RE.test(v))
    invalid('INVALID_ADDRESS', `${what} must be 0x followed by 40 hex digits.`);
  return v as Address;
}

export function toHash(v: string, what: string, allowZero: boolean): Hex {
  if (typeof v !== 'string' || !BYTES32_RE.test(v))
    invalid('INVALID_ORDER_HASH', `${what} must be 0x followed by 64 hex digits.`);
  if (!allowZero && v === ZERO_HASH)
    invalid('INVALID_ORDER_HASH', `${what} must not be the zero hash; use cancel-all instead.`);
  return v as Hex;
}

export function toUint(v: bigint, width: keyof typeof UINT_MAX, what: string): bigint {
  if (typeof v !== 'bigint' || v < 0n || v > UINT_MAX[width])
    invalid('INVALID_ARGUMENT', `${what} must be a whole number from 0 to ${UINT_MAX[width]}.`);
  return v;
}

/**
 * Agent actions carry the master's approval nonce, which must be above the sanity floor
 * (docs/protocol/agents.md#the-approval-nonce).
 */
export function toAgentApprovalNonce(v: bigint): bigint {
  if (typeof v !== 'bigint' || v <= MIN_AGENT_APPROVAL_NONCE || v > UINT_MAX.uint32) {
    invalid(
      'INVALID_APPROVAL_NONCE',
      `The agent approval nonce ${String(v)} is not a current approval (it must be a unix time after ${MIN_AGENT_APPROVAL_NONCE}); approve the agent again.`,
    );
  }
  return v;
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * approvalNonce must lie strictly between now + 10 s and now + 300 s, exchange time
 * (docs/protocol/agents.md#the-approval-nonce).
 */
export function checkApprovalWindow(approvalNonce: bigint, nowMs: number): void {
  const nowS = BigInt(Math.floor(nowMs / 1000));
  if (approvalNonce <= nowS + 10n || approvalNonce >= nowS + 300n) {
    invalid(
      'INVALID_APPROVAL_NONCE',
      `An agent approval must expire between 10 s and 300 s from now (exchange time); ${approvalNonce} is outside that window.`,
    );
  }
}

/**
 * The default: floor((now + 120 s + random(0..100 s)) / 1000), about 120–220 s ahead
 * (docs/protocol/agents.md#the-approval-nonce).
 */
export function defaultApprovalNonce(nowMs: number, random: () => number = Math.random): bigint {
  return BigInt(Math.floor((nowMs + 120_000 + Math.floor(random() * 100_000)) / 1000));
}
