// Multi-part transport with Blockchain Commons' Uniform Resources (UR): a payload's bytes become
// "ur:<type>/<n>-<m>/<bytewords>" parts (fountain-coded, so any large enough set of frames in any
// order rebuilds it), each small enough for one QR code. @ngraveio/bc-ur does the coding; this
// module parses every part itself first so each refusal has a code and a sentence.
import { UR, URDecoder, UREncoder } from '@ngraveio/bc-ur';
import { airgapError } from './errors';

/** Our UR types: registered-style names, one per format, so a code of the wrong kind is refused early. */
export const UR_TYPES = {
  request: 'et-sign-request',
  response: 'et-sign-response',
  kit: 'et-emergency-kit',
} as const;
export type UrType = (typeof UR_TYPES)[keyof typeof UR_TYPES];

const UR_TYPE_WORDS: Readonly<Record<UrType, string>> = {
  'et-sign-request': 'an unsigned request',
  'et-sign-response': 'a signed response',
  'et-emergency-kit': 'an emergency kit',
};

/** 250 payload bytes per part: about 600 characters, a QR code of version 13–15 that phone-grade cameras read. */
export const DEFAULT_FRAGMENT_BYTES = 250;
/** No part of ours is longer; the largest QR code holds 4,296 characters. */
export const MAX_PART_CHARS = 4296;
/** The largest payload accepted by default (an emergency kit of a thousand entries fits). */
export const DEFAULT_MAX_PAYLOAD_BYTES = 512 * 1024;
const MAX_PARTS = 4096;

function cborOfBytes(bytes: Uint8Array): Buffer {
  return UR.fromBuffer(Buffer.from(bytes)).cbor;
}

/** An endless stream of parts for an animated QR code: the first `seqLength` are the plain fragments, then fountain mixes. */
export class UrPartStream {
  readonly type: UrType;
  readonly #encoder: UREncoder;
  readonly single: boolean;

  constructor(type: UrType, bytes: Uint8Array, opts: { fragmentBytes?: number } = {}) {
    this.type = type;
    this.#encoder = new UREncoder(
      new UR(cborOfBytes(bytes), type),
      opts.fragmentBytes ?? DEFAULT_FRAGMENT_BYTES,
      0,
      10,
    );
    this.single = this.#encoder.fragmentsLength === 1;
  }

  /** How many distinct fragments the payload has (1 for a single-part UR). */
  get seqLength(): number {
    return this.#encoder.fragmentsLength;
  }

  /** Upper case: QR alphanumeric mode, the densest for UR text. */
  nextPart(): string {
    return this.#encoder.nextPart().toUpperCase();
  }
}

/** The plain fragments of a payload, enough to rebuild it when all are read. */
export function encodeUrParts(type: UrType, bytes: Uint8Array, opts: { fragmentBytes?: number } = {}): string[] {
  const stream = new UrPartStream(type, bytes, opts);
  return Array.from({ length: stream.seqLength }, () => stream.nextPart());
}

export type UrProgress =
  | { state: 'collecting'; type: UrType; received: number; expected: number; percent: number; duplicate: boolean }
  | { state: 'complete'; type: UrType; bytes: Uint8Array; duplicate: boolean };

interface PartHeader {
  seqNum: number;
  seqLength: number;
  messageLength: number;
  checksum: number;
  fragmentLength: number;
}

const TYPE_RE = /^[a-z0-9-]+$/;
const SEQ_RE = /^([1-9][0-9]{0,9})-([1-9][0-9]{0,9})$/;

function malformed(sentence: string, cause?: unknown): never {
  throw airgapError('UR_MALFORMED_PART', sentence, cause);
}

function decodeBytewords(body: string): Buffer {
  try {
    // URDecoder.decode checks the bytewords' CRC-32 and returns the CBOR inside.
    return URDecoder.decode(`ur:bytes/${body}`).cbor;
  } catch (error) {
    return malformed('This code is damaged: its checksum does not match (a misread, or a changed code).', error);
  }
}

