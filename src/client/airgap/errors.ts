// One error type for the air-gapped formats and their transport: a machine code and a sentence a
// person holding two screens can act on. Nothing here ever carries key material.

export type AirgapErrorCode =
  // Formats (request, response, kit)
  | 'AIRGAP_NOT_OURS'
  | 'AIRGAP_UNSUPPORTED_VERSION'
  | 'AIRGAP_MALFORMED'
  | 'AIRGAP_INCONSISTENT'
  | 'AIRGAP_FINGERPRINT_MISMATCH'
  | 'AIRGAP_REQUEST_MISMATCH'
  | 'AIRGAP_DOMAIN_MISMATCH'
  | 'AIRGAP_SIGNER_MISMATCH'
  | 'AIRGAP_DIGEST_MISMATCH'
  | 'AIRGAP_BAD_SIGNATURE'
  | 'AIRGAP_HIGH_S'
  | 'AIRGAP_WRONG_KEY'
  | 'AIRGAP_SIGNER_FAILED'
  | 'AIRGAP_EXPIRED'
  // Transport (UR parts, QR, files)
  | 'UR_MALFORMED_PART'
  | 'UR_WRONG_TYPE'
  | 'UR_MIXED_PAYLOADS'
  | 'UR_OVERSIZE'
  | 'UR_TRUNCATED'
  | 'UR_CHECKSUM'
  | 'QR_NOT_FOUND';

export class AirgapError extends Error {
  readonly code: AirgapErrorCode;
  /** A sentence for the user (also the message). */
  readonly sentence: string;

  constructor(code: AirgapErrorCode, sentence: string, opts: { cause?: unknown } = {}) {
    super(sentence, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AirgapError';
    this.code = code;
    this.sentence = sentence;
  }
}

export function airgapError(code: AirgapErrorCode, sentence: string, cause?: unknown): AirgapError {
  return new AirgapError(code, sentence, cause === undefined ? {} : { cause });
}
