/**
 * QR transport sessions in main. A "show" turns a checked envelope into an endless stream of UR
 * parts that the window draws as animated QR codes; a "scan" collects the texts the window's camera
 * or image files read, refuses what does not belong with a sentence (the refused text changes
 * nothing), and hands the whole envelope to the inbox once it is complete. The camera may be used
 * only while a scan that asked for it is open (see window/policies.ts). Bounded: a few sessions of
 * each kind, parts capped, sessions expire when idle.
 */
import { randomBytes } from 'node:crypto';
import {
  AirgapError,
  DEFAULT_MAX_PAYLOAD_BYTES,
  FORMAT_OF_UR_TYPE,
  KIT_FORMAT,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  UR_TYPES,
  UR_TYPE_OF,
  UrAssembler,
  UrPartStream,
  claimedFormat,
  jsonFromBytes,
  jsonFromFileText,
  payloadBytes,
  payloadFromJson,
  readKitHeader,
  type AirgapFormat,
  type AirgapPayload,
  type EmergencyKit,
  type KitHeader,
  type UrType,
} from '../../../client';
import type { AirgapPayloadName, EnvelopeFacts, QrShowView, ScanProblem, ScanProgress } from '../../../shared/bridge';
import { BridgeFailure } from '../bridge-runtime';
import { checkKitInSlices } from './kit-checks';

export const QR_LIMITS = {
  /** Shows open at once; opening another closes the oldest. */
  shows: 4,
  /** Scans open at once; opening another closes the oldest. */
  scans: 2,
  /** A show or scan nobody used for this long is closed. */
  idleMs: 5 * 60_000,
  /** And none lives longer than this, used or not. */
  lifeMs: 30 * 60_000,
  /** Parts one show hands out in all (minutes of animation at any sensible rate). */
  partsPerShow: 10_000,
  /** Texts one scan accepts in all, refused ones included. */
  textsPerScan: 20_000,
} as const;

const NAME_OF_FORMAT: Readonly<Record<AirgapFormat, AirgapPayloadName>> = {
  [REQUEST_FORMAT]: 'request',
  [RESPONSE_FORMAT]: 'response',
  [KIT_FORMAT]: 'kit',
};
const UR_OF_NAME: Readonly<Record<AirgapPayloadName, UrType>> = {
  request: UR_TYPES.request,
  response: UR_TYPES.response,
  kit: UR_TYPES.kit,
};

/** What a received or shown envelope is: read from the envelope itself, whatever the inbox answers. */
export interface ReceivedEnvelope {
  readonly format: AirgapFormat;
  /** The request kind ("order", …), "signed-response" or "emergency-kit". */
  readonly kind: string;
  readonly fingerprint: string;
}

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

/** A kit's facts from what it says of itself (readKitHeader): the inbox checks the rest before keeping it. */
function kitFacts(header: KitHeader): ReceivedEnvelope {
  return { format: KIT_FORMAT, kind: 'emergency-kit', fingerprint: header.fingerprint };
}

/** "an unsigned order request", "a signed response", "an emergency kit". */
export function envelopeWords(facts: ReceivedEnvelope): string {
  switch (facts.format) {
    case REQUEST_FORMAT:
      return `an unsigned ${facts.kind.replace(/-/g, ' ')} request`;
    case RESPONSE_FORMAT:
      return 'a signed response';
    case KIT_FORMAT:
      return 'an emergency kit';
  }
}

function view(facts: ReceivedEnvelope): EnvelopeFacts {
  return {
    payload: NAME_OF_FORMAT[facts.format],
    what: envelopeWords(facts),
    kind: facts.kind,
    fingerprint: facts.fingerprint,
  };
}

/** Some checks word a schema issue without a final stop; every sentence the window shows ends with one. */
function sentenceOf(error: AirgapError): string {
  return /[.!?)]$/.test(error.sentence) ? error.sentence : `${error.sentence}.`;
}

/** "UR_MIXED_PAYLOADS" → "ur_mixed_payloads": the window's codes are lower case. */
function problemOf(error: AirgapError): ScanProblem {
  return { code: error.code.toLowerCase(), sentence: sentenceOf(error) };
}

export interface QrTransportDeps {
  readonly now: () => number;
  /**
   * The inbox (inbox.ts `receiveEnvelope`): checks the envelope in full and keeps it; a refusal is an
   * AirgapError or a coded BridgeFailure with a sentence. What it answers is not read here.
   */
  readonly receive: (text: string) => unknown;
  /**
   * Reads and checks the kit in `text` in full (seconds for a large one) off main's event loop, as
   * kit-checks.ts does; on this thread, its signatures in slices, by default.
   */
  readonly checkKit?: (text: string) => Promise<EmergencyKit>;
  readonly newId?: () => string;
}

interface Timed {
  readonly openedAt: number;
  usedAt: number;
}

interface Show extends Timed {
  readonly stream: UrPartStream;
  readonly facts: ReceivedEnvelope;
  handedOut: number;
}

