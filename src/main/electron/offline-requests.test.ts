import { describe, expect, it } from 'vitest';
import type { AppEntry } from '../window/app-entry';
import { allowedOffline, blockRequestsWhileOffline } from './offline-requests';

const app: AppEntry = { kind: 'app', rendererDir: '/r', url: new URL('app://terminal/index.html') };
const dev: AppEntry = { kind: 'dev', url: new URL('http://localhost:5173/') };

describe('offline mode in the window session', () => {
  it('lets only app-local URLs through', () => {
    expect(allowedOffline('app://terminal/assets/index.js', app)).toBe(true);
    expect(allowedOffline('data:image/png;base64,AAAA', app)).toBe(true);
    expect(allowedOffline('blob:app://terminal/1234', app)).toBe(true);
    expect(allowedOffline('http://127.0.0.1:8787/health', app)).toBe(false);
    expect(allowedOffline('https://example.com/', app)).toBe(false);
    expect(allowedOffline('ws://127.0.0.1:8787/ws/', app)).toBe(false);
    expect(allowedOffline('not a url', app)).toBe(false);
    // In development the page comes from the dev server; nothing else on loopback does.
    expect(allowedOffline('http://localhost:5173/src/main.ts', dev)).toBe(true);
    expect(allowedOffline('http://localhost:8787/health', dev)).toBe(false);
  });

  it('cancels outside requests only while offline mode is on', () => {
    let listener: ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void) | null = null;
    const session = {
      webRequest: { onBeforeRequest: (l: typeof listener) => (listener = l) },
    } as unknown as Parameters<typeof blockRequestsWhileOffline>[0];
    let offline = true;
    blockRequestsWhileOffline(session, () => offline, app);
    const answer = (url: string): boolean => {
      let cancel: boolean | null = null;
      listener!({ url }, (r) => (cancel = r.cancel));
      return cancel!;
    };
    expect(answer('https://example.com/')).toBe(true);
    expect(answer('app://terminal/index.html')).toBe(false);
    offline = false;
    expect(answer('https://example.com/')).toBe(false);
  });
});
