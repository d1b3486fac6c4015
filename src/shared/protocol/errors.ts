// Error types of the protocol core. Each carries a machine code and a human sentence;
// none ever includes key material.

/** Issue codes of reference-client validation (docs/protocol/endpoints.md#validation-issue-codes). */
export type ValidationIssueCode =
  | 'invalid_type'
  | 'invalid_value'
  | 'invalid_decimal_string'
  | 'integer_out_of_range'
  | 'missing_field'
  | 'unknown_field';

export interface ValidationIssue {
  code: ValidationIssueCode;
  /** JSON path such as `$.order.price`. */
  path: string;
  /** One sentence saying what is wrong and what is allowed. */
  message: string;
}

/** Local validation failure of an action, wrapper or packed value (docs/protocol/endpoints.md#client-error-classes). */
export class ProtocolValidationError extends Error {
  readonly code = 'PROTOCOL_VALIDATION' as const;
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
    super(first ? `${first.path}: ${first.message}${more}` : 'Validation failed.');
    this.name = 'ProtocolValidationError';
    this.issues = issues;
  }
}

export function validationError(code: ValidationIssueCode, path: string, message: string): ProtocolValidationError {
  return new ProtocolValidationError([{ code, path, message }]);
}

export type UnitsErrorCode =
  'INVALID_PRICE' | 'INVALID_SIZE' | 'INVALID_AMOUNT' | 'INVALID_TIMEFRAME' | 'INVALID_UNITS_VALUE';

/** A human decimal (or protocol integer given for display) that the unit rules of docs/protocol/units.md reject. */
export class UnitsError extends Error {
  readonly code: UnitsErrorCode;
  constructor(code: UnitsErrorCode, message: string) {
    super(message);
    this.name = 'UnitsError';
    this.code = code;
  }
}

/** Bad key or signature bytes. The message never contains the key. */
export class SigningError extends Error {
  readonly code: 'INVALID_PRIVATE_KEY' | 'INVALID_SIGNATURE' | 'INVALID_DIGEST' | 'ENGINE_MISMATCH';
  constructor(code: SigningError['code'], message: string) {
    super(message);
    this.name = 'SigningError';
    this.code = code;
  }
}
