/**
 * A camera for Chromium made of QR codes: writes a Y4M video (what --use-file-for-fake-video-capture
 * plays, in a loop) in which each code is held for a few frames, centred, black on white. The
 * online/offline e2e runs generate it from the codes one side shows and feed it to the other.
 */
import { writeFile } from 'node:fs/promises';
import { qrRgba, readableQrMatrix, type QrMatrix, type RgbaImage } from '../../src/renderer/lib/qr/qr-code';

export interface FakeCameraOptions {
  width?: number;
  height?: number;
  /** Frames per second of the video. */
  fps?: number;
  /** Video frames each code is held for: a reader polling slower than the video still sees each one. */
  holdFrames?: number;
}

/** Chromium flags that replace the camera with `file` and grant access without a prompt. */
export function fakeCameraArgs(file: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${file}`,
    '--use-fake-ui-for-media-stream',
  ];
}

/** One 4:2:0 frame: the code's pixels as luma on white, chroma neutral. */
function frameOf(matrix: QrMatrix, width: number, height: number): Uint8Array {
  const margin = 4;
  const scale = Math.max(1, Math.floor(Math.min(width, height) / (matrix.size + 2 * margin)));
  const img = qrRgba(matrix, { scale, margin });
  const frame = new Uint8Array(width * height * 1.5);
  frame.fill(255, 0, width * height);
  frame.fill(128, width * height);
  const left = Math.floor((width - img.width) / 2);
  const top = Math.floor((height - img.height) / 2);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) frame[(top + y) * width + left + x] = img.data[(y * img.width + x) * 4]!;
  }
  return frame;
}

/** One 4:2:0 frame of a captured picture (a screenshot of a code on screen), pixel for pixel when it fits, on white. */
function frameOfImage(img: RgbaImage, width: number, height: number): Uint8Array {
  // Resampling a screenshot makes uneven modules; a picture that fits is copied as it is.
  const scale = Math.min(1, width / img.width, height / img.height);
  const w = Math.floor(img.width * scale);
  const h = Math.floor(img.height * scale);
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  const frame = new Uint8Array(width * height * 1.5);
  frame.fill(255, 0, width * height);
  frame.fill(128, width * height);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.floor(y / scale));
    for (let x = 0; x < w; x++) {
      const i = (sy * img.width + Math.min(img.width - 1, Math.floor(x / scale))) * 4;
      // BT.601 luma of the captured pixel.
      frame[(top + y) * width + left + x] = Math.round(
        0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!,
      );
    }
  }
  return frame;
}

/**
 * Writes the video for a sequence of QR texts (UR parts) and returns its path. Each code is drawn as
 * the app's display draws it (readableQrMatrix): the reader misses about one code in twenty under
 * the encoder's first mask, and a looping video of a missed code misses it on every pass.
 */
export function writeQrVideo(file: string, texts: readonly string[], opts: FakeCameraOptions = {}): Promise<string> {
  return writeY4m(file, texts, (text, width, height) => frameOf(readableQrMatrix(text), width, height), opts);
}

/** Writes the video for a sequence of captured pictures (e.g. screenshots of the codes another page shows). */
export function writeImageVideo(
  file: string,
  images: readonly RgbaImage[],
  opts: FakeCameraOptions = {},
): Promise<string> {
  return writeY4m(file, images, frameOfImage, opts);
}

/** A Y4M video (4:2:0) of one frame per item, each held for a few video frames; returns its path. */
async function writeY4m<T>(
  file: string,
  items: readonly T[],
  frameOfItem: (item: T, width: number, height: number) => Uint8Array,
  opts: FakeCameraOptions,
): Promise<string> {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const fps = opts.fps ?? 10;
  const hold = opts.holdFrames ?? 3;
  if (width % 2 || height % 2) throw new Error('Y4M 4:2:0 needs an even width and height.');
  const chunks: Uint8Array[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii')];
  const marker = Buffer.from('FRAME\n', 'ascii');
  for (const item of items) {
    const frame = frameOfItem(item, width, height);
    for (let i = 0; i < hold; i++) chunks.push(marker, frame);
  }
  await writeFile(file, Buffer.concat(chunks));
  return file;
}
