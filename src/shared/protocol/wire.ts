// Strict JSON parsing and serialising of actions and signed request wrappers
// (docs/protocol/units.md#json-integers-and-widths, docs/protocol/endpoints.md#request-bodies).
// Schemas are built from the struct table; parse errors become ProtocolValidationError issues
// with the codes of docs/protocol/endpoints.md#validation-issue-codes and `$.`-paths.
import { z } from 'zod';
import { MAX_SIGNATURE_TYPE, MAX_TIME_IN_FORCE, UINT_MAX, type UintType } from './constants';
import { ProtocolValidationError, type ValidationIssue, type ValidationIssueCode } from './errors';
import { ADDRESS_RE, BYTES32_RE, EVEN_HEX_RE, SIGNATURE_RE, type Hex } from './hex';
import {
  PRIMARY_TYPES,
  STRUCTS,
  type ActionOf,
  type CancelReplaceOrder,
  type FieldDef,
  type FillOrder,
  type JsonKeyOf,
  type PrimaryType,
} from './structs';

const DECIMAL_RE = /^(0|[1-9][0-9]*)$/;
const MAX_DIGITS: Record<UintType, number> = Object.fromEntries(
  Object.entries(UINT_MAX).map(([k, v]) => [k, v.toString().length]),
) as Record<UintType, number>;

/** JSON form of an action: integers as decimal strings, booleans bare, hex as strings. */
export type WireAction = Record<string, string | boolean>;

// ---------------------------------------------------------------------------------------------
// Field checks shared by parse (JSON → value) and serialise (value → JSON).

type Problem = { code: ValidationIssueCode; message: string };
type FieldRule = {
  fromJson(v: unknown): bigint | boolean | string | Problem;
  toJson(v: unknown): string | boolean | Problem;
};

const problem = (code: ValidationIssueCode, message: string): Problem => ({ code, message });
const isProblem = (v: unknown): v is Problem => typeof v === 'object' && v !== null;

function uintRule(
  key: string,
  type: UintType,
  exact?: bigint,
  max: bigint = UINT_MAX[type],
  maxWhat = `${type} maximum ${UINT_MAX[type]}`,
): FieldRule {
  const check = (n: bigint): bigint | Problem => {
    if (n > max)
      return problem(
        exact === undefined && max === UINT_MAX[type] ? 'integer_out_of_range' : 'invalid_value',
        `"${key}" must be at most ${maxWhat}.`,
      );
    if (exact !== undefined && n !== exact)
      return problem('invalid_value', `"${key}" must be ${exact} for this action.`);
    return n;
  };
  return {
    fromJson(v) {
      if (typeof v === 'number')
        return problem('invalid_type', `"${key}" must be a decimal string; JSON numbers are not accepted.`);
      if (typeof v !== 'string') return problem('invalid_type', `"${key}" must be a decimal string.`);
      if (!DECIMAL_RE.test(v)) {
        return problem(
          'invalid_decimal_string',
          `"${key}" must be a canonical unsigned decimal string (digits only, no sign, no leading zeros).`,
        );
      }
      if (v.length > MAX_DIGITS[type])
        return problem('integer_out_of_range', `"${key}" must be at most ${UINT_MAX[type]} (${type}).`);
      const n = BigInt(v);
      if (n > UINT_MAX[type])
        return problem('integer_out_of_range', `"${key}" must be at most ${UINT_MAX[type]} (${type}).`);
      return check(n);
    },
    toJson(v) {
      if (typeof v !== 'bigint') return problem('invalid_type', `"${key}" must be a bigint.`);
      if (v < 0n || v > UINT_MAX[type])
        return problem('integer_out_of_range', `"${key}" must be between 0 and ${UINT_MAX[type]} (${type}).`);
      const r = check(v);
      return isProblem(r) ? r : v.toString();
    },
  };
}

function hexRule(key: string, re: RegExp, what: string): FieldRule {
  const one = (v: unknown) => {
    if (typeof v !== 'string') return problem('invalid_type', `"${key}" must be a string: ${what}.`);
    if (!re.test(v)) return problem('invalid_value', `"${key}" must be ${what}.`);
    return v;
  };
  return { fromJson: one, toJson: one };
}

const boolRule = (key: string): FieldRule => {
  const one = (v: unknown) =>
    typeof v === 'boolean' ? v : problem('invalid_type', `"${key}" must be a JSON boolean.`);
  return { fromJson: one, toJson: one };
};

