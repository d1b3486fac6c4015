/**
 * Navigation and permission policies. The window shows one page, forever: it never
 * navigates, never opens windows, never embeds webviews and is granted no permission, but one:
 * the camera (video only, our own page's top frame) while main has a QR scan open that asked for it.
 *
 * Written against electron's types only; the wiring functions take the objects they
 * harden, so a unit test can pass fakes and fire the events.
 */
import type { Session, WebContents } from 'electron';
import { withCspHeader } from './csp';

interface Preventable {
  preventDefault(): void;
}

/** will-navigate, will-frame-navigate, will-redirect: always refused. */
export function refuseNavigation(event: Preventable): void {
  event.preventDefault();
}

/** will-attach-webview: always refused (webviewTag is off as well; this is the second lock). */
export function refuseWebview(event: Preventable): void {
  event.preventDefault();
}

export function denyWindowOpen(): { action: 'deny' } {
  return { action: 'deny' };
}

/** What the media permission depends on: main's scan sessions, and which page is ours. */
export interface MediaPolicy {
  /** True only while a QR scan that asked for the camera is open in main. */
  cameraWanted(): boolean;
  /** True for a URL or origin of our own page (app://terminal, or the dev server). */
  isOwnPage(urlOrOrigin: string): boolean;
}

/** The policy before the core runs, and in tests of the rest: nothing is ever allowed. */
export const NO_MEDIA: MediaPolicy = { cameraWanted: () => false, isOwnPage: () => false };

/** The parts of Electron's request details we read (media requests carry `mediaTypes`). */
export interface PermissionRequestDetails {
  readonly requestingUrl?: string;
  readonly isMainFrame?: boolean;
  readonly mediaTypes?: readonly string[];
}

/** The parts of Electron's check details we read. */
export interface PermissionCheckDetails {
  readonly requestingUrl?: string;
  readonly isMainFrame?: boolean;
  readonly mediaType?: string;
}

export type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details?: PermissionRequestDetails,
) => void;

export type PermissionCheckHandler = (
  contents: unknown,
  permission: string,
  requestingOrigin: string,
  details?: PermissionCheckDetails,
) => boolean;

/** getUserMedia: video alone (no audio, no screen), from our page's top frame, while a camera scan is open. */
export function permissionRequestHandler(policy: MediaPolicy): PermissionRequestHandler {
  return (_contents, permission, callback, details) => {
    const types = details?.mediaTypes ?? [];
    const granted =
      permission === 'media' &&
      types.length > 0 &&
      types.every((t) => t === 'video') &&
      details?.isMainFrame === true &&
      policy.isOwnPage(details.requestingUrl ?? '') &&
      policy.cameraWanted();
    callback(granted);
  };
}

/** The synchronous check (enumerating cameras, permission queries): the same rule, video only. */
export function permissionCheckHandler(policy: MediaPolicy): PermissionCheckHandler {
  return (_contents, permission, requestingOrigin, details) =>
    permission === 'media' &&
    details?.mediaType === 'video' &&
    details.isMainFrame !== false &&
    policy.isOwnPage(requestingOrigin) &&
    (details.requestingUrl === undefined || policy.isOwnPage(details.requestingUrl)) &&
    policy.cameraWanted();
}

/** Applied to every WebContents the app creates (app 'web-contents-created'). */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', refuseNavigation);
  contents.on('will-frame-navigate', refuseNavigation);
  contents.on('will-redirect', refuseNavigation);
  contents.on('will-attach-webview', refuseWebview);
  contents.setWindowOpenHandler(denyWindowOpen);
}

/** Permission handlers and the CSP response header for the window's session. */
export function hardenSession(session: Session, csp: string, media: MediaPolicy = NO_MEDIA): void {
  session.setPermissionRequestHandler(permissionRequestHandler(media));
  session.setPermissionCheckHandler(permissionCheckHandler(media));
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) });
  });
}
