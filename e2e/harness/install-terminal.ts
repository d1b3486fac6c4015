/**
 * Gives a Playwright page the `window.terminal` the Electron window gets, by running the SHIPPED
 * preload bundle (out/preload/index.cjs) in the page before any of its scripts, with a
 * sandbox-like `require` that offers only `electron`: a `contextBridge` that exposes into the
 * page, and an `ipcRenderer` backed by the harness. Calls go page → preload → ipcRenderer.invoke
 * → exposeBinding → test process → harness server (token) → app core; events come back by
 * long-poll from the server to the test process, then into the page to the preload's listeners.
 * A preload bundle that does not load, or exposes nothing, fails every spec that uses this.
 *
 * The harness also stands in for what Electron's main sees of the person (webContents
 * 'before-input-event', 'before-mouse-event', 'input-event'; src/main/core/user-presence.ts): the
 * page-side script forwards the key presses, mouse buttons and touches whose DOM event is trusted
 * (`isTrusted`: Playwright's real clicks and keys, never an event a script dispatched) to the core's
 * noteUserInput, and holds every bridge call until the presses before it have reached the core, as
 * main sees input before the page acts on it. Only the harness does this: in the app, main observes
 * input itself and the page has no say. (The forwarder is hidden from the page's globals, but a page
 * script could still reach Playwright's binding controller: e2e shows the person's path works; that
 * the window cannot forge a press is for the Electron wiring and test/core.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
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
  // Main sees the person's input before the page acts on it: presses go first, calls wait for them.
  let inputs = Promise.resolve();
  const sendInput = names.inputBinding ? globalThis[names.inputBinding] : null;
  if (sendInput) {
    delete globalThis[names.inputBinding];
    const forward = (domType, input) =>
      addEventListener(
        domType,
        (event) => {
          if (!event.isTrusted) return;
          const sent = sendInput(input(event));
          inputs = inputs.then(() => sent).catch(() => undefined);
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
      return inputs.then(() => call(channel.slice(names.invokePrefix.length), args[0]));
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
  Object.defineProperty(globalThis, names.deliver, {
    value: (event, payload) => {
      const ipcEvent = { sender: null };
      for (const listener of [...(listeners.get(names.eventPrefix + event) ?? [])]) listener(ipcEvent, payload);
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
  await page.exposeBinding(INVOKE_BINDING, (_source, method: string, args: unknown[]) => client.invoke(method, args));
  await page.exposeBinding(INPUT_BINDING, (_source, input: UserInput) => client.noteInput(input));
  await page.addInitScript({
    content: preloadInitScript(shippedPreload(), {
      invokeBinding: INVOKE_BINDING,
      inputBinding: INPUT_BINDING,
      deliver: DELIVER,
      invokePrefix: INVOKE_CHANNEL_PREFIX,
      eventPrefix: EVENT_CHANNEL_PREFIX,
    }),
  });
  // Start after the events that happened before this page existed.
  const abort = new AbortController();
  let after = (await client.events(0, { wait: false })).at(-1)?.seq ?? 0;
  const pump = (async () => {
    while (!abort.signal.aborted) {
      let batch: Awaited<ReturnType<HarnessClient['events']>>;
      try {
        batch = await client.events(after, { signal: abort.signal });
      } catch {
        return; // aborted, or the server is gone
      }
      if (batch.length === 0) continue;
      after = batch.at(-1)!.seq;
      // One round trip per batch, in order: a devnet with bots sends more events than one
      // page.evaluate each can carry, and a pump that falls behind loses them off the server's buffer.
      const deliveries = batch.map(({ event, payload }) => [event, payload] as const);
      await page
        .evaluate(
          ([name, list]) => {
            const deliver = (globalThis as unknown as Record<string, (e: string, p: unknown) => void>)[name]!;
            for (const [e, p] of list) deliver(e, p);
          },
          [DELIVER, deliveries] as const,
        )
        .catch(() => undefined); // page navigating or closed: the events are for a page that is gone
    }
  })();
  return {
    async stop() {
      abort.abort();
      await pump;
    },
  };
}