interface Scan extends Timed {
  readonly camera: boolean;
  readonly assembler: UrAssembler;
  texts: number;
  received: number;
  expected: number;
  fraction: number;
  problem: ScanProblem | null;
  state: ScanProgress['state'];
  envelope: EnvelopeFacts | null;
  /** Set while the inbox reads the completed payload, so a second text does not receive it twice. */
  receiving: Promise<void> | null;
}

const ALL_FORMATS = [REQUEST_FORMAT, RESPONSE_FORMAT, KIT_FORMAT] as const;

const closedShow = (): BridgeFailure =>
  new BridgeFailure(
    'airgap.show_closed',
    'This display of QR codes has ended (closed, replaced or idle too long): show the envelope again.',
  );
const closedScan = (): BridgeFailure =>
  new BridgeFailure(
    'airgap.scan_closed',
    'This scan has ended (closed, replaced or idle too long): start a new scan. Nothing was received from it.',
  );

export class QrTransport {
  readonly #deps: QrTransportDeps;
  readonly #newId: () => string;
  readonly #shows = new Map<string, Show>();
  readonly #scans = new Map<string, Scan>();

  readonly #checkKit: (text: string) => Promise<EmergencyKit>;

  constructor(deps: QrTransportDeps) {
    this.#deps = deps;
    this.#newId = deps.newId ?? (() => randomBytes(12).toString('base64url'));
    this.#checkKit = deps.checkKit ?? (async (text) => (await checkKitInSlices(text)).kit);
  }

  // -- show ----------------------------------------------------------------------------------

