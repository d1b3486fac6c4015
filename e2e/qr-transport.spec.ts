/**
 * QR transport between two app cores. Page A (one core) shows an unsigned request as animated QR
 * codes; the test captures the codes from A's screen, writes them into a Y4M video, and page B (a
 * second core, in a Chromium whose camera is that video) scans them in the scan dialog: B's main
 * rebuilds, checks and receives the identical envelope (same fingerprint on both screens). A then
 * reads the same codes back from image files, the other way the scan dialog takes codes. Codes of
 * two payloads mixed, and a tampered payload, each get a sentence and receive nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import {
  NonceRegistry,
  REQUEST_FORMAT,
  UR_TYPES,
  UrPartStream,
  draftOrder,
  payloadBytes,
  payloadToFileText,
} from '../src/client';
import { qrRgba, readQr, readableQrMatrix, type RgbaImage } from '../src/renderer/lib/qr/qr-code';
import { DigestSigner, makeExchangeDomain, type Address } from '../src/shared/protocol';
import { CHROMIUM_ARGS, findChromium } from './chromium';
import { harnessClient } from './harness/client';
import { startCoreServer } from './harness/core-server';
import { fakeCameraArgs, writeImageVideo } from './harness/fake-camera';
import { expect, invokeInPage, SCREENS_DIR, test } from './harness/fixture';
import { noProblems, open, setPassword, shot } from './harness/flows';
import { installTerminal } from './harness/install-terminal';
import { decodePng, encodePng } from './harness/png';

const MASTER_KEY = `0x${'22'.repeat(32)}` as const;
const MASTER = new DigestSigner(MASTER_KEY).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;

/**
 * A fresh file vault starts locked and asks for a password; a keychain vault starts unlocked. Each app
 * then holds the master's key: a scanned request is kept only on a machine that can sign it.
 */
async function unlocked(page: Page): Promise<void> {
  const status = (await invokeInPage(page, 'lock.status')).value as { locked: boolean };
  if (status.locked) await setPassword(page);
  const imported = (await invokeInPage(page, 'keys.importPrivateKey', { privateKey: MASTER_KEY, label: 'cold' })) as {
    ok: boolean;
    error?: { code: string };
  };
  if (!imported.ok && imported.error?.code !== 'keys.duplicate')
    throw new Error(`importing the master key failed: ${JSON.stringify(imported.error)}`);
}

