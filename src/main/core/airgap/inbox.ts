/**
 * Every envelope that arrives, by file or by QR, comes through here: parsed with its format's full
 * checks, then routed. A request goes to the signing side (kept to be shown and signed); a response
 * goes to the online side (matched to the request prepared here and verified, never sent from here);
 * an emergency kit is checked against the selected deployment's pin and kept (kit-receive.ts).
 */
import type { InboxResult } from '../../../shared/bridge/airgap';
import {
  AirgapError,
  KIT_FORMAT,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  claimedFormat,
  jsonFromFileText,
  payloadFromJson,
  verifyResponse,
  type SignedResponse,
} from '../../../client';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { receiveKit } from './kit-receive';
import { domainPinnedHere } from './pins';
import { pendingView, receivedView } from './words';

/** An AirgapError keeps its sentence; its code is namespaced for the bridge. Anything else as it is. */
function inboxRefusal(error: unknown): unknown {
  return error instanceof AirgapError ? new BridgeFailure(`airgap.${error.code.toLowerCase()}`, error.message) : error;
}

/** An AirgapError keeps its sentence; its code is namespaced for the bridge. */
export function airgapFailure(error: unknown): never {
  throw inboxRefusal(error);
}

/**
 * `kitSource` is 'file' only where main itself read the file from its own dialog: `via` is the
 * window's word when airgap.receiveText names it, so a kit counts as the window's unless told.
 */
export async function receiveEnvelope(
  ctx: CoreContext,
  text: string,
  via: 'file' | 'qr',
  kitSource: 'file' | 'window' = 'window',
): Promise<InboxResult> {
  let json: unknown;
  try {
    // Both carriers hold the same JSON (a file indented, a QR payload compact): one reader for both.
    json = jsonFromFileText(text);
  } catch (error) {
    airgapFailure(error);
  }
  // A kit is read after its pin, its signatures off main's event loop (kit-receive.ts); the ledger
  // is checked where both sides know it: kit.openFile/importText pass the session's.
  if (claimedFormat(json, [REQUEST_FORMAT, RESPONSE_FORMAT, KIT_FORMAT]) === KIT_FORMAT)
    return { kind: 'kit', kit: await receiveKit(ctx, text, { source: kitSource, json, refusal: inboxRefusal }) };
  let payload;
  try {
    // What is neither is refused as payloadFromJson words it for the first format accepted.
    payload = payloadFromJson(json, [REQUEST_FORMAT, RESPONSE_FORMAT]);
  } catch (error) {
    airgapFailure(error);
  }
  switch (payload.format) {
    case REQUEST_FORMAT: {
      const request = payload.request;
      if (!ctx.vault.list().some((k) => k.address.toLowerCase() === request.signer.toLowerCase()))
        throw new BridgeFailure(
          'airgap.no_key',
          `This request must be signed by ${request.signer}, whose key is not in this vault.`,
        );
      const entry = ctx.airgap.addReceived(request);
      ctx.logger.info('airgap.received', { kind: request.kind, via });
      return { kind: 'request', request: receivedView(entry, domainPinnedHere(ctx, request)) };
    }
    case RESPONSE_FORMAT:
      return { kind: 'response', request: pendingView(matchResponse(ctx, payload.response, via)) };
    case KIT_FORMAT:
      throw new Error('A kit is taken in above, through receiveKit.');
  }
}

/** The online side: the response must answer a request prepared here, not yet sent, and verify against it. */
function matchResponse(ctx: CoreContext, response: SignedResponse, via: 'file' | 'qr') {
  const entry = ctx.airgap.pendingById(response.requestId);
  if (!entry)
    throw new BridgeFailure(
      'airgap.unknown_request',
      `This response (fingerprint ${response.fingerprint}) answers no request prepared on this machine; nothing was sent.`,
    );
  if (entry.state === 'sent')
    throw new BridgeFailure(
      'airgap.replayed',
      `This response was already used: the request ${entry.request.fingerprint} was sent once and is not sent again.`,
    );
  try {
    verifyResponse(entry.request, response);
  } catch (error) {
    airgapFailure(error);
  }
  ctx.airgap.updatePending(entry.request.id, { response, state: 'signed' });
  ctx.logger.info('airgap.response_matched', { kind: entry.request.kind, via });
  return entry;
}