function cborValue(cbor: Buffer): unknown {
  try {
    return new UR(cbor).decodeCBOR();
  } catch (error) {
    return malformed('This code is damaged: what it carries cannot be read.', error);
  }
}

function isUint(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

function partHeader(body: string, seqNum: number, seqLength: number): PartHeader {
  const v = cborValue(decodeBytewords(body));
  if (!Array.isArray(v) || v.length !== 5) return malformed('This code is not a part of a multi-part payload.');
  const [n, m, len, sum, fragment] = v as unknown[];
  if (!isUint(n) || !isUint(m) || !isUint(len) || !isUint(sum) || !Buffer.isBuffer(fragment) || fragment.length === 0) {
    return malformed('This code’s part header is malformed.');
  }
  if (n !== seqNum || m !== seqLength) return malformed('This code’s sequence number does not match what it carries.');
  return { seqNum: n, seqLength: m, messageLength: len, checksum: sum, fragmentLength: fragment.length };
}

/**
 * Collects parts in any order, with repeats, and refuses what does not belong with a coded
 * sentence. A refused part changes nothing; a payload that rebuilds with a bad checksum fails the
 * whole scan (start over).
 */
export class UrAssembler {
  readonly #accept: readonly UrType[];
  readonly #maxBytes: number;
  #type: UrType | null = null;
  #identity: PartHeader | null = null;
  #decoder: URDecoder | null = null;
  #seen = new Set<string>();
  #result: Uint8Array | null = null;
  #failed: Error | null = null;

  constructor(accept: readonly UrType[], opts: { maxBytes?: number } = {}) {
    this.#accept = accept;
    this.#maxBytes = opts.maxBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  }

  get type(): UrType | null {
    return this.#type;
  }

  reset(): void {
    this.#type = null;
    this.#identity = null;
    this.#decoder = null;
    this.#seen = new Set();
    this.#result = null;
    this.#failed = null;
  }

  receive(part: string): UrProgress {
    if (this.#failed) throw this.#failed;
    if (typeof part !== 'string') malformed('This code holds no text.');
    if (part.length > MAX_PART_CHARS)
      throw airgapError(
        'UR_OVERSIZE',
        `This code holds ${part.length} characters, more than any part of ours (${MAX_PART_CHARS}).`,
      );
    const text = part.trim().toLowerCase();
    if (!text.startsWith('ur:')) malformed('This code is not a UR part (it does not start with “ur:”).');
    const path = text.slice(3).split('/');
    const type = path[0]!;
    if (!TYPE_RE.test(type) || path.length < 2 || path.length > 3 || path.some((p) => p.length === 0))
      malformed('This code is not a well-formed UR part.');
    const ours = this.#accept.find((t) => t === type);
    if (!ours) {
      const what = (Object.keys(UR_TYPE_WORDS) as UrType[]).find((t) => t === type);
      const expected = this.#accept.map((t) => UR_TYPE_WORDS[t]).join(' or ');
      throw airgapError(
        'UR_WRONG_TYPE',
        `This code carries ${what ? UR_TYPE_WORDS[what] : `a “${type.slice(0, 40)}”`}, but ${expected} was expected here.`,
      );
    }
    if (this.#type !== null && this.#type !== ours) {
      throw airgapError(
        'UR_MIXED_PAYLOADS',
        `This code belongs to ${UR_TYPE_WORDS[ours]}, not to the ${UR_TYPE_WORDS[this.#type]} being read: show one payload at a time.`,
      );
    }
    return path.length === 2 ? this.#single(ours, path[1]!) : this.#multi(ours, path[1]!, path[2]!, text);
  }

  #complete(type: UrType, duplicate: boolean): UrProgress {
    return { state: 'complete', type, bytes: this.#result!.slice(), duplicate };
  }

  #payloadBytes(cbor: Buffer): Uint8Array {
    const v = cborValue(cbor);
    if (!Buffer.isBuffer(v)) malformed('This code does not carry a byte payload.');
    if (v.length > this.#maxBytes)
      throw airgapError('UR_OVERSIZE', `This payload is ${v.length} bytes, more than the ${this.#maxBytes} accepted.`);
    return new Uint8Array(v);
  }

  #single(type: UrType, body: string): UrProgress {
    if (body.length / 2 > this.#maxBytes + 16)
      throw airgapError('UR_OVERSIZE', `This payload is larger than the ${this.#maxBytes} bytes accepted.`);
    const bytes = this.#payloadBytes(decodeBytewords(body));
    if (this.#identity !== null) {
      throw airgapError(
        'UR_MIXED_PAYLOADS',
        'This single code does not belong to the multi-part payload being read: show one payload at a time.',
      );
    }
    if (this.#result !== null) {
      if (!sameBytes(this.#result, bytes))
        throw airgapError(
          'UR_MIXED_PAYLOADS',
          'This code carries another payload than the one already read: show one payload at a time.',
        );
      return this.#complete(type, true);
    }
    this.#type = type;
    this.#result = bytes;
    return this.#complete(type, false);
  }

  #multi(type: UrType, seq: string, body: string, text: string): UrProgress {
    const m = SEQ_RE.exec(seq);
    if (!m) malformed('This code’s sequence “n-m” is malformed.');
    const seqNum = Number(m[1]);
    const seqLength = Number(m[2]);
    if (seqLength > MAX_PARTS)
      throw airgapError(
        'UR_OVERSIZE',
        `This payload says it has ${seqLength} parts, more than the ${MAX_PARTS} accepted.`,
      );
    const header = partHeader(body, seqNum, seqLength);
    // The CBOR wrapper adds a few bytes to the payload; the fragments never exceed the message.
    if (header.messageLength > this.#maxBytes + 16)
      throw airgapError(
        'UR_OVERSIZE',
        `This payload is ${header.messageLength} bytes, more than the ${this.#maxBytes} accepted.`,
      );
    if (header.fragmentLength > header.messageLength)
      malformed('This code’s fragment is longer than its whole payload.');
    if (this.#result !== null && this.#identity === null) {
      throw airgapError(
        'UR_MIXED_PAYLOADS',
        'This code belongs to another payload than the single code already read: show one payload at a time.',
      );
    }
    const id = this.#identity;
    if (
      id &&
      (id.seqLength !== header.seqLength ||
        id.messageLength !== header.messageLength ||
        id.checksum !== header.checksum ||
        id.fragmentLength !== header.fragmentLength)
    ) {
      throw airgapError(
        'UR_MIXED_PAYLOADS',
        'This code belongs to another payload than the one being read: show one payload at a time, or start over.',
      );
    }
    const duplicate = this.#seen.has(text);
    if (this.#result !== null) return this.#complete(type, true);
    if (!id) {
      this.#identity = header;
      this.#type = type;
      this.#decoder = new URDecoder(undefined, type);
    }
    const decoder = this.#decoder!;
    if (!duplicate) {
      this.#seen.add(text);
      let accepted: boolean;
      try {
        accepted = decoder.receivePart(text);
      } catch (error) {
        return malformed('This code could not be read as a part.', error);
      }
      if (!accepted) malformed('This code could not be added to the payload being read.');
    }
    if (decoder.isError()) {
      this.#failed = airgapError(
        'UR_CHECKSUM',
        'The parts read do not rebuild the payload they describe (its checksum fails): something was changed on the way. Start over.',
      );
      throw this.#failed;
    }
    if (decoder.isSuccess()) {
      this.#result = this.#payloadBytes(decoder.resultUR().cbor);
      return this.#complete(type, duplicate);
    }
    return {
      state: 'collecting',
      type,
      received: decoder.receivedPartIndexes().length,
      expected: decoder.expectedPartCount(),
      percent: decoder.estimatedPercentComplete(),
      duplicate,
    };
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
