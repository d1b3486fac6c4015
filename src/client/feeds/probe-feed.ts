// Whether a WebSocket feed answers at a URL: one connection, opened and closed, nothing subscribed.
// Used to check a feed address before it is saved (the same transport limits as the feeds' own).
import WebSocket from 'ws';
import { FEED_HANDSHAKE_TIMEOUT_MS } from './subscription-socket';

/** Resolves true once the socket opens, false on an error, a refusal or no answer within `timeoutMs`. */
export function probeFeed(url: string, timeoutMs = FEED_HANDSHAKE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url, {
        handshakeTimeout: timeoutMs,
        perMessageDeflate: false,
        followRedirects: false,
        maxPayload: 64 * 1024,
      });
    } catch {
      resolve(false);
      return;
    }
    const done = (answered: boolean): void => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    ws.on('open', () => done(true));
    ws.on('error', () => done(false));
    ws.on('unexpected-response', () => done(false));
  });
}
