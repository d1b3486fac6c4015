// The one permission the window can get: the camera, for video only, from our own page's top frame,
// and only while main has a QR scan open that asked for it. Everything else stays denied.
import type { Session } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { QrTransport } from '../core/airgap/qr-transport';
import { isOwnPage, resolveAppEntry } from './app-entry';
import { PRODUCTION_CSP } from './csp';
import {
  hardenSession,
  permissionCheckHandler,
  permissionRequestHandler,
  type MediaPolicy,
  type PermissionRequestDetails,
} from './policies';

const app = resolveAppEntry({ rendererDir: '/opt/app/out/renderer', devServerUrl: undefined, isPackaged: true });
const dev = resolveAppEntry({ rendererDir: '/x', devServerUrl: 'http://localhost:5173/', isPackaged: false });
const OUR_PAGE = 'app://terminal/index.html';
const camera: PermissionRequestDetails = { requestingUrl: OUR_PAGE, isMainFrame: true, mediaTypes: ['video'] };

function policy(open: () => boolean): MediaPolicy {
  return { cameraWanted: open, isOwnPage: (url) => isOwnPage(url, app) };
}

function asked(p: MediaPolicy, permission: string, details: PermissionRequestDetails): boolean {
  const callback = vi.fn();
  permissionRequestHandler(p)(null, permission, callback, details);
  expect(callback).toHaveBeenCalledTimes(1);
  return callback.mock.calls[0]![0] as boolean;
}

describe('our own page', () => {
  it('is app://terminal (any path, or the bare origin Chromium passes), or exactly the dev server origin', () => {
    expect(isOwnPage(OUR_PAGE, app)).toBe(true);
    expect(isOwnPage('app://terminal', app)).toBe(true);
    expect(isOwnPage('app://terminal/other.html', app)).toBe(true);
    for (const other of [
      'app://evil/index.html',
      'app://user:pw@terminal/index.html',
      'https://terminal/index.html',
      'http://localhost:5173/',
      'file:///opt/app/out/renderer/index.html',
      'not a url',
      '',
    ])
      expect(isOwnPage(other, app), other).toBe(false);
    expect(isOwnPage('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isOwnPage('http://localhost:5174/', dev)).toBe(false);
    expect(isOwnPage(OUR_PAGE, dev)).toBe(false);
  });
});

describe('the camera permission', () => {
  it('is granted for video from our top frame only while a camera scan is open', () => {
    let open = false;
    const p = policy(() => open);
    expect(asked(p, 'media', camera)).toBe(false);
    open = true;
    expect(asked(p, 'media', camera)).toBe(true);
    open = false;
    expect(asked(p, 'media', camera)).toBe(false);
  });

  it('is never granted for audio, screens, other pages, frames or other permissions, even with a scan open', () => {
    const p = policy(() => true);
    const refused: [string, PermissionRequestDetails][] = [
      ['media', { ...camera, mediaTypes: ['audio'] }],
      ['media', { ...camera, mediaTypes: ['video', 'audio'] }],
      ['media', { ...camera, mediaTypes: [] }],
      ['media', { requestingUrl: OUR_PAGE, isMainFrame: true }],
      ['media', { ...camera, mediaTypes: ['screen'] }],
      ['media', { ...camera, isMainFrame: false }],
      ['media', { mediaTypes: ['video'], isMainFrame: true }],
      ['media', { ...camera, requestingUrl: 'https://evil.example/' }],
      ['media', { ...camera, requestingUrl: 'app://other/index.html' }],
      ['display-capture', camera],
      ['geolocation', camera],
      ['notifications', camera],
      ['clipboard-read', camera],
      ['openExternal', camera],
      ['fullscreen', camera],
      ['midi', camera],
    ];
    for (const [permission, details] of refused)
      expect(asked(p, permission, details), `${permission} ${JSON.stringify(details)}`).toBe(false);
  });

  it('answers the synchronous check by the same rule: video, our origin, a scan open', () => {
    let open = true;
    const check = permissionCheckHandler(policy(() => open));
    const video = { isMainFrame: true, mediaType: 'video', requestingUrl: OUR_PAGE };
    expect(check(null, 'media', 'app://terminal', video)).toBe(true);
    expect(check(null, 'media', 'app://terminal', { ...video, mediaType: 'audio' })).toBe(false);
    expect(check(null, 'media', 'app://terminal', { ...video, mediaType: 'unknown' })).toBe(false);
    expect(check(null, 'media', 'app://terminal', { isMainFrame: true })).toBe(false);
    expect(check(null, 'media', 'app://terminal', { ...video, isMainFrame: false })).toBe(false);
    expect(check(null, 'media', 'https://evil.example', video)).toBe(false);
    expect(check(null, 'media', 'app://terminal', { ...video, requestingUrl: 'https://evil.example/' })).toBe(false);
    expect(check(null, 'geolocation', 'app://terminal', video)).toBe(false);
    expect(check(null, 'notifications', 'app://terminal', video)).toBe(false);
    open = false;
    expect(check(null, 'media', 'app://terminal', video)).toBe(false);
  });

  it('follows the QR scans of main: open with a camera scan, closed when it is cancelled, finished or idle', async () => {
    let now = 1_000_000;
    const qr = new QrTransport({
      now: () => now,
      receive: () => {
        throw new Error('not reached');
      },
    });
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    };
    hardenSession(session as unknown as Session, PRODUCTION_CSP, {
      cameraWanted: () => qr.cameraOpen(),
      isOwnPage: (url) => isOwnPage(url, app),
    });
    const request = session.setPermissionRequestHandler.mock.calls[0]![0] as ReturnType<
      typeof permissionRequestHandler
    >;
    const granted = (): boolean => {
      const callback = vi.fn();
      request(null, 'media', callback, camera);
      return callback.mock.calls[0]![0] as boolean;
    };
    expect(granted()).toBe(false);
    // A scan from image files only does not open the camera.
    qr.scanBegin(['request'], false);
    expect(granted()).toBe(false);
    const scan = qr.scanBegin(['request'], true);
    expect(granted()).toBe(true);
    qr.scanCancel(scan.scanId);
    expect(granted()).toBe(false);
    const idle = qr.scanBegin(['response'], true);
    expect(granted()).toBe(true);
    now += 5 * 60_000;
    expect(granted()).toBe(false);
    await expect(qr.scanPart(idle.scanId, 'ur:et-sign-response/abc')).rejects.toMatchObject({
      code: 'airgap.scan_closed',
    });
  });
});

describe('the page’s CSP', () => {
  it('needs no source for the camera or image files: the preview is a MediaStream and files are decoded from their bytes', () => {
    // No media-src (it falls back to default-src 'none'), and no blob: or mediastream: anywhere.
    expect(PRODUCTION_CSP).not.toMatch(/media-src|blob:|mediastream:|filesystem:/);
    expect(PRODUCTION_CSP).toContain("default-src 'none'");
  });
});
