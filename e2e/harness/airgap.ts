/**
 * The air-gapped round trip's steps, shared by the specs that walk it: a signer's password, a
 * watched master, a request prepared on the Offline signing screen, its way to the signer and back
 * by file (main's save and open dialogs) or by QR codes (captured from one screen into the fake
 * camera of a Chromium showing the other side).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { readQr, type RgbaImage } from '../../src/renderer/lib/qr/qr-code';
import { CHROMIUM_ARGS, findChromium } from '../chromium';
import type { HarnessClient } from './client';
import { fakeCameraArgs, writeImageVideo } from './fake-camera';
import { expect, invokeInPage } from './fixture';
import { PASSWORD, open, pickMarket, shot } from './flows';
import { installTerminal } from './install-terminal';
import { decodePng } from './png';

/** The signer's own password: on the lock screen (file vault), or through the bridge after its own dialog (keychain). */
export async function signerPassword(page: Page, signer: HarnessClient): Promise<void> {
  const status = (await invokeInPage(page, 'lock.status')).value as { locked: boolean; hasPassword: boolean };
  if (status.locked) {
    const lock = page.getByTestId('lock-screen');
    await lock.getByLabel('New app password', { exact: true }).fill(PASSWORD);
    await lock.getByLabel('New app password again').fill(PASSWORD);
    await lock.getByRole('button', { name: 'Set password' }).click();
    await expect(lock).toHaveCount(0);
  } else if (!status.hasPassword) {
    await signer.dialogs({ kind: 'confirm', yes: true });
    expect((await invokeInPage(page, 'lock.setPassword', { password: PASSWORD, passwordAgain: PASSWORD })).ok).toBe(
      true,
    );
  }
}

/** Adds `master` on the Keys screen by its address alone, and sees it selected as watch-only. */
export async function watchMaster(page: Page, master: string, label: string): Promise<void> {
  await open(page, 'Keys', 'Keys');
  const watch = page.getByTestId('watch-only');
  await watch.getByTestId('watch-address').fill(master);
  await watch.getByLabel('Label').fill(label);
  await watch.getByTestId('watch-add').click();
  await expect(watch).toContainText('watch-only');
  await expect(page.getByTestId('account-select')).toHaveValue(master);
}

/** Picks a configured market in the prepare form; the form fills in its current epoch. */
export async function prepareFor(
  page: Page,
  kind: string,
  market?: { assetId: string; epoch: string },
): Promise<Locator> {
  await open(page, 'Offline signing', 'Offline signing');
  const prepare = page.getByTestId('airgap-prepare');
  await prepare.getByTestId('prepare-kind').selectOption(kind);
  if (market) await pickMarket(prepare, market);
  return prepare;
}

/** The newest request prepared on the online machine, and its fingerprint as shown. */
export async function newestPending(page: Page): Promise<{ pending: Locator; fingerprint: string }> {
  await open(page, 'Offline signing', 'Offline signing');
  const pending = page.getByTestId('pending-request').first();
  await expect(pending).toContainText('waiting for its signature');
  const fingerprint = ((await pending.getByTestId('fingerprint').textContent()) ?? '').trim();
  expect(fingerprint).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
  return { pending, fingerprint };
}

export interface Side {
  readonly page: Page;
  readonly client: HarnessClient;
}

export interface FileRoundTrip {
  readonly dir: string;
  readonly online: Side;
  readonly signer: Side;
  /** Name of the files and prefix of the screenshots. */
  readonly name: string;
  /** The signer has never trusted this domain: trust it through main's dialog first. */
  readonly trustDomain?: boolean;
  /** The signer's main asks before it signs (withdrawals, agent approvals): answer yes. */
  readonly confirmSign?: boolean;
}

/**
 * The signer trusts the request's domain when it is new and signs it, answering main's dialogs; each
 * dialog must show the fingerprint the online machine shows.
 */
async function signReceived(
  received: Locator,
  signer: HarnessClient,
  fingerprint: string,
  how: { readonly trustDomain?: boolean; readonly confirmSign?: boolean },
): Promise<void> {
  const lastConfirm = async () => (await signer.dialogs()).shown.filter((d) => d.kind === 'confirm').at(-1)!;
  if (how.trustDomain) {
    await expect(received).toContainText('never trusted this signing domain');
    await signer.dialogs({ kind: 'confirm', yes: true });
    await received.getByTestId('trust-domain').click();
    expect((await lastConfirm()).request.detail).toContain(fingerprint);
  }
  if (how.confirmSign) await signer.dialogs({ kind: 'confirm', yes: true });
  await received.getByTestId('sign-request').click();
  await expect(received).toContainText('signed');
  if (how.confirmSign) expect((await lastConfirm()).request.detail).toContain(fingerprint);
}

