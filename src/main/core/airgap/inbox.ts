/**
 * MINIMAL stand-in for the inbox (written by another branch at the same time): it only reads an
 * envelope with every check of src/client/airgap and says what it is. The full inbox replaces this
 * file; the QR transport (qr-transport.ts) calls only `receiveEnvelope(ctx, text, 'qr')` and reads
 * nothing of its answer (a refusal is an AirgapError or a coded BridgeFailure).
 */
import { KIT_FORMAT, REQUEST_FORMAT, RESPONSE_FORMAT, payloadFromFileText, type AirgapFormat } from '../../../client';
import type { CoreContext } from '../context';
import { envelopeFacts, type ReceivedEnvelope } from './qr-transport';

export type EnvelopeSource = 'qr' | 'file';

const ALL_FORMATS: readonly AirgapFormat[] = [REQUEST_FORMAT, RESPONSE_FORMAT, KIT_FORMAT];

/** Reads the envelope in full (throws an AirgapError with a sentence when anything is wrong) and says what it is. */
export function receiveEnvelope(ctx: CoreContext, text: string, source: EnvelopeSource): ReceivedEnvelope {
  const facts = envelopeFacts(payloadFromFileText(text, ALL_FORMATS));
  ctx.logger.info('airgap.received', { source, format: facts.format, kind: facts.kind });
  return facts;
}
