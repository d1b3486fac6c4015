/**
 * Navigation and permission policies. The window shows one page, forever: it never
 * navigates, never opens windows, never embeds webviews and is granted no permission.
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

export function denyPermissionRequest(
  _contents: unknown,
  _permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(false);
}

export function denyPermissionCheck(): boolean {
  return false;
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
export function hardenSession(session: Session, csp: string): void {
  session.setPermissionRequestHandler(denyPermissionRequest);
  session.setPermissionCheckHandler(denyPermissionCheck);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) });
  });
}