/**
 * The newest pending request's way by file: saved online (main's save dialog), opened on the signer
 * (main's open dialog) with the same fingerprint, signed, saved, opened online and checked. Leaves
 * it ready to send; returns the signer's view of it.
 */
export async function roundTripByFile(trip: FileRoundTrip): Promise<{ pending: Locator; received: Locator }> {
  const { dir, online, signer, name } = trip;
  const { pending, fingerprint } = await newestPending(online.page);
  const requestFile = join(dir, `${name}-request.json`);
  await online.client.dialogs({ kind: 'saveFile', path: requestFile });
  await pending.getByTestId('save-request').click();
  await expect(online.page.getByTestId('toast').filter({ hasText: requestFile })).toBeVisible();
  await shot(online.page, `${name}-1-online-saved`);

  await open(signer.page, 'Offline signing', 'Offline signing');
  await signer.client.dialogs({ kind: 'openFile', content: readFileSync(requestFile, 'utf8') });
  await signer.page.getByTestId('open-request').click();
  const received = signer.page.getByTestId('received-request').first();
  await expect(received.getByTestId('fingerprint')).toHaveText(fingerprint);
  await received.scrollIntoViewIfNeeded();
  await shot(signer.page, `${name}-2-signer-opened`);
  await signReceived(received, signer.client, fingerprint, trip);
  const responseFile = join(dir, `${name}-response.json`);
  await signer.client.dialogs({ kind: 'saveFile', path: responseFile });
  await received.getByTestId('save-response').click();
  await expect(signer.page.getByTestId('toast').filter({ hasText: responseFile })).toBeVisible();
  await shot(signer.page, `${name}-3-signer-signed`);

  await open(online.page, 'Offline signing', 'Offline signing');
  await online.client.dialogs({ kind: 'openFile', content: readFileSync(responseFile, 'utf8') });
  await online.page.getByTestId('open-response').click();
  await expect(pending).toContainText('ready to send');
  await pending.scrollIntoViewIfNeeded();
  await shot(online.page, `${name}-4-online-checked`);
  return { pending, received };
}

/** Tries to read what a code element shows, a few times (a capture mid-resize is taken again). */
async function readShown(code: Locator, path: string, part: string): Promise<RgbaImage | null> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const frame = decodePng(await code.screenshot({ path }));
    if (readQr(frame) === part) return frame;
    await new Promise((r) => setTimeout(r, 150));
  }
  return null;
}

/**
 * Codes a QR display shows, captured as the screen draws it: paused, larger, one after another. The
 * display was already playing, so the first plain parts may have gone by: twice as many readable
 * codes as parts and more (the later ones fountain mixes) let the reader rebuild the whole from any start.
 * A code the reader cannot take from the capture is passed over, as a camera misses a frame: the
 * fountain parts that follow stand in for it.
 */
export async function captureCodes(display: Locator, dir: string, name: string): Promise<RgbaImage[]> {
  const counter = await display.getByTestId('qr-counter').textContent();
  const parts = Number(/(\d+) codes? makes? the whole/.exec(counter ?? '')?.[1] ?? '1');
  await display.getByRole('button', { name: 'Pause' }).click();
  await display.getByRole('button', { name: 'Larger view' }).click();
  const code = display.getByTestId('qr-code');
  // Three codes a part: the camera reads each code rescaled (it asks for 1280×720 and the reader
  // caps at 960 wide), which can miss one the screenshot read; with twice as many, a missed plain part
  // was sometimes in no fountain mix that was read, and the scan stopped one part short (CI).
  const wanted = 3 * parts + 4;
  const frames: RgbaImage[] = [];
  const missed: string[] = [];
  for (let i = 0; frames.length < wanted && i < 2 * wanted; i++) {
    const shown = Number(await code.getAttribute('data-shown'));
    const part = (await code.getAttribute('data-part')) ?? '';
    // What the screen shows is the part main handed out, readable as captured.
    const frame = await readShown(code, join(dir, `${name}-${i}.png`), part);
    if (frame) frames.push(frame);
    else missed.push(part.slice(0, 24));
    await display.getByRole('button', { name: 'Next code' }).click();
    await expect(code).toHaveAttribute('data-shown', String(shown + 1));
  }
  expect(frames.length, `codes read from the screen (missed: ${missed.join(', ')})`).toBe(wanted);
  await display.getByRole('button', { name: 'Smaller view' }).click();
  return frames;
}

/** A Chromium whose camera plays `frames`, and a page on it showing the renderer wired to `client`'s core. */
export async function cameraPage(
  frames: RgbaImage[],
  video: string,
  rendererUrl: string,
  client: HarnessClient,
  problems: string[],
): Promise<{ browser: Browser; page: Page; stop: () => Promise<void> }> {
  const file = await writeImageVideo(video, frames, { width: 720, height: 680 });
  const browser = await chromium.launch({
    executablePath: findChromium()!,
    headless: true,
    args: [...CHROMIUM_ARGS, ...fakeCameraArgs(file)],
  });
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  await context.grantPermissions(['camera'], { origin: new URL(rendererUrl).origin });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  const terminal = await installTerminal(page, client);
  await page.goto(rendererUrl);
  return { browser, page, stop: () => terminal.stop() };
}

