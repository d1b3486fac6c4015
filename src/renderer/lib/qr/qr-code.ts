// QR codes for the air-gapped round trip, drawn and read in the window with @paulmillr/qr: pure
// TypeScript with no dependencies, both directions in one library, no WebAssembly to fetch or allow
// in the CSP, and no DOM needed (so node tests and the fake-camera harness use the same code).
import encodeQR from '@paulmillr/qr';
import decodeQR from '@paulmillr/qr/decode.js';

export interface QrMatrix {
  /** Modules per side, without the quiet zone. */
  readonly size: number;
  /** Row-major: true is a dark module. */
  readonly modules: readonly (readonly boolean[])[];
}

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** 4 bytes per pixel, as ImageData and canvas give it. */
  readonly data: Uint8ClampedArray | Uint8Array;
}

/** Medium error correction: a screen filmed at an angle, with glare, still reads. */
export function qrMatrix(text: string): QrMatrix {
  const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 0 });
  return { size: modules.length, modules };
}

/**
 * A code that reads back: @paulmillr/qr's reader misses about one code in twenty as its encoder
 * masks it (the same code under another of the eight masks reads), so a code to be shown is read
 * back and, if it is missed, drawn under the first mask that reads. Costs one decode per code.
 */
export function readableQrMatrix(text: string): QrMatrix {
  // Two sizes: whether the reader misses a code depends a little on its size in pixels.
  const reads = (m: QrMatrix): boolean => [3, 5].every((scale) => readQr(qrRgba(m, { scale })) === text);
  const first = qrMatrix(text);
  if (reads(first)) return first;
  for (let mask = 0; mask < 8; mask++) {
    const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 0, mask });
    const matrix = { size: modules.length, modules };
    if (reads(matrix)) return matrix;
  }
  return first;
}

/** One path, no styles: safe under the window's CSP and crisp at any size. */
export function qrSvg(matrix: QrMatrix, opts: { margin?: number } = {}): string {
  const margin = opts.margin ?? 4;
  const side = matrix.size + 2 * margin;
  let d = '';
  matrix.modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      d += `M${start + margin} ${y + margin}h${x - start}v1h${start - x}z`;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  );
}

/** Pixels of a code: black on white, `scale` pixels per module, a quiet zone of `margin` modules. */
export function qrRgba(matrix: QrMatrix, opts: { scale?: number; margin?: number } = {}): RgbaImage {
  const scale = opts.scale ?? 4;
  const margin = opts.margin ?? 4;
  const side = (matrix.size + 2 * margin) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < matrix.size; y++) {
    for (let x = 0; x < matrix.size; x++) {
      if (!matrix.modules[y]![x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        const row = ((y + margin) * scale + dy) * side;
        for (let dx = 0; dx < scale; dx++) {
          const i = (row + (x + margin) * scale + dx) * 4;
          data[i] = data[i + 1] = data[i + 2] = 0;
        }
      }
    }
  }
  return { width: side, height: side, data };
}

/** The text of the QR code in an image or camera frame, or null when none is found. */
export function readQr(image: RgbaImage): string | null {
  try {
    return decodeQR({ width: image.width, height: image.height, data: image.data });
  } catch {
    // No finder patterns, or a frame caught between two codes: the next frame is tried.
    return null;
  }
}
