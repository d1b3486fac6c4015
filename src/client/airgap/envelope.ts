// One envelope, two carriers: the JSON form of a request, response or kit is written to a file as
// text, or sent as the UTF-8 bytes of its compact JSON inside UR parts for QR codes. Both read back
// through the same checks (request.ts, response.ts, kit.ts).
import { airgapError } from './errors';
import { expectFormat } from './edge';
import {
  KIT_FORMAT,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  formatProbe,
  type AirgapFormat,
  type EmergencyKit,
  type SignedResponse,
  type UnsignedRequest,
} from './formats';
import { kitToJson, parseEmergencyKit } from './kit';
import { parseUnsignedRequest, requestToJson } from './request';
import { parseSignedResponse, responseToJson } from './response';
import { UR_TYPES, type UrType } from './ur';

export type AirgapPayload =
  | { format: typeof REQUEST_FORMAT; request: UnsignedRequest }
  | { format: typeof RESPONSE_FORMAT; response: SignedResponse }
  | { format: typeof KIT_FORMAT; kit: EmergencyKit };

export const UR_TYPE_OF: Readonly<Record<AirgapFormat, UrType>> = {
  [REQUEST_FORMAT]: UR_TYPES.request,
  [RESPONSE_FORMAT]: UR_TYPES.response,
  [KIT_FORMAT]: UR_TYPES.kit,
};

/** The format a completed scan of each UR type must read as: a code of one type never becomes another format. */
export const FORMAT_OF_UR_TYPE: Readonly<Record<UrType, AirgapFormat>> = {
  [UR_TYPES.request]: REQUEST_FORMAT,
  [UR_TYPES.response]: RESPONSE_FORMAT,
  [UR_TYPES.kit]: KIT_FORMAT,
};

/** A file of ours is never larger; anything bigger is refused before it is parsed. */
export const MAX_FILE_CHARS = 1024 * 1024;

export function payloadToJson(payload: AirgapPayload): object {
  switch (payload.format) {
    case REQUEST_FORMAT:
      return requestToJson(payload.request);
    case RESPONSE_FORMAT:
      return responseToJson(payload.response);
    case KIT_FORMAT:
      return kitToJson(payload.kit);
  }
}

/** Reads any of the three from its JSON form, with every check its format has. */
export function payloadFromJson(value: unknown, accept: readonly AirgapFormat[]): AirgapPayload {
  const format = claimedFormat(value, accept);
  if (format === undefined) {
    expectFormat(value, accept[0]!); // names what it is, or says it is not ours
    throw airgapError('AIRGAP_NOT_OURS', 'This is not what was expected here.');
  }
  switch (format) {
    case REQUEST_FORMAT:
      return { format, request: parseUnsignedRequest(value) };
    case RESPONSE_FORMAT:
      return { format, response: parseSignedResponse(value) };
    case KIT_FORMAT:
      return { format, kit: parseEmergencyKit(value) };
  }
}

/** The bytes a QR transport carries: compact JSON, UTF-8. */
export function payloadBytes(payload: AirgapPayload): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(payloadToJson(payload)));
}

/** True when JSON text ends inside a string or an open object or array: what a cut-off copy looks like. */
function endsOpen(text: string): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return inString || depth > 0;
}

function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (endsOpen(text))
      throw airgapError(
        'UR_TRUNCATED',
        `This ${what} stops before its end: it was cut off. Read or copy it again.`,
        error,
      );
    throw airgapError('AIRGAP_MALFORMED', `This ${what} is not JSON, so it is not one of ours.`, error);
  }
}

/** The JSON a QR payload's bytes hold: the first step of payloadFromBytes. */
export function jsonFromBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    // stream: a character cut in half at the end is a cut-off payload, reported as such below.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch (error) {
    throw airgapError('AIRGAP_MALFORMED', 'This payload is not text, so it is not one of ours.', error);
  }
  return parseJsonText(text, 'payload');
}

export function payloadFromBytes(bytes: Uint8Array, accept: readonly AirgapFormat[]): AirgapPayload {
  return payloadFromJson(jsonFromBytes(bytes), accept);
}

/** The file form: the same JSON, indented, with a final newline. */
export function payloadToFileText(payload: AirgapPayload): string {
  return `${JSON.stringify(payloadToJson(payload), null, 2)}\n`;
}

/** The JSON a file's text holds, refused unread past MAX_FILE_CHARS: the first step of payloadFromFileText. */
export function jsonFromFileText(text: string): unknown {
  if (text.length > MAX_FILE_CHARS) throw airgapError('UR_OVERSIZE', 'This file is too large to be one of ours.');
  return parseJsonText(text, 'file');
}

export function payloadFromFileText(text: string, accept: readonly AirgapFormat[]): AirgapPayload {
  return payloadFromJson(jsonFromFileText(text), accept);
}

/**
 * Which of `accept` a JSON value says it is; undefined when none (payloadFromJson then says what it
 * is). Lets a reader take a kit apart from the rest before its costly checks (kit.ts kitChecks).
 */
export function claimedFormat(value: unknown, accept: readonly AirgapFormat[]): AirgapFormat | undefined {
  const probe = formatProbe.safeParse(value);
  return accept.find((f) => probe.success && probe.data.format === f);
}

/** A file name that says what the file is, e.g. "request-order-ABCD-EFGH.json". */
export function suggestedFileName(payload: AirgapPayload): string {
  switch (payload.format) {
    case REQUEST_FORMAT:
      return `request-${payload.request.kind}-${payload.request.fingerprint.slice(0, 9)}.json`;
    case RESPONSE_FORMAT:
      return `response-${payload.response.fingerprint.slice(0, 9)}.json`;
    case KIT_FORMAT:
      return `emergency-kit-${payload.kit.fingerprint.slice(0, 9)}.json`;
  }
}
