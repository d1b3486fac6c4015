// The codes the window draws for UR parts read back with the window's own reader: @paulmillr/qr misses
// some codes under the encoder's default mask, and readableQrMatrix draws those under a mask that reads.
import { describe, expect, it } from 'vitest';
import { UR_TYPES, UrPartStream } from '../../src/client';
import { qrMatrix, qrRgba, readQr, readableQrMatrix } from '../../src/renderer/lib/qr/qr-code';

describe('readable QR codes for UR parts', () => {
  it('draws every part of a multi-part payload as a code that reads back, under another mask when the default one is missed', () => {
    // A fixed payload: its 60 parts include codes the reader misses under the encoder's default mask.
    const bytes = Uint8Array.from({ length: 746 }, (_, i) => (i * 73 + 11) % 256);
    const stream = new UrPartStream(UR_TYPES.request, bytes);
    const parts = Array.from({ length: 60 }, () => stream.nextPart());
    const missed = parts.filter((p) => readQr(qrRgba(qrMatrix(p), { scale: 3 })) !== p);
    for (const part of parts) {
      const m = readableQrMatrix(part);
      for (const scale of [3, 4, 5]) expect(readQr(qrRgba(m, { scale }))).toBe(part);
    }
    expect(missed.length).toBeGreaterThan(0);
  });
});