const ADDRESS_WHAT = '0x followed by 40 hex digits';
const BYTES32_WHAT = '0x followed by 64 hex digits';
const BYTES_WHAT = '0x-prefixed hex of even length';
const SIGNATURE_WHAT = '0x followed by 130 hex digits (65 bytes)';

function ruleFor(f: FieldDef, typ: bigint | undefined): FieldRule {
  if (f.enc === 'keccak' || f.type === 'bytes') return hexRule(f.key, EVEN_HEX_RE, BYTES_WHAT);
  switch (f.type) {
    case 'bool':
      return boolRule(f.key);
    case 'address':
      return hexRule(f.key, ADDRESS_RE, ADDRESS_WHAT);
    case 'bytes32':
      return hexRule(f.key, BYTES32_RE, BYTES32_WHAT);
    default: {
      const width = (f.wire ?? f.type) as UintType;
      if (f.key === 'typ' && typ !== undefined) return uintRule(f.key, width, typ);
      if (f.key === 'signatureType')
        return uintRule(f.key, width, undefined, MAX_SIGNATURE_TYPE, `${MAX_SIGNATURE_TYPE} (0 EOA … 4 agent)`);
      if (f.key === 'timeInForce')
        return uintRule(
          f.key,
          width,
          undefined,
          MAX_TIME_IN_FORCE,
          `${MAX_TIME_IN_FORCE} (0 GTC, 1 FOK, 2 IOC, 3 ALO)`,
        );
      return uintRule(f.key, width);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// zod schemas (exported for composition by the service and client) and issue mapping.

function fieldSchema(rule: FieldRule, key: string) {
  return z.unknown().transform((v, ctx) => {
    if (v === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${key}" is required.`, params: { code: 'missing_field' } });
      return z.NEVER;
    }
    const r = rule.fromJson(v);
    if (isProblem(r)) {
      ctx.addIssue({ code: 'custom', message: r.message, params: { code: r.code } });
      return z.NEVER;
    }
    return r;
  });
}

interface CompiledStruct {
  readonly keys: readonly string[];
  readonly rules: readonly FieldRule[];
  readonly schema: z.ZodType<unknown>;
}

function compile(p: PrimaryType): CompiledStruct {
  const def = STRUCTS[p];
  const fields: readonly FieldDef[] = def.fields;
  const typ = 'typ' in def ? def.typ : undefined;
  const rules = fields.map((f) => ruleFor(f, typ));
  const shape = Object.fromEntries(fields.map((f, i) => [f.key, fieldSchema(rules[i]!, f.key)]));
  return { keys: fields.map((f) => f.key), rules, schema: z.strictObject(shape) };
}

const COMPILED = Object.fromEntries(PRIMARY_TYPES.map((p) => [p, compile(p)])) as Record<PrimaryType, CompiledStruct>;

/** zod schema of an action's JSON (output: the typed action with bigints). */
export function actionSchema<P extends PrimaryType>(primaryType: P): z.ZodType<ActionOf<P>> {
  return COMPILED[primaryType].schema as z.ZodType<ActionOf<P>>;
}

function jsonPath(base: string, path: readonly PropertyKey[]): string {
  let s = base;
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : `.${String(seg)}`;
  return s;
}

/** Convert zod issues (from these schemas) to validation issues (docs/protocol/endpoints.md#validation-issue-codes). */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], base = '$'): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys)
        out.push({
          code: 'unknown_field',
          path: jsonPath(base, [...i.path, k]),
          message: `Unknown field "${k}" is not allowed.`,
        });
    } else if (i.code === 'custom' && typeof i.params?.['code'] === 'string') {
      out.push({ code: i.params['code'] as ValidationIssueCode, path: jsonPath(base, i.path), message: i.message });
    } else if (i.code === 'invalid_type') {
      out.push({ code: 'invalid_type', path: jsonPath(base, i.path), message: `Expected a JSON ${i.expected}.` });
    } else {
      out.push({ code: 'invalid_value', path: jsonPath(base, i.path), message: i.message });
    }
  }
  return out;
}

function run<T>(schema: z.ZodType<unknown>, json: unknown, base = '$'): T {
  const r = schema.safeParse(json);
  if (!r.success) throw new ProtocolValidationError(toValidationIssues(r.error.issues, base));
  return r.data as T;
}

/** Parse an action's JSON strictly. Throws ProtocolValidationError. */
export function parseAction<P extends PrimaryType>(primaryType: P, json: unknown): ActionOf<P> {
  return run<ActionOf<P>>(COMPILED[primaryType].schema, json);
}

