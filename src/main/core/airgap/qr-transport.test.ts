// QR transport sessions: a show's parts scan back into the identical envelope; every malformed,
// foreign, mixed, truncated or tampered input gets a coded sentence and receives nothing; sessions
// are bounded in number, parts and time.
import { describe, expect, it, vi } from 'vitest';
import {
  NonceRegistry,
  REQUEST_FORMAT,
  UR_TYPES,
  UrPartStream,
  draftOrder,
  payloadBytes,
  payloadToFileText,
  AirgapError,
  type AirgapPayload,
  type UrType,
} from '../../../client';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { QR_LIMITS, QrTransport, envelopeFacts, type ReceivedEnvelope } from './qr-transport';
import { BridgeFailure } from '../bridge-runtime';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;

async function orderEnvelope(price = '62.5'): Promise<AirgapPayload> {
  const request = await draftOrder(
    {
      signer: MASTER,
      domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
      contracts: { exchange: EXCHANGE, ledger: null },
      nonces: new NonceRegistry(),
    },
    { assetId: 7n, epoch: 12n, side: 'buy', price, size: '10' },
  );
  return { format: REQUEST_FORMAT, request };
}

function transport(now = { t: 1_000_000 }) {
  const received: string[] = [];
  let n = 0;
  const qr = new QrTransport({
    now: () => now.t,
    newId: () => `id${++n}`,
    receive: (text): ReceivedEnvelope => {
      received.push(text);
      const { fingerprint } = JSON.parse(text) as { fingerprint: string };
      return { format: REQUEST_FORMAT, kind: 'order', fingerprint };
    },
  });
  return { qr, received, now };
}

/** The parts of arbitrary bytes under a UR type, as a foreign or tampering sender would make them. */
function partsOf(bytes: Uint8Array, type: UrType = UR_TYPES.request): string[] {
  const stream = new UrPartStream(type, bytes);
  return Array.from({ length: stream.seqLength }, () => stream.nextPart());
}

describe('show and scan', () => {
  it('turns a checked envelope into parts that scan back into the identical envelope, received once', async () => {
    const payload = await orderEnvelope();
    const { qr, received } = transport();
    const shown = await qr.show(payloadToFileText(payload));
    expect(shown.envelope).toEqual({
      payload: 'request',
      what: 'an unsigned order request',
      kind: 'order',
      fingerprint: payload.format === REQUEST_FORMAT ? payload.request.fingerprint : '',
    });
    expect(shown.parts).toBeGreaterThan(1);
    const parts = qr.parts(shown.showId, shown.parts);
    expect(parts).toHaveLength(shown.parts);
    expect(parts.every((p) => p.startsWith('UR:ET-SIGN-REQUEST/'))).toBe(true);

    const scan = qr.scanBegin(['request'], true);
    expect(scan).toMatchObject({ state: 'collecting', received: 0, expected: 0, problem: null, envelope: null });
    let last = scan;
    // Backwards, with a repeat: order does not matter.
    for (const part of [...parts].reverse().concat(parts[0]!)) {
      last = await qr.scanPart(scan.scanId, part);
      if (last.state !== 'collecting') break;
      expect(last.expected).toBe(shown.parts);
    }
    expect(last.state).toBe('complete');
    expect(last.received).toBe(shown.parts);
    expect(last.envelope).toEqual(shown.envelope);
    expect(received).toEqual([new TextDecoder().decode(payloadBytes(payload))]);
    // A replayed part after completion receives nothing again.
    expect((await qr.scanPart(scan.scanId, parts[1]!)).state).toBe('complete');
    expect(received).toHaveLength(1);
  });

  it('refuses to show anything that is not a valid envelope of ours, with a sentence', async () => {
    const { qr } = transport();
    const text = payloadToFileText(await orderEnvelope());
    const tampered = text.replace('"epoch": "12"', '"epoch": "13"');
    expect(tampered).not.toBe(text);
    await expect(qr.show(tampered)).rejects.toMatchObject({ code: 'airgap.fingerprint_mismatch' });
    await expect(qr.show(text.slice(0, 200))).rejects.toMatchObject({ code: 'airgap.ur_truncated' });
    await expect(qr.show('{"hello":"world"}')).rejects.toMatchObject({ code: 'airgap.not_ours' });
    await expect(qr.show('not json')).rejects.toMatchObject({ code: 'airgap.malformed' });
    expect(qr.counts().shows).toBe(0);
  });
});

