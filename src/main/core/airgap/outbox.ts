/** The envelope text of a request prepared here or a response signed here: for a file, or for the QR display. */
import {
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  payloadToFileText,
  suggestedFileName,
  type AirgapPayload,
} from '../../../client';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';

export type EnvelopeKind = 'request' | 'response';

function payloadOf(ctx: CoreContext, kind: EnvelopeKind, id: string): AirgapPayload {
  if (kind === 'request') {
    const entry = ctx.airgap.pendingById(id);
    if (!entry) throw new BridgeFailure('airgap.not_found', 'No request with that id was prepared on this machine.');
    return { format: REQUEST_FORMAT, request: entry.request };
  }
  const response = ctx.airgap.receivedById(id)?.response;
  if (!response) throw new BridgeFailure('airgap.not_found', 'No response to that request was signed on this machine.');
  return { format: RESPONSE_FORMAT, response };
}

/** The indented JSON of the envelope (what a file holds; a QR transport may compact it) and a file name. */
export function envelopeText(ctx: CoreContext, kind: EnvelopeKind, id: string): { text: string; fileName: string } {
  const payload = payloadOf(ctx, kind, id);
  return { text: payloadToFileText(payload), fileName: suggestedFileName(payload) };
}