/** JSON-ready object with keys in type-string order; validates widths on the way. */
export function serializeAction<P extends PrimaryType>(primaryType: P, action: ActionOf<P>, base = '$'): WireAction {
  const c = COMPILED[primaryType];
  const src = action as Record<string, unknown>;
  const out: WireAction = {};
  let issues: ValidationIssue[] | undefined;
  for (let i = 0; i < c.keys.length; i++) {
    const key = c.keys[i]!;
    const v = src[key];
    const r = v === undefined ? problem('missing_field', `"${key}" is required.`) : c.rules[i]!.toJson(v);
    if (isProblem(r)) (issues ??= []).push({ code: r.code, path: `${base}.${key}`, message: r.message });
    else out[key] = r;
  }
  for (const key of Object.keys(src)) {
    if (!c.keys.includes(key))
      (issues ??= []).push({
        code: 'unknown_field',
        path: `${base}.${key}`,
        message: `Unknown field "${key}" is not allowed.`,
      });
  }
  if (issues) throw new ProtocolValidationError(issues);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Signed request wrappers (docs/protocol/endpoints.md#request-bodies).

export const REQUEST_KINDS = {
  orders: { path: '/orders', primaryType: 'FillOrder' },
  cancels: { path: '/cancels', primaryType: 'CancelOrder' },
  cancelReplace: { path: '/cancel-replace', primaryType: 'CancelReplaceOrder' },
  claim: { path: '/claim', primaryType: 'ClaimOrder' },
  withdrawals: { path: '/withdrawals', primaryType: 'WithdrawalOrder' },
  agentsApprove: { path: '/agents/approve', primaryType: 'ApproveAgentOrder' },
  agentsRevoke: { path: '/agents/revoke', primaryType: 'RevokeAgentOrder' },
  resolve: { path: '/resolve', primaryType: 'ResolutionOrder' },
  adminPause: { path: '/admin/pause', primaryType: 'PauseOrder' },
  adminInvalidate: { path: '/admin/invalidate', primaryType: 'InvalidateOrder' },
} as const;

export type RequestKind = keyof typeof REQUEST_KINDS;
export type SimpleRequestKind = Exclude<RequestKind, 'cancelReplace'>;
export type RequestPrimaryType<K extends RequestKind> = (typeof REQUEST_KINDS)[K]['primaryType'];
export const REQUEST_KIND_NAMES = Object.keys(REQUEST_KINDS) as RequestKind[];

export interface SignedEnvelope {
  chainId: bigint;
  /** The action's EIP-712 digest. */
  orderHash: Hex;
  signature: Hex;
}

export type SimpleSignedRequest<K extends SimpleRequestKind> = {
  [J in JsonKeyOf<RequestPrimaryType<K>>]: ActionOf<RequestPrimaryType<K>>;
} & SignedEnvelope;

export interface CancelReplaceSignedRequest extends SignedEnvelope {
  cancelReplace: CancelReplaceOrder;
  replacement: FillOrder;
  replacementOrderHash: Hex;
  replacementSignature: Hex;
}

/** A parsed signed request body: the action under its JSON key, integers as bigint. */
export type SignedRequest<K extends RequestKind> = K extends SimpleRequestKind
  ? SimpleSignedRequest<K>
  : CancelReplaceSignedRequest;

/** A JSON-ready body; JSON.stringify of it is exactly what the reference client sends. */
export type SignedRequestBody = Record<string, WireAction | string>;

const envelopeRules = {
  chainId: uintRule('chainId', 'uint256'),
  orderHash: hexRule('orderHash', BYTES32_RE, BYTES32_WHAT),
  signature: hexRule('signature', SIGNATURE_RE, SIGNATURE_WHAT),
  replacementOrderHash: hexRule('replacementOrderHash', BYTES32_RE, BYTES32_WHAT),
  replacementSignature: hexRule('replacementSignature', SIGNATURE_RE, SIGNATURE_WHAT),
} as const;

/** Body keys in wire order, each mapped to either an action type or an envelope rule. */
type BodyPart = { key: string; primaryType: PrimaryType } | { key: keyof typeof envelopeRules };

function bodyLayout(kind: RequestKind): BodyPart[] {
  if (kind === 'cancelReplace') {
    return [
      { key: 'cancelReplace', primaryType: 'CancelReplaceOrder' },
      { key: 'replacement', primaryType: 'FillOrder' },
      { key: 'chainId' },
      { key: 'orderHash' },
      { key: 'signature' },
      { key: 'replacementOrderHash' },
      { key: 'replacementSignature' },
    ];
  }
  const p = REQUEST_KINDS[kind].primaryType;
  return [{ key: STRUCTS[p].jsonKey, primaryType: p }, { key: 'chainId' }, { key: 'orderHash' }, { key: 'signature' }];
}

const LAYOUTS = Object.fromEntries(REQUEST_KIND_NAMES.map((k) => [k, bodyLayout(k)])) as Record<
  RequestKind,
  BodyPart[]
>;

const REQUEST_SCHEMAS = Object.fromEntries(
  REQUEST_KIND_NAMES.map((k) => [
    k,
    z.strictObject(
      Object.fromEntries(
        LAYOUTS[k].map((part) => [
          part.key,
          'primaryType' in part
            ? z.unknown().transform((v, ctx) => {
                // Missing action object: report it as missing_field rather than "expected object".
                if (v === undefined) {
                  ctx.addIssue({
                    code: 'custom',
                    message: `"${part.key}" is required.`,
                    params: { code: 'missing_field' },
                  });
                  return z.NEVER;
                }
                const r = COMPILED[part.primaryType].schema.safeParse(v);
                if (!r.success) {
                  for (const issue of toValidationIssues(r.error.issues, `$.${part.key}`)) {
                    ctx.addIssue({
                      code: 'custom',
                      message: issue.message,
                      params: { code: issue.code, absPath: issue.path },
                    });
                  }
                  return z.NEVER;
                }
                return r.data;
              })
            : fieldSchema(envelopeRules[part.key], part.key),
        ]),
      ),
    ),
  ]),
) as unknown as Record<RequestKind, z.ZodType<unknown>>;

/** zod schema of a signed request body for one endpoint kind. */
export function signedRequestSchema<K extends RequestKind>(kind: K): z.ZodType<SignedRequest<K>> {
  return REQUEST_SCHEMAS[kind] as z.ZodType<SignedRequest<K>>;
}

/** Parse a POST body (already JSON-decoded) strictly. Throws ProtocolValidationError. */
export function parseSignedRequest<K extends RequestKind>(kind: K, body: unknown): SignedRequest<K> {
  const schema = REQUEST_SCHEMAS[kind];
  if (schema === undefined)
    throw new ProtocolValidationError([
      { code: 'invalid_value', path: '$', message: `Unknown request kind "${String(kind)}".` },
    ]);
  const r = schema.safeParse(body);
  if (r.success) return r.data as SignedRequest<K>;
  // Nested action issues carry their absolute path already.
  const issues = r.error.issues.flatMap((i) =>
    i.code === 'custom' && typeof i.params?.['absPath'] === 'string'
      ? [{ code: i.params['code'] as ValidationIssueCode, path: i.params['absPath'], message: i.message }]
      : toValidationIssues([i]),
  );
  throw new ProtocolValidationError(issues);
}

/** Build the JSON-ready body in the documented key order, validating every part. */
export function buildSignedRequest<K extends RequestKind>(kind: K, request: SignedRequest<K>): SignedRequestBody {
  const src = request as unknown as Record<string, unknown>;
  const out: SignedRequestBody = {};
  const issues: ValidationIssue[] = [];
  for (const part of LAYOUTS[kind]) {
    const v = src[part.key];
    if ('primaryType' in part) {
      if (typeof v !== 'object' || v === null) {
        issues.push({
          code: v === undefined ? 'missing_field' : 'invalid_type',
          path: `$.${part.key}`,
          message: `"${part.key}" must be an action object.`,
        });
        continue;
      }
      try {
        out[part.key] = serializeAction(part.primaryType, v as never, `$.${part.key}`);
      } catch (e) {
        if (e instanceof ProtocolValidationError) issues.push(...e.issues);
        else throw e;
      }
    } else {
      const r =
        v === undefined ? problem('missing_field', `"${part.key}" is required.`) : envelopeRules[part.key].toJson(v);
      if (isProblem(r)) issues.push({ code: r.code, path: `$.${part.key}`, message: r.message });
      else out[part.key] = r as string;
    }
  }
  const allowed = new Set(LAYOUTS[kind].map((p) => p.key));
  for (const key of Object.keys(src)) {
    if (!allowed.has(key))
      issues.push({ code: 'unknown_field', path: `$.${key}`, message: `Unknown field "${key}" is not allowed.` });
  }
  if (issues.length > 0) throw new ProtocolValidationError(issues);
  return out;
}

/** Route path of a request kind (relative to the API base). */
export function requestPath(kind: RequestKind): string {
  return REQUEST_KINDS[kind].path;
}
