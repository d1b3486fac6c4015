// Errors the service answers with: an HTTP status, a SCREAMING_CASE code and one sentence.
import type { ValidationIssue } from '../../shared/protocol';

/** The JSON error body of every non-2xx answer (README.md, "Errors"). */
export interface ErrorBody {
  error: string;
  message: string;
  /**
   * Field-level problems for malformed requests (the codes of docs/protocol/endpoints.md#validation-issue-codes, `$.`
   * paths).
   */
  issues?: readonly ValidationIssue[];
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: readonly ValidationIssue[],
    /** Extra response headers (Retry-After on a 429). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }

  body(): ErrorBody {
    return this.issues === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, issues: this.issues };
  }
}

export const badRequest = (code: string, message: string, issues?: readonly ValidationIssue[]): ServiceError =>
  new ServiceError(400, code, message, issues);
export const unauthorized = (code: string, message: string): ServiceError => new ServiceError(401, code, message);
export const forbidden = (code: string, message: string): ServiceError => new ServiceError(403, code, message);
export const notFound = (code: string, message: string): ServiceError => new ServiceError(404, code, message);
/** 429 with Retry-After in whole seconds (at least 1), as HTTP wants it. */
export const tooManyRequests = (code: string, message: string, retryAfterMs: number): ServiceError =>
  new ServiceError(429, code, message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });

/** Journal or start-up failure: the service cannot promise durability any more. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    readonly code: 'JOURNAL_CORRUPT' | 'JOURNAL_UNAVAILABLE' | 'JOURNAL_MISMATCH',
    message: string,
  ) {
    super(message);
  }
}
