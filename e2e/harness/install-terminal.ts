/**
 * Gives a Playwright page the `window.terminal` the Electron window gets, by running the SHIPPED
 * preload bundle (out/preload/index.cjs) in the page before any of its scripts, with a
 * sandbox-like `require` that offers only `electron`: a `contextBridge` that exposes into the
 * page, and an `ipcRenderer` backed by the harness. Calls go page → preload → ipcRenderer.invoke
 * → exposeBinding → test process → harness server (token) → app core; events come back on a
 * stream from the server to the test process, then into the page to the preload's listeners.
 * A preload bundle that does not load, or exposes nothing, fails every spec that uses this.
 *
 * Events travel as Electron's webContents.send sends them: the server writes each to an open stream
 * as the core emits it (no poll to wait for, and no reply held until the core's current job ends),
 * and each chunk is handed to the page as soon as it arrives (a Chrome DevTools Protocol
 * Runtime.evaluate of its JSON, in order, without waiting for the page to finish the one before).
 * The long-poll and page.evaluate pump this replaced made an event wait for the previous batch's
 * delivery and for Playwright's argument serialiser: 5-30 ms a batch on the shared machine
 * (bench/ui-hotkey.bench.ts, key → acknowledged).
 *
 * The harness also stands in for what Electron's main sees of the person (webContents
 * 'before-input-event', 'before-mouse-event', 'input-event'; src/main/core/user-presence.ts): the
 * page-side script forwards the key presses, mouse buttons and touches whose DOM event is trusted
 * (`isTrusted`: Playwright's real clicks and keys, never an event a script dispatched) to the core's
 * noteUserInput, and this process holds every bridge call until the presses forwarded before it have
 * reached the core, as main sees input before the page acts on it (without the page waiting a round
 * trip for it, which Electron's window never does). Only the harness does this: in the app, main
 * observes input itself and the page has no say. (The forwarder is hidden from the page's globals,
 * but a page script could still reach Playwright's binding controller: e2e shows the person's path
 * works; that the window cannot forge a press is for the Electron wiring and test/core.)
 *
 * And it stands in for main watching the page (src/main/window/page-lifetime.ts): a navigation of
 * the page (reload, goto) tells the core the page went away before the next page's first call, so
 * the core closes the book streams the old page left open.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, Request } from '@playwright/test';
import type { UserInput } from '../../src/main/core';
import { EVENT_CHANNEL_PREFIX, INVOKE_CHANNEL_PREFIX } from '../../src/shared/bridge';
import type { HarnessClient } from './client';

const PRELOAD_BUNDLE = resolve('out/preload/index.cjs');
const INVOKE_BINDING = '__harnessInvoke';
const INPUT_BINDING = '__harnessInput';
const DELIVER = '__harnessDeliver';

/** Names the page-side script needs; JSON so they can be spliced into its source. */
interface ShellNames {
  readonly invokeBinding: string;
  /** Where trusted presses go (absent: none are forwarded). */
  readonly inputBinding?: string;
  readonly deliver: string;
  readonly invokePrefix: string;
  readonly eventPrefix: string;
}

/**
 * The page-side script: the `electron` module a sandboxed preload sees (only contextBridge and
 * ipcRenderer), then the preload bundle itself, as CommonJS with that `require`. Built as
 * source text so the bundle runs as shipped (no eval: the page's CSP forbids it).
 */