/** Scan the codes the camera shows in the QR panel's scan dialog, until main has received them whole. */
export async function scanWithCamera(page: Page, fingerprint: string, what: RegExp, screen: string): Promise<void> {
  await open(page, 'Offline signing', 'Offline signing');
  await page.getByTestId('qr-transfer').getByRole('button', { name: 'Scan QR codes…' }).click();
  const dialog = page.getByTestId('scan-dialog');
  const progress = dialog.getByTestId('scan-progress');
  await expect(progress).toHaveAttribute('data-state', 'complete', { timeout: 120_000 });
  await expect(dialog.getByTestId('scan-fingerprint')).toHaveText(fingerprint);
  await expect(dialog.getByTestId('scan-status')).toHaveText(what);
  await shot(page, screen);
  await dialog.getByRole('button', { name: 'Done' }).click();
}

/** A Chromium opened for a camera, to close when the spec ends. */
export interface CameraWindow {
  readonly browser: Browser;
  readonly stop: () => Promise<void>;
}

export interface QrRoundTrip {
  readonly dir: string;
  /** The page showing the online core now (its first window, or the last camera window on it). */
  readonly onlinePage: Page;
  readonly onlineClient: HarnessClient;
  readonly signerClient: HarnessClient;
  readonly rendererUrl: string;
  /** Name of the videos and prefix of the screenshots. */
  readonly name: string;
  /** What the signer's scan dialog says it received. */
  readonly received: RegExp;
  readonly trustDomain?: boolean;
  readonly confirmSign?: boolean;
  /** Camera windows opened on the way, closed by the caller. */
  readonly opened: CameraWindow[];
  readonly problems: string[];
}

/**
 * One leg by QR: the codes `item`'s display shows (with the fingerprint) are captured into a video
 * that is the camera of a new window on the other core, which it returns.
 */
async function carryByCamera(
  trip: QrRoundTrip,
  item: Locator,
  fingerprint: string,
  leg: { readonly from: Page; readonly screen: string; readonly video: string; readonly to: HarnessClient },
): Promise<Page> {
  const display = item.getByTestId('qr-display');
  await expect(display.getByTestId('qr-fingerprint')).toHaveText(fingerprint);
  await display.scrollIntoViewIfNeeded();
  await shot(leg.from, leg.screen);
  const frames = await captureCodes(display, trip.dir, leg.video);
  const side = await cameraPage(frames, join(trip.dir, `${leg.video}.y4m`), trip.rendererUrl, leg.to, trip.problems);
  trip.opened.push(side);
  return side.page;
}

/**
 * The newest pending request's way by QR codes: shown online, captured into the camera of a window
 * on the signer, scanned there with the same fingerprint, signed, shown as codes, captured into the
 * camera of a new window on the online core, scanned and checked. Leaves it ready to send in that
 * window, which it returns with the request there and the signer's view of it.
 */
export async function roundTripByQr(
  trip: QrRoundTrip,
): Promise<{ online: Page; pending: Locator; received: Locator; signerPage: Page }> {
  const { name } = trip;
  const { pending, fingerprint } = await newestPending(trip.onlinePage);
  await pending.getByTestId('show-request-qr').click();
  const signerPage = await carryByCamera(trip, pending, fingerprint, {
    from: trip.onlinePage,
    screen: `${name}-1-online-codes`,
    video: `${name}-request`,
    to: trip.signerClient,
  });
  await scanWithCamera(signerPage, fingerprint, trip.received, `${name}-2-signer-scanned`);
  const received = signerPage.getByTestId('received-request').first();
  await expect(received.getByTestId('fingerprint')).toHaveText(fingerprint);
  await signReceived(received, trip.signerClient, fingerprint, trip);
  await received.getByTestId('show-response-qr').click();
  const online = await carryByCamera(trip, received, fingerprint, {
    from: signerPage,
    screen: `${name}-3-signer-response-codes`,
    video: `${name}-response`,
    to: trip.onlineClient,
  });
  await scanWithCamera(online, fingerprint, /^Received a signed response\.$/, `${name}-4-online-scanned`);
  const checked = online.getByTestId('pending-request').first();
  await expect(checked.getByTestId('fingerprint')).toHaveText(fingerprint);
  await expect(checked).toContainText('ready to send');
  await checked.scrollIntoViewIfNeeded();
  await shot(online, `${name}-5-online-checked`);
  return { online, pending: checked, received, signerPage };
}
