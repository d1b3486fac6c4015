// Codes drawn by qrMatrix read back from their pixels, for UR parts of the sizes the round trip uses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { qrMatrix, qrRgba, qrSvg, readQr } from './qr-code';

describe('QR codes', () => {
  it('reads back a UR part of the default fragment size from its pixels', () => {
    const part = `UR:ET-SIGN-REQUEST/12-40/${'LPBSCYAXWDNT'.repeat(48)}`;
    const m = qrMatrix(part);
    expect(readQr(qrRgba(m, { scale: 3 }))).toBe(part);
  });

  it('reads back arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), (text) => {
        expect(readQr(qrRgba(qrMatrix(text), { scale: 2 }))).toBe(text);
      }),
      { numRuns: 20 },
    );
  });

  it('finds nothing in a blank frame', () => {
    const blank = { width: 64, height: 64, data: new Uint8ClampedArray(64 * 64 * 4).fill(255) };
    expect(readQr(blank)).toBeNull();
  });

  it('draws an SVG with one path and a quiet zone', () => {
    const m = qrMatrix('HELLO');
    const svg = qrSvg(m, { margin: 4 });
    expect(svg).toContain(`viewBox="0 0 ${m.size + 8} ${m.size + 8}"`);
    expect(svg.match(/<path /g)).toHaveLength(1);
  });
});