export function preloadInitScript(preloadSource: string, names: ShellNames): string {
  return `(() => {
  const names = ${JSON.stringify(names)};
  const call = globalThis[names.invokeBinding];
  // Main sees the person's input before the page acts on it: the test process holds each call
  // until the presses forwarded before it have reached the core (bindings arrive there in order).
  const sendInput = names.inputBinding ? globalThis[names.inputBinding] : null;
  if (sendInput) {
    delete globalThis[names.inputBinding];
    const forward = (domType, input) =>
      addEventListener(
        domType,
        (event) => {
          if (!event.isTrusted) return;
          sendInput(input(event)).catch(() => undefined);
        },
        true,
      );
    // As Electron names them (before-input-event, before-mouse-event, input-event).
    forward('keydown', (e) => ({ device: 'key', type: 'keyDown', repeat: e.repeat }));
    forward('keyup', (e) => ({ device: 'key', type: 'keyUp', repeat: e.repeat }));
    forward('mousedown', () => ({ device: 'mouse', type: 'mouseDown' }));
    forward('mouseup', () => ({ device: 'mouse', type: 'mouseUp' }));
    forward('touchstart', () => ({ device: 'touch', type: 'touchStart' }));
    forward('touchend', () => ({ device: 'touch', type: 'touchEnd' }));
  }
  const listeners = new Map();
  const ipcRenderer = Object.freeze({
    invoke(channel, ...args) {
      // Like ipcMain: only the bridge's invoke channels have a handler.
      if (typeof channel !== 'string' || !channel.startsWith(names.invokePrefix)) {
        return Promise.reject(new Error("No handler registered for '" + String(channel) + "'"));
      }
      return call(channel.slice(names.invokePrefix.length), args[0]);
    },
    on(channel, listener) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  });
  const contextBridge = Object.freeze({
    exposeInMainWorld(key, api) {
      if (Object.prototype.hasOwnProperty.call(globalThis, key)) throw new Error('Cannot bind an API on top of an existing property on the window object');
      Object.defineProperty(globalThis, key, { value: api, enumerable: true });
    },
  });
  const electron = Object.freeze({ contextBridge, ipcRenderer });
  // A sandboxed preload's require: electron, and nothing else.
  const sandboxRequire = (id) => {
    if (id === 'electron') return electron;
    throw new Error("module not found: " + String(id));
  };
  // A batch of [event, payload] pairs, in order, as ipcRenderer delivers webContents.send's messages.
  Object.defineProperty(globalThis, names.deliver, {
    value: (batch) => {
      const ipcEvent = { sender: null };
      for (const [event, payload] of batch) {
        for (const listener of [...(listeners.get(names.eventPrefix + event) ?? [])]) {
          try {
            listener(ipcEvent, payload);
          } catch (error) {
            // Uncaught, as a listener's error is in Electron, without costing the rest of the batch.
            setTimeout(() => {
              throw error;
            });
          }
        }
      }
    },
  });
  const module = { exports: {} };
  try {
    (function (require, module, exports) {
${preloadSource}
    })(sandboxRequire, module, module.exports);
  } catch (error) {
    console.error('The preload bundle failed to load: ' + (error && error.stack ? error.stack : String(error)));
    throw error;
  }
  if (!globalThis.terminal) console.error('The preload bundle exposed no window.terminal.');
})();
`;
}

/** The shipped preload bundle's source; the build must have run. */
export function shippedPreload(): string {
  if (!existsSync(PRELOAD_BUNDLE))
    throw new Error('out/preload/index.cjs is missing: run `npx electron-vite build` first (`npm test` does).');
  return readFileSync(PRELOAD_BUNDLE, 'utf8');
}

export interface InstalledTerminal {
  /** Stops the event pump. */
  stop(): Promise<void>;
}

export async function installTerminal(page: Page, client: HarnessClient): Promise<InstalledTerminal> {
  // What each call waits for: the presses forwarded before it, and the core hearing that the page
  // before it went away. Bindings reach this process in the order the page called them.
  let inputs: Promise<unknown> = Promise.resolve();
  let pageGone: Promise<unknown> = Promise.resolve();
  await page.exposeBinding(INVOKE_BINDING, async (_source, method: string, args: unknown[]) => {
    await Promise.all([inputs, pageGone]);
    return client.invoke(method, args);
  });
  await page.exposeBinding(INPUT_BINDING, (_source, input: UserInput) => {
    const sent = client.noteInput(input);
    inputs = Promise.all([inputs, sent]).catch(() => undefined);
    return sent;
  });
  // A navigation of the page starts (reload, goto): told before the next document can exist.
  const onRequest = (request: Request): void => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    pageGone = Promise.all([pageGone, client.pageGone()]).catch(() => undefined);
  };
  page.on('request', onRequest);
  await page.addInitScript({
    content: preloadInitScript(shippedPreload(), {
      invokeBinding: INVOKE_BINDING,
      inputBinding: INPUT_BINDING,
      deliver: DELIVER,
      invokePrefix: INVOKE_CHANNEL_PREFIX,
      eventPrefix: EVENT_CHANNEL_PREFIX,
    }),
  });
  const cdp = await page.context().newCDPSession(page);
  // Each chunk of events is handed over as it arrives and not awaited: the protocol runs a session's
  // commands in order, and the next chunk need not wait for the page to finish this one. A page
  // navigating or closed drops it: the events were for a page that is gone.
  const abort = new AbortController();
  const stream = await client.eventStream((events) => {
    const deliveries = events.map(({ event, payload }) => [event, payload] as const);
    cdp
      .send('Runtime.evaluate', {
        expression: `globalThis[${JSON.stringify(DELIVER)}](${JSON.stringify(deliveries)})`,
      })
      .catch(() => undefined);
  }, abort.signal);
  return {
    async stop() {
      abort.abort();
      await stream.ended;
      page.off('request', onRequest);
      await cdp.detach().catch(() => undefined);
    },
  };
}