describe('every bad input gets a sentence and changes nothing', () => {
  it('ignores malformed, foreign-typed and mixed parts, then still completes the first payload', async () => {
    const first = await orderEnvelope('10');
    const other = await orderEnvelope('20');
    const { qr, received } = transport();
    const mine = partsOf(payloadBytes(first));
    const theirs = partsOf(payloadBytes(other));
    const scan = qr.scanBegin(['request'], true);
    const id = scan.scanId;

    const refusals: [string, string][] = [
      ['hello', 'ur_malformed_part'],
      ['', 'ur_malformed_part'],
      [
        'ur:et-sign-request/1-3/lpadaxcsencylobemohsgmoyadhdeynteelblrcygldwvarflojtcywyjytpdkfwprylienshnjnpluypmamtkmybsjkspvseesawmrltdlnlgkplfbkqzzoglfeoyaegsnedtrowsdpgtimmwzspfqdjkhshyfzckmdimhgrsgaontteybl',
        'ur_malformed_part',
      ],
      [mine[0]!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), 'ur_malformed_part'],
      ['x'.repeat(5000), 'ur_oversize'],
      [partsOf(payloadBytes(first), UR_TYPES.response)[0]!, 'ur_wrong_type'],
    ];
    for (const [text, code] of refusals) {
      const p = await qr.scanPart(id, text);
      expect(p.state, text.slice(0, 40)).toBe('collecting');
      expect(p.problem?.code, text.slice(0, 40)).toBe(code);
      expect(p.problem?.sentence).toMatch(/^[A-Z].{15,}\.$/);
      expect(p.received).toBe(0);
    }
    expect((await qr.scanPart(id, mine[0]!)).problem).toBeNull();
    // A repeat is no new code.
    expect((await qr.scanPart(id, mine[0]!)).received).toBe(1);
    const mixed = await qr.scanPart(id, theirs[1]!);
    expect(mixed).toMatchObject({ state: 'collecting', received: 1, problem: { code: 'ur_mixed_payloads' } });
    let last = mixed;
    for (const part of mine.slice(1)) last = await qr.scanPart(id, part);
    expect(last.state).toBe('complete');
    expect(received).toEqual([new TextDecoder().decode(payloadBytes(first))]);
  });

  it('fails a scan whose whole payload is tampered, truncated or of another format, and receives nothing', async () => {
    const payload = await orderEnvelope();
    const json = new TextDecoder().decode(payloadBytes(payload));
    const cases: [Uint8Array, string][] = [
      [new TextEncoder().encode(json.replace('"12"', '"13"')), 'airgap_fingerprint_mismatch'],
      [new TextEncoder().encode(json.slice(0, json.length - 40)), 'ur_truncated'],
      [new TextEncoder().encode('{"format":"exchange-terminal/emergency-kit@1"}'), 'airgap_not_ours'],
      [new Uint8Array([0xff, 0xfe, 0x00]), 'airgap_malformed'],
    ];
    for (const [bytes, code] of cases) {
      const { qr, received } = transport();
      const scan = qr.scanBegin(['request'], true);
      let last = scan;
      for (const part of partsOf(bytes)) last = await qr.scanPart(scan.scanId, part);
      expect(last.state, code).toBe('failed');
      expect(last.problem?.code, code).toBe(code);
      expect(last.problem?.sentence).toMatch(/^The codes were read whole, but what they carry was refused: .+\.$/);
      expect(last.envelope).toBeNull();
      expect(received).toEqual([]);
      // The camera closes with a failed scan, and what follows changes nothing.
      expect(qr.cameraOpen()).toBe(false);
      expect((await qr.scanPart(scan.scanId, partsOf(payloadBytes(payload))[0]!)).state).toBe('failed');
      expect(received).toEqual([]);
    }
  });

  it('hands a refusal of the inbox back as the scan’s sentence; an unexpected error stays unexpected', async () => {
    const payload = await orderEnvelope();
    const parts = partsOf(payloadBytes(payload));
    const refusing = new QrTransport({
      now: () => 0,
      receive: () => {
        throw new AirgapError('AIRGAP_REQUEST_MISMATCH', 'This response answers another request.');
      },
    });
    const scan = refusing.scanBegin(['request'], false);
    let last = scan;
    for (const part of parts) last = await refusing.scanPart(scan.scanId, part);
    expect(last).toMatchObject({
      state: 'failed',
      problem: {
        code: 'airgap_request_mismatch',
        sentence: 'The codes were read whole, but what they carry was refused: This response answers another request.',
      },
    });
    // The inbox's own coded refusals (a request for a key not held here, a replayed response) too.
    const coded = new QrTransport({
      now: () => 0,
      receive: () => {
        throw new BridgeFailure('airgap.no_key', 'This request must be signed by a key that is not in this vault.');
      },
    });
    const third = coded.scanBegin(['request'], true);
    let answer = third;
    for (const part of parts) answer = await coded.scanPart(third.scanId, part);
    expect(answer).toMatchObject({
      state: 'failed',
      envelope: null,
      problem: { code: 'no_key', sentence: 'This request must be signed by a key that is not in this vault.' },
    });
    expect(coded.cameraOpen()).toBe(false);
    const broken = new QrTransport({
      now: () => 0,
      receive: () => {
        throw new Error('x');
      },
    });
    const other = broken.scanBegin(['request'], false);
    for (const part of parts.slice(0, -1)) await broken.scanPart(other.scanId, part);
    await expect(broken.scanPart(other.scanId, parts.at(-1)!)).rejects.toThrow('x');
  });
});