test('an envelope shown as QR codes by one app is scanned by the other’s camera and received whole', async ({
  app,
  renderer,
  problems,
}) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-qr-'));
  const request = await draftOrder(
    {
      signer: MASTER,
      domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
      contracts: { exchange: EXCHANGE, ledger: null },
      nonces: new NonceRegistry(),
    },
    { assetId: 7n, epoch: 12n, side: 'buy', price: '62.5', size: '10' },
  );
  const file = join(dir, 'request-order.json');
  writeFileSync(file, payloadToFileText({ format: REQUEST_FORMAT, request }));
  const server = await startCoreServer();
  const browser = { current: null as Awaited<ReturnType<typeof chromium.launch>> | null };
  try {
    // A: show the request file as QR codes.
    await unlocked(app);
    await open(app, 'Offline signing', 'Offline signing');
    const panel = app.getByTestId('qr-transfer');
    await panel.getByTestId('qr-file').setInputFiles(file);
    const display = panel.getByTestId('qr-display');
    await expect(display.getByTestId('qr-fingerprint')).toHaveText(request.fingerprint);
    await expect(display).toContainText('An unsigned order request');
    const counter = await display.getByTestId('qr-counter').textContent();
    const parts = Number(/(\d+) codes make the whole/.exec(counter ?? '')?.[1]);
    expect(parts).toBeGreaterThan(1);
    await display.scrollIntoViewIfNeeded();
    await app.screenshot({ path: resolve(SCREENS_DIR, 'qr-show.png') });

    // Capture the codes as the screen shows them: paused, larger, one code after another.
    await display.getByRole('button', { name: 'Pause' }).click();
    await display.getByRole('button', { name: 'Larger view' }).click();
    const code = display.getByTestId('qr-code');
    await shot(app, 'qr-show-large');
    const frames: RgbaImage[] = [];
    const frameFiles: string[] = [];
    const texts: string[] = [];
    for (let i = 0; i < parts + 2; i++) {
      const shown = Number(await code.getAttribute('data-shown'));
      const path = join(dir, `qr-frame-${i}.png`);
      const frame = decodePng(await code.screenshot({ path }));
      const text = (await code.getAttribute('data-part')) ?? '';
      // What the screen shows is the part main handed out, readable as captured.
      expect(readQr(frame)).toBe(text);
      frames.push(frame);
      frameFiles.push(path);
      texts.push(text);
      await display.getByRole('button', { name: 'Next code' }).click();
      await expect(code).toHaveAttribute('data-shown', String(shown + 1));
    }
    expect(new Set(texts).size).toBe(texts.length);
    await display.getByRole('button', { name: 'Smaller view' }).click();

    // B: a second core, in a Chromium whose camera plays the captured codes.
    // Each code held for 0.6 s (6 frames at 10 fps): on a loaded machine a read of a frame can take
    // longer than 0.3 s, and reads at a steady pace could then step over the same code every loop.
    const video = await writeImageVideo(join(dir, 'camera.y4m'), frames, { width: 720, height: 680, holdFrames: 6 });
    browser.current = await chromium.launch({
      executablePath: findChromium()!,
      headless: true,
      args: [...CHROMIUM_ARGS, ...fakeCameraArgs(video)],
    });
    const context = await browser.current.newContext({ viewport: { width: 1360, height: 860 } });
    await context.grantPermissions(['camera'], { origin: new URL(renderer.url).origin });
    const other = await context.newPage();
    const otherProblems: string[] = [];
    other.on('pageerror', (error) => otherProblems.push(`pageerror: ${error.message}`));
    other.on('console', (m) => {
      if (m.type() === 'error') otherProblems.push(`console.error: ${m.text()}`);
    });
    await other.addInitScript({ path: resolve('e2e/browser/record-csp-violations.js') });
    const terminal = await installTerminal(other, harnessClient(server));
    try {
      await other.goto(renderer.url);
      await expect(other.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
      await unlocked(other);
      await open(other, 'Offline signing', 'Offline signing');
      await other.getByTestId('qr-transfer').getByRole('button', { name: 'Scan QR codes…' }).click();
      const dialog = other.getByTestId('scan-dialog');
      const progress = dialog.getByTestId('scan-progress');
      await expect(progress).toHaveAttribute('data-state', /collecting|complete/);
      await expect(dialog.getByTestId('scan-status')).toContainText(/codes read|Received/, { timeout: 60_000 });
      await other.screenshot({ path: resolve(SCREENS_DIR, 'qr-scan-camera.png') });
      await expect(progress).toHaveAttribute('data-state', 'complete', { timeout: 120_000 });
      // B's main rebuilt and checked the envelope: the fingerprint it computed is A's.
      await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(request.fingerprint);
      await expect(dialog.getByTestId('scan-status')).toHaveText('Received an unsigned order request.');
      await other.screenshot({ path: resolve(SCREENS_DIR, 'qr-scan-done.png') });
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(other.getByTestId('qr-received')).toContainText(request.fingerprint);
      expect(await other.evaluate<string[]>('window.__cspViolations')).toEqual([]);
      expect(otherProblems).toEqual([]);
    } finally {
      await terminal.stop();
    }

    // A: the same codes read back from image files (no camera in this browser: the dialog says so).
    await panel.getByRole('button', { name: 'Scan QR codes…' }).click();
    const dialog = app.getByTestId('scan-dialog');
    await expect(dialog).toContainText('read the codes from image files instead');
    // An image without a code is named, and changes nothing.
    await dialog.getByTestId('scan-file').setInputFiles(resolve('resources/icon.png'));
    await expect(dialog).toContainText('No QR code could be read in icon.png.');
    await shot(app, 'qr-scan-file-problem');
    await expect(dialog.getByTestId('scan-progress')).toHaveAttribute('data-state', 'collecting');
    await dialog.getByTestId('scan-file').setInputFiles(frameFiles);
    await expect(dialog.getByTestId('scan-progress')).toHaveAttribute('data-state', 'complete', { timeout: 60_000 });
    await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(request.fingerprint);
    await shot(app, 'qr-scan-files');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await noProblems(app, problems);
  } finally {
    await browser.current?.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('codes of two payloads, and a tampered payload, each get a sentence and receive nothing', async ({
  app,
  problems,
}) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-qr-bad-'));
  try {
    const draft = (price: string) =>
      draftOrder(
        {
          signer: MASTER,
          domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
          contracts: { exchange: EXCHANGE, ledger: null },
          nonces: new NonceRegistry(),
        },
        { assetId: 7n, epoch: 12n, side: 'buy', price, size: '10' },
      );
    const first = await draft('40');
    const second = await draft('41');
    /** Image files of the plain parts of some bytes, as another screen would show them. */
    const images = (name: string, bytes: Uint8Array): string[] => {
      const stream = new UrPartStream(UR_TYPES.request, bytes);
      return Array.from({ length: stream.seqLength }, (_, i) => {
        const path = join(dir, `${name}-${i}.png`);
        writeFileSync(path, encodePng(qrRgba(readableQrMatrix(stream.nextPart()), { scale: 4 })));
        return path;
      });
    };
    const firstImages = images('first', payloadBytes({ format: REQUEST_FORMAT, request: first }));
    const secondImages = images('second', payloadBytes({ format: REQUEST_FORMAT, request: second }));
    const json = new TextDecoder().decode(payloadBytes({ format: REQUEST_FORMAT, request: first }));
    const tampered = images('tampered', new TextEncoder().encode(json.replace('"epoch":"12"', '"epoch":"13"')));
    expect(json).toContain('"epoch":"12"');

    await unlocked(app);
    await open(app, 'Offline signing', 'Offline signing');
    const panel = app.getByTestId('qr-transfer');

    // Mixed: a code of another payload is refused with a sentence; the first payload still completes.
    await panel.getByRole('button', { name: 'Scan QR codes…' }).click();
    const dialog = app.getByTestId('scan-dialog');
    const file = dialog.getByTestId('scan-file');
    await file.setInputFiles([firstImages[0]!, secondImages[1]!]);
    await expect(dialog.getByTestId('scan-problem')).toContainText('show one payload at a time');
    await expect(dialog.getByTestId('scan-status')).toContainText('1 code read');
    await shot(app, 'qr-scan-mixed');
    await file.setInputFiles(firstImages);
    await expect(dialog.getByTestId('scan-progress')).toHaveAttribute('data-state', 'complete', { timeout: 60_000 });
    await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(first.fingerprint);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Tampered: the parts rebuild, the envelope inside does not check; nothing is received.
    await panel.getByRole('button', { name: 'Scan QR codes…' }).click();
    await dialog.getByTestId('scan-file').setInputFiles(tampered);
    await expect(dialog.getByTestId('scan-progress')).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
    await expect(dialog.getByTestId('scan-problem')).toContainText('what they carry was refused');
    await expect(dialog.getByTestId('scan-status')).toHaveText('Nothing was received.');
    await expect(dialog.getByTestId('scan-fingerprint')).toHaveCount(0);
    await shot(app, 'qr-scan-tampered');
    // Start over works, and what is read then is the genuine payload.
    await dialog.getByRole('button', { name: 'Start over' }).click();
    await expect(dialog.getByTestId('scan-progress')).toHaveAttribute('data-state', 'collecting');
    await dialog.getByTestId('scan-file').setInputFiles(firstImages);
    await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(first.fingerprint, { timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await noProblems(app, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