  /** Checks the envelope in full (a window cannot have arbitrary data drawn) and opens a show. */
  async show(text: string): Promise<QrShowView> {
    this.#sweep();
    const json = airgap(() => jsonFromFileText(text));
    // A kit's entries and signatures (seconds for a large one) are read off main's event loop.
    const payload: AirgapPayload =
      claimedFormat(json, ALL_FORMATS) === KIT_FORMAT
        ? { format: KIT_FORMAT, kit: await airgapAsync(() => this.#checkKit(text)) }
        : airgap(() => payloadFromJson(json, ALL_FORMATS));
    this.#sweep();
    const bytes = payloadBytes(payload);
    if (bytes.length > DEFAULT_MAX_PAYLOAD_BYTES)
      throw new BridgeFailure(
        'airgap.too_large_for_qr',
        `This envelope is ${bytes.length} bytes, more than the ${DEFAULT_MAX_PAYLOAD_BYTES} a scan accepts: carry it as a file.`,
      );
    const facts = envelopeFacts(payload);
    const stream = new UrPartStream(UR_TYPE_OF[payload.format], bytes);
    evictOldest(this.#shows, QR_LIMITS.shows - 1);
    const now = this.#deps.now();
    const showId = this.#newId();
    this.#shows.set(showId, { stream, facts, handedOut: 0, openedAt: now, usedAt: now });
    return { showId, envelope: view(facts), parts: stream.seqLength };
  }

  /** The next `count` parts: the plain fragments first, then fountain mixes, for ever (up to the cap). */
  parts(showId: string, count: number): string[] {
    this.#sweep();
    const show = this.#shows.get(showId);
    if (!show) throw closedShow();
    if (show.handedOut + count > QR_LIMITS.partsPerShow) {
      this.#shows.delete(showId);
      throw new BridgeFailure(
        'airgap.show_exhausted',
        `This display has shown ${show.handedOut} codes, as many as one display may: show the envelope again.`,
      );
    }
    show.usedAt = this.#deps.now();
    // A single-part envelope is one still code: the same text every time.
    const n = show.stream.single ? 1 : count;
    const out = Array.from({ length: n }, () => show.stream.nextPart());
    show.handedOut += n;
    return out;
  }

  hide(showId: string): void {
    this.#shows.delete(showId);
  }

  // -- scan ----------------------------------------------------------------------------------

  scanBegin(accept: readonly AirgapPayloadName[], camera: boolean): ScanProgress {
    this.#sweep();
    const kinds = [...new Set(accept)];
    evictOldest(this.#scans, QR_LIMITS.scans - 1);
    const now = this.#deps.now();
    const scanId = this.#newId();
    const scan: Scan = {
      camera,
      assembler: new UrAssembler(kinds.map((k) => UR_OF_NAME[k])),
      texts: 0,
      received: 0,
      expected: 0,
      fraction: 0,
      problem: null,
      state: 'collecting',
      envelope: null,
      receiving: null,
      openedAt: now,
      usedAt: now,
    };
    this.#scans.set(scanId, scan);
    return progress(scanId, scan);
  }

  async scanPart(scanId: string, text: string): Promise<ScanProgress> {
    this.#sweep();
    const scan = this.#scans.get(scanId);
    if (!scan) throw closedScan();
    scan.usedAt = this.#deps.now();
    if (scan.receiving) await scan.receiving;
    // A finished scan answers what it is; the window stops sending (a camera may still see codes).
    if (scan.state !== 'collecting') return progress(scanId, scan);
    if (++scan.texts > QR_LIMITS.textsPerScan) {
      fail(
        scan,
        'too_many_codes',
        `${QR_LIMITS.textsPerScan} codes were read without completing a payload: start a new scan.`,
      );
      return progress(scanId, scan);
    }
    let step;
    try {
      step = scan.assembler.receive(text);
    } catch (error) {
      if (!(error instanceof AirgapError)) throw error;
      // A checksum failure of the rebuilt payload ends the scan; any other refusal ignores the text.
      if (error.code === 'UR_CHECKSUM') fail(scan, 'ur_checksum', error.sentence);
      else scan.problem = problemOf(error);
      return progress(scanId, scan);
    }
    // Distinct parts taken (fountain mixes count too): what the person sees grow with each new code.
    if (!step.duplicate) scan.received += 1;
    if (step.state === 'collecting') {
      scan.expected = step.expected;
      scan.fraction = Math.min(1, Math.max(0, step.percent));
      scan.problem = null;
      return progress(scanId, scan);
    }
    scan.receiving = this.#complete(scan, step.type, step.bytes);
    await scan.receiving;
    scan.receiving = null;
    return progress(scanId, scan);
  }

  scanCancel(scanId: string): void {
    this.#scans.delete(scanId);
  }

  /** True while a scan that asked for the camera is open and not idle too long: the permission check reads this. */
  cameraOpen(): boolean {
    const now = this.#deps.now();
    for (const scan of this.#scans.values())
      if (scan.camera && scan.state === 'collecting' && live(scan, now)) return true;
    return false;
  }

  /** Open sessions, for tests and the log. */
  counts(): { shows: number; scans: number } {
    this.#sweep();
    return { shows: this.#shows.size, scans: this.#scans.size };
  }

  async #complete(scan: Scan, type: UrType, bytes: Uint8Array): Promise<void> {
    const format = FORMAT_OF_UR_TYPE[type];
    let facts: ReceivedEnvelope;
    try {
      // A code of one type never becomes another format: read it as its type says, then let the inbox keep it.
      // A kit's signatures are checked by the inbox, after its pin and off main's loop (kit-receive.ts).
      const json = jsonFromBytes(bytes);
      facts = format === KIT_FORMAT ? kitFacts(readKitHeader(json)) : envelopeFacts(payloadFromJson(json, [format]));
      await this.#deps.receive(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (error) {
      if (error instanceof AirgapError)
        fail(
          scan,
          error.code.toLowerCase(),
          `The codes were read whole, but what they carry was refused: ${sentenceOf(error)}`,
        );
      else if (error instanceof BridgeFailure) {
        const code = error.code.replace(/^airgap\./, '');
        // The inbox's refusal of the kit's own content (airgap.*) reads as when it was refused here.
        const content = format === KIT_FORMAT && code !== error.code;
        fail(
          scan,
          code,
          content ? `The codes were read whole, but what they carry was refused: ${error.message}` : error.message,
        );
      } else throw error;
      return;
    }
    scan.state = 'complete';
    scan.problem = null;
    scan.fraction = 1;
    scan.expected = Math.max(scan.expected, 1);
    scan.envelope = view(facts);
  }

  #sweep(): void {
    const now = this.#deps.now();
    for (const [id, s] of this.#shows) if (!live(s, now)) this.#shows.delete(id);
    for (const [id, s] of this.#scans) if (!live(s, now)) this.#scans.delete(id);
  }
}

function live(s: Timed, now: number): boolean {
  return now - s.usedAt < QR_LIMITS.idleMs && now - s.openedAt < QR_LIMITS.lifeMs;
}

/** Maps keep insertion order: drop the first entries until at most `keep` are left. */
function evictOldest(map: Map<string, unknown>, keep: number): void {
  for (const id of map.keys()) {
    if (map.size <= keep) break;
    map.delete(id);
  }
}

function fail(scan: Scan, code: string, sentence: string): void {
  scan.state = 'failed';
  scan.problem = { code, sentence };
}

function progress(scanId: string, scan: Scan): ScanProgress {
  return {
    scanId,
    state: scan.state,
    received: scan.received,
    expected: scan.expected,
    fraction: scan.fraction,
    problem: scan.problem,
    envelope: scan.envelope,
  };
}

/** Runs a check of src/client/airgap; its refusal becomes a coded bridge failure with the same sentence. */
function airgap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw bridgeFailureOf(error);
  }
}

async function airgapAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw bridgeFailureOf(error);
  }
}

function bridgeFailureOf(error: unknown): unknown {
  return error instanceof AirgapError
    ? new BridgeFailure(`airgap.${error.code.toLowerCase().replace(/^airgap_/, '')}`, sentenceOf(error))
    : error;
}