describe('bounds', () => {
  it('keeps at most a few shows and scans, oldest closed first', async () => {
    const { qr } = transport();
    const text = payloadToFileText(await orderEnvelope());
    const shows: string[] = [];
    for (let i = 0; i < QR_LIMITS.shows + 2; i++) shows.push((await qr.show(text)).showId);
    expect(qr.counts().shows).toBe(QR_LIMITS.shows);
    expect(() => qr.parts(shows[0]!, 1)).toThrow(expect.objectContaining({ code: 'airgap.show_closed' }));
    expect(qr.parts(shows.at(-1)!, 2)).toHaveLength(2);
    const scans = Array.from({ length: QR_LIMITS.scans + 1 }, () => qr.scanBegin(['request'], true).scanId);
    expect(qr.counts().scans).toBe(QR_LIMITS.scans);
    await expect(qr.scanPart(scans[0]!, 'hello')).rejects.toMatchObject({ code: 'airgap.scan_closed' });
    qr.hide(shows.at(-1)!);
    expect(() => qr.parts(shows.at(-1)!, 1)).toThrow(expect.objectContaining({ code: 'airgap.show_closed' }));
  });

  it('caps the parts one show hands out, and closes sessions idle or old', async () => {
    const clock = { t: 5_000_000 };
    const { qr } = transport(clock);
    const text = payloadToFileText(await orderEnvelope());
    const show = await qr.show(text);
    const calls = Math.floor(QR_LIMITS.partsPerShow / 32);
    for (let i = 0; i < calls; i++) qr.parts(show.showId, 32);
    expect(() => qr.parts(show.showId, 32)).toThrow(expect.objectContaining({ code: 'airgap.show_exhausted' }));

    const kept = await qr.show(text);
    const scan = qr.scanBegin(['request'], true);
    // Used every minute, both live until their whole life is over.
    for (let m = 0; m < 29; m++) {
      clock.t += 60_000;
      qr.parts(kept.showId, 1);
      await qr.scanPart(scan.scanId, 'hello');
    }
    expect(qr.cameraOpen()).toBe(true);
    clock.t += 60_000;
    expect(qr.cameraOpen()).toBe(false);
    expect(qr.counts()).toEqual({ shows: 0, scans: 0 });
  });

  it('gives up after too many texts without a whole payload', async () => {
    const { qr } = transport();
    const scan = qr.scanBegin(['kit'], true);
    const spy = vi.fn();
    let last = scan;
    for (let i = 0; i <= QR_LIMITS.textsPerScan && last.state === 'collecting'; i++) {
      last = await qr.scanPart(scan.scanId, 'hello');
      spy();
    }
    expect(last).toMatchObject({ state: 'failed', problem: { code: 'too_many_codes' } });
    expect(spy).toHaveBeenCalledTimes(QR_LIMITS.textsPerScan + 1);
  });

  it('says what each envelope is', async () => {
    const payload = await orderEnvelope();
    expect(envelopeFacts(payload)).toMatchObject({ format: REQUEST_FORMAT, kind: 'order' });
  });
});
