// UR transport: any payload survives any order and repetition of its parts; a changed, cut, foreign
// or mixed-in part is refused with a code and leaves what was collected as it was.
import { UR, UREncoder } from '@ngraveio/bc-ur';
import bytewords from '@ngraveio/bc-ur/dist/bytewords';
import { cborDecode, cborEncode } from '@ngraveio/bc-ur/dist/cbor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AirgapError } from './errors';
import { UR_TYPES, UrAssembler, UrPartStream, encodeUrParts, type UrProgress } from './ur';

const REQ = UR_TYPES.request;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AirgapError) return error.code;
    throw error;
  }
  return 'accepted';
}

function feed(assembler: UrAssembler, parts: readonly string[]): UrProgress {
  let last: UrProgress | undefined;
  for (const p of parts) last = assembler.receive(p);
  return last!;
}

const payload = fc.uint8Array({ minLength: 1, maxLength: 2500 });
const fragmentBytes = fc.integer({ min: 30, max: 300 });

describe('UR parts', () => {
  it('rebuilds any payload from its parts in any order, with repeats', () => {
    fc.assert(
      fc.property(payload, fragmentBytes, fc.infiniteStream(fc.nat()), (bytes, frag, picks) => {
        const parts = encodeUrParts(REQ, bytes, { fragmentBytes: frag });
        // Every part at least once, plus a few repeats, shuffled.
        const it = picks[Symbol.iterator]();
        const order = [...parts, ...parts.filter(() => it.next().value! % 3 === 0)];
        for (let i = order.length - 1; i > 0; i--) {
          const j = it.next().value! % (i + 1);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        const a = new UrAssembler([REQ]);
        const done = feed(a, order);
        expect(done.state).toBe('complete');
        if (done.state === 'complete') expect(Array.from(done.bytes)).toEqual(Array.from(bytes));
      }),
      { numRuns: 60 },
    );
  });

  it('rebuilds from fountain parts when plain fragments were missed', () => {
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7919) & 0xff);
    const stream = new UrPartStream(REQ, bytes, { fragmentBytes: 100 });
    const all = Array.from({ length: stream.seqLength * 4 }, () => stream.nextPart());
    // Skip a third of the plain fragments, as a camera that misses frames would.
    const seen = all.filter((_, i) => i >= stream.seqLength || i % 3 !== 0);
    const a = new UrAssembler([REQ]);
    let last: UrProgress | undefined;
    for (const p of seen) {
      last = a.receive(p);
      if (last.state === 'complete') break;
    }
    expect(last?.state).toBe('complete');
    if (last?.state === 'complete') expect(last.bytes).toEqual(bytes);
  });

  it('reports progress while collecting', () => {
    const parts = encodeUrParts(REQ, new Uint8Array(1000).fill(7), { fragmentBytes: 100 });
    const a = new UrAssembler([REQ]);
    const first = a.receive(parts[0]!);
    expect(first).toMatchObject({ state: 'collecting', received: 1, expected: parts.length, duplicate: false });
    expect(a.receive(parts[0]!)).toMatchObject({ state: 'collecting', received: 1, duplicate: true });
  });

  it('refuses any single changed character in any part, and collects on unharmed', () => {
    fc.assert(
      fc.property(
        payload,
        fragmentBytes,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 32, max: 126 }),
        (bytes, frag, which, at, ch) => {
          const parts = encodeUrParts(REQ, bytes, { fragmentBytes: frag });
          const i = which % parts.length;
          const part = parts[i]!;
          const pos = at % part.length;
          const c = String.fromCharCode(ch);
          // UR text is case-insensitive: a change of case is the same part.
          fc.pre(c.toLowerCase() !== part[pos]!.toLowerCase());
          const tampered = part.slice(0, pos) + c + part.slice(pos + 1);
          const a = new UrAssembler([REQ]);
          expect(['UR_MALFORMED_PART', 'UR_WRONG_TYPE', 'UR_OVERSIZE']).toContain(codeOf(() => a.receive(tampered)));
          const done = feed(a, parts);
          expect(done.state).toBe('complete');
          if (done.state === 'complete') expect(done.bytes).toEqual(bytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a part cut short anywhere', () => {
    fc.assert(
      fc.property(payload, fragmentBytes, fc.nat(), fc.nat(), (bytes, frag, which, at) => {
        const parts = encodeUrParts(REQ, bytes, { fragmentBytes: frag });
        const part = parts[which % parts.length]!;
        const cut = part.slice(0, at % part.length);
        expect(['UR_MALFORMED_PART', 'UR_WRONG_TYPE']).toContain(codeOf(() => new UrAssembler([REQ]).receive(cut)));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses parts of a second payload mixed in, and keeps the first', () => {
    fc.assert(
      fc.property(payload, payload, fragmentBytes, (one, two, frag) => {
        fc.pre(one.length !== two.length || one.some((b, i) => b !== two[i]));
        const a = encodeUrParts(REQ, one, { fragmentBytes: frag });
        const b = encodeUrParts(REQ, two, { fragmentBytes: frag });
        const assembler = new UrAssembler([REQ]);
        const codes: string[] = [];
        let done: UrProgress | undefined;
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (a[i]) done = assembler.receive(a[i]!);
          if (b[i]) codes.push(codeOf(() => assembler.receive(b[i]!)));
        }
        expect(codes.filter((c) => c !== 'accepted').every((c) => c === 'UR_MIXED_PAYLOADS')).toBe(true);
        expect(codes).toContain('UR_MIXED_PAYLOADS');
        expect(done?.state).toBe('complete');
        if (done?.state === 'complete') expect(done.bytes).toEqual(one);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses another UR type, another of our formats, and a payload too large', () => {
    const bytes = new Uint8Array(600).fill(1);
    const a = new UrAssembler([UR_TYPES.response]);
    const err = (() => {
      try {
        a.receive(encodeUrParts(REQ, bytes)[0]!);
      } catch (e) {
        return e as AirgapError;
      }
      return null;
    })();
    expect(err?.code).toBe('UR_WRONG_TYPE');
    expect(err?.sentence).toBe('This code carries an unsigned request, but a signed response was expected here.');
    expect(
      codeOf(() =>
        a.receive('ur:crypto-psbt/hdcxlkahssqzwfvslofzoxwkrewngotktbmwjkwdcmnefsaaehrlolkskncnktlbaypkrphsmyid'),
      ),
    ).toBe('UR_WRONG_TYPE');
    expect(
      codeOf(() =>
        new UrAssembler([REQ], { maxBytes: 100 }).receive(encodeUrParts(REQ, bytes, { fragmentBytes: 50 })[0]!),
      ),
    ).toBe('UR_OVERSIZE');
    expect(
      codeOf(() => new UrAssembler([REQ], { maxBytes: 100 }).receive(encodeUrParts(REQ, new Uint8Array(150))[0]!)),
    ).toBe('UR_OVERSIZE');
    expect(codeOf(() => a.receive('x'.repeat(5000)))).toBe('UR_OVERSIZE');
    expect(codeOf(() => a.receive('https://example.invalid/'))).toBe('UR_MALFORMED_PART');
  });

  it('refuses a single-part payload once another was read', () => {
    const a = new UrAssembler([REQ]);
    const [one] = encodeUrParts(REQ, new Uint8Array([1, 2, 3]));
    const [two] = encodeUrParts(REQ, new Uint8Array([1, 2, 4]));
    expect(a.receive(one!)).toMatchObject({ state: 'complete', duplicate: false });
    expect(a.receive(one!)).toMatchObject({ state: 'complete', duplicate: true });
    expect(codeOf(() => a.receive(two!))).toBe('UR_MIXED_PAYLOADS');
  });
});

describe('UR payload checksum', () => {
  it('fails the scan when well-formed parts rebuild a payload other than the one they describe', () => {
    // A forger's part: part 2 of payload A (its header: length, checksum) around a fragment of payload B.
    const a = encodeUrParts(REQ, new Uint8Array(400).fill(1), { fragmentBytes: 100 });
    const foreignFragment = new UREncoder(
      new UR(UR.fromBuffer(Buffer.from(new Uint8Array(400).fill(2))).cbor, REQ),
      100,
      0,
      10,
    ).fragments[0]!;
    const body = a[1]!.toLowerCase().split('/')[2]!;
    const [n, m, len, sum] = cborDecode(
      Buffer.from(bytewords.decode(body, bytewords.STYLES.MINIMAL), 'hex'),
    ) as unknown as [number, number, number, number];
    const forged = `ur:${REQ}/${n}-${m}/${bytewords.encode(cborEncode([n, m, len, sum, foreignFragment]).toString('hex'), bytewords.STYLES.MINIMAL)}`;

    const assembler = new UrAssembler([REQ]);
    expect(assembler.receive(a[0]!).state).toBe('collecting');
    const codes = [forged, ...a.slice(2)].map((p) => codeOf(() => assembler.receive(p)));
    expect(codes.at(-1)).toBe('UR_CHECKSUM');
    // The scan stays failed until it is started over.
    expect(codeOf(() => assembler.receive(a[1]!))).toBe('UR_CHECKSUM');
    assembler.reset();
    expect(feed(assembler, a).state).toBe('complete');
  });
});
