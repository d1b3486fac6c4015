/**
 * MINIMAL stand-in for the inbox (written by another branch at the same time): it only reads an
 * envelope with every check of src/client/airgap and says what it is. The full inbox replaces this
 * file; the QR transport (qr-transport.ts) calls only `receiveEnvelope` and reads only the fields
 * of `ReceivedEnvelope`.
 */
import {
  KIT_FORMAT,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  payloadFromFileText,
  type AirgapFormat,
  type AirgapPayload,
} from '../../../client';
import type { CoreContext } from '../context';

export type EnvelopeSource = 'qr' | 'file';

export interface ReceivedEnvelope {
  readonly format: AirgapFormat;
  /** The request kind ("order", …), "signed-response" or "emergency-kit". */
  readonly kind: string;
  readonly fingerprint: string;
}

const ALL_FORMATS: readonly AirgapFormat[] = [REQUEST_FORMAT, RESPONSE_FORMAT, KIT_FORMAT];

export function envelopeFacts(payload: AirgapPayload): ReceivedEnvelope {
  switch (payload.format) {
    case REQUEST_FORMAT:
      return { format: payload.format, kind: payload.request.kind, fingerprint: payload.request.fingerprint };
    case RESPONSE_FORMAT:
      return { format: payload.format, kind: 'signed-response', fingerprint: payload.response.fingerprint };
    case KIT_FORMAT:
      return { format: payload.format, kind: 'emergency-kit', fingerprint: payload.kit.fingerprint };
  }
}

/** Reads the envelope in full (throws an AirgapError with a sentence when anything is wrong) and says what it is. */
export function receiveEnvelope(ctx: CoreContext, text: string, source: EnvelopeSource): ReceivedEnvelope {
  const facts = envelopeFacts(payloadFromFileText(text, ALL_FORMATS));
  ctx.logger.info('airgap.received', { source, format: facts.format, kind: facts.kind });
  return facts;
}
