// One error family for the exchange client. Every error has a machine `code` and a `sentence` a
// trader can read; HTTP errors also carry the status and the parsed body. Never carries key material.
import { ProtocolValidationError, UnitsError, type ValidationIssue } from '../shared/protocol';

/**
 * The nine authentication failure conditions of docs/protocol/endpoints.md#why-a-signed-request-fails, in its order.
 */
export type AuthFailureCondition =
  | 'WRONG_DOMAIN'
  | 'FIELD_CHANGED_AFTER_HASHING'
  | 'HUMAN_DECIMALS_SIGNED'
  | 'WRONG_FIELD_ORDER_OR_WIDTH'
  | 'DIGEST_MISMATCH'
  | 'SIGNER_MISMATCH'
  | 'AGENT_APPROVAL_NOT_ACTIVE'
  | 'WRONG_APPROVAL_NONCE'
  | 'SIGNATURE_TYPE_MISMATCH';

/** What the signature doctor concluded about a rejected signed request. */
export interface Diagnosis {
  condition: AuthFailureCondition | 'UNKNOWN';
  sentence: string;
}

export class ExchangeError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly body: unknown;
  /** A sentence for the trader (also the message). */
  readonly sentence: string;
  /** Set on signed requests the server refused for authentication reasons. */
  diagnosis: Diagnosis | undefined;

  constructor(code: string, sentence: string, opts: { status?: number; body?: unknown; cause?: unknown } = {}) {
    super(sentence, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ExchangeError';
    this.code = code;
    this.sentence = sentence;
    this.status = opts.status;
    this.body = opts.body;
    this.diagnosis = undefined;
  }
}

/**
 * A non-2xx answer. `code` is the SCREAMING_CASE token of the body, or its sentence
 * (docs/protocol/choices.md#http-errors-and-rate-limits).
 */
export class ExchangeHttpError extends ExchangeError {
  override readonly status: number;
  readonly method: string;
  readonly path: string;
  /** The exchange's Retry-After (429, 503), in ms; undefined when it sent none. */
  readonly retryAfterMs: number | undefined;
  constructor(
    status: number,
    code: string,
    sentence: string,
    body: unknown,
    method: string,
    path: string,
    retryAfterMs?: number,
  ) {
    super(code, sentence, { status, body });
    this.name = 'ExchangeHttpError';
    this.status = status;
    this.method = method;
    this.path = path;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The request never got an answer (connection refused, reset, DNS). It may or may not have arrived. */
export class ExchangeTransportError extends ExchangeError {
  constructor(method: string, path: string, cause: unknown) {
    const detail =
      cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? ` (${cause.code})` : '';
    super('TRANSPORT_ERROR', `Could not reach the exchange for ${method} ${path}${detail}.`, { cause });
    this.name = 'ExchangeTransportError';
  }
}

export class ExchangeTimeoutError extends ExchangeError {
  readonly timeoutMs: number;
  constructor(method: string, path: string, timeoutMs: number) {
    super('TIMEOUT', `The exchange did not answer ${method} ${path} within ${timeoutMs / 1000} s.`);
    this.name = 'ExchangeTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The exchange's answer was bigger than we read (declared or counted); the socket was dropped. */
export class ExchangeResponseTooLargeError extends ExchangeError {
  readonly limitBytes: number;
  constructor(method: string, path: string, limitBytes: number) {
    super(
      'RESPONSE_TOO_LARGE',
      `The exchange's answer to ${method} ${path} was larger than ${formatBytes(limitBytes)}; it was not read.`,
    );
    this.name = 'ExchangeResponseTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** 4194304 → "4 MiB"; small limits in bytes. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export class ExchangeAbortError extends ExchangeError {
  constructor(method: string, path: string, cause?: unknown) {
    super('ABORTED', `${method} ${path} was cancelled.`, { cause });
    this.name = 'ExchangeAbortError';
  }
}

/** Local input rejected before signing, or a malformed response. `issues` name the JSON paths. */
export class ExchangeValidationError extends ExchangeError {
  readonly issues: readonly ValidationIssue[];
  constructor(code: string, sentence: string, issues: readonly ValidationIssue[] = [], cause?: unknown) {
    super(code, sentence, { cause });
    this.name = 'ExchangeValidationError';
    this.issues = issues;
  }
}

/** Wraps the protocol core's local errors into this family; passes our own through. */
export function toExchangeError(e: unknown): ExchangeError {
  if (e instanceof ExchangeError) return e;
  if (e instanceof UnitsError) return new ExchangeValidationError(e.code, e.message, [], e);
  if (e instanceof ProtocolValidationError)
    return new ExchangeValidationError('INVALID_REQUEST', e.message, e.issues, e);
  const msg = e instanceof Error ? e.message : String(e);
  return new ExchangeError('INTERNAL_ERROR', `Unexpected client error: ${msg}`, { cause: e });
}

/** Run `fn`, converting protocol-core errors to the family. */
export function localCheck<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw toExchangeError(e);
  }
}
