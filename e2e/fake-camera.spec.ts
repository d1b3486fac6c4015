/**
 * Chromium's fake camera can feed our QR codes to a page: the frames of a multi-part UR payload (an
 * unsigned order request) are written as a Y4M video, Chromium plays it as the camera, the page reads
 * getUserMedia frames into a canvas, decodes each code with the app's QR reader and hands the texts to
 * the UR assembler; the assembled payload is the original, byte for byte.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import {
  NonceRegistry,
  REQUEST_FORMAT,
  UR_TYPES,
  UrAssembler,
  UrPartStream,
  draftOrder,
  payloadBytes,
  payloadFromBytes,
  AirgapError,
} from '../src/client';
import { DigestSigner, makeExchangeDomain, type Address } from '../src/shared/protocol';
import { CHROMIUM_ARGS, findChromium } from './chromium';
import { fakeCameraArgs, writeQrVideo } from './harness/fake-camera';
import { serveDirectory } from './static-server';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;

test('a page reads a multi-part UR payload from Chromium’s fake camera', async () => {
  // Decoding camera frames in the page is CPU-bound: on a loaded 2-core machine a full pass of the
  // looping video can take minutes. The test checks bytes, not speed.
  test.setTimeout(300_000);
  const dir = await mkdtemp(join(tmpdir(), 'fake-camera-'));
  const request = await draftOrder(
    {
      signer: MASTER,
      domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
      contracts: { exchange: EXCHANGE, ledger: null },
      nonces: new NonceRegistry(),
    },
    { assetId: 7n, epoch: 12n, side: 'buy', price: '62.5', size: '10' },
  );
  const bytes = payloadBytes({ format: REQUEST_FORMAT, request });
  const stream = new UrPartStream(UR_TYPES.request, bytes, { fragmentBytes: 120 });
  expect(stream.seqLength).toBeGreaterThan(3);
  // The plain fragments and a few fountain parts after them, as the animated code on screen shows them.
  const parts = Array.from({ length: stream.seqLength + 3 }, () => stream.nextPart());

  await cp(join(import.meta.dirname, 'browser/fake-camera'), dir, { recursive: true });
  await cp(join(import.meta.dirname, '../node_modules/@paulmillr/qr/esm'), join(dir, 'qr'), { recursive: true });
  const video = await writeQrVideo(join(dir, 'camera.y4m'), parts);
  const server = await serveDirectory(dir);
  const browser = await chromium.launch({
    executablePath: findChromium()!,
    headless: true,
    args: [...CHROMIUM_ARGS, ...fakeCameraArgs(video)],
  });
  try {
    const context = await browser.newContext();
    await context.grantPermissions(['camera'], { origin: server.url.replace(/\/$/, '') });
    const page = await context.newPage();
    const assembler = new UrAssembler([UR_TYPES.request]);
    const refused: string[] = [];
    let assembled: Uint8Array | null = null;
    await page.exposeFunction('urReceive', (text: string) => {
      try {
        const progress = assembler.receive(text);
        if (progress.state === 'complete') assembled = progress.bytes;
        return { state: progress.state };
      } catch (error) {
        refused.push(error instanceof AirgapError ? error.code : String(error));
        return { state: 'refused' };
      }
    });
    await page.goto(server.url);
    // What the page sees mid-scan: a code from the video, and the reader's progress.
    await expect(page.locator('#status')).toContainText(/collecting|complete/, { timeout: 60_000 });
    await page.screenshot({ path: test.info().outputPath('fake-camera.png') });
    await expect(page.locator('body')).toHaveAttribute('data-done', 'yes', { timeout: 200_000 });
    await expect(page.locator('#status')).toContainText('complete');
    expect(refused).toEqual([]);
    expect(assembled).not.toBeNull();
    expect(Array.from(assembled!)).toEqual(Array.from(bytes));
    expect(payloadFromBytes(assembled!, [REQUEST_FORMAT])).toEqual({ format: REQUEST_FORMAT, request });
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
