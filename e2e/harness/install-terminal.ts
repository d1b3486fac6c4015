/**
 * Gives a Playwright page the same `window.terminal` the preload gives the Electron window:
 * a frozen { invoke, on } object that checks names against the bridge tables. Calls go
 * page → exposeBinding → test process → harness server (token) → app core; events come back
 * by long-poll from the server to the test process, then into the page with page.evaluate.
 */
import type { Page } from '@playwright/test';
import { bridgeEventNames, bridgeMethodNames } from '../../src/shared/bridge';
import type { HarnessClient } from './client';

const INVOKE_BINDING = '__harnessInvoke';
const DELIVER = '__harnessDeliver';

/** Runs in the page before any of its scripts. Must be self-contained. */
function terminalInitScript({ methods, events, invokeBinding, deliver }: { methods: string[]; events: string[]; invokeBinding: string; deliver: string }): void {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const call = (globalThis as unknown as Record<string, (m: string, a: unknown[]) => Promise<unknown>>)[invokeBinding];
  const terminal = Object.freeze({
    invoke(method: string, args: readonly unknown[]) {
      if (!methods.includes(method)) {
        return Promise.resolve({ ok: false, error: { code: 'bridge.unknown_method', message: `Unknown bridge method: ${String(method)}.` } });
      }
      return call!(method, Array.isArray(args) ? Array.from(args as unknown[]) : []);
    },
    on(event: string, handler: (payload: unknown) => void) {
      if (!events.includes(event)) throw new TypeError(`Unknown bridge event: ${String(event)}.`);
      if (typeof handler !== 'function') throw new TypeError('Bridge event handler must be a function.');
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const own = (payload: unknown) => handler(payload);
      set.add(own);
      return () => void set.delete(own);
    },
  });
  Object.defineProperty(globalThis, 'terminal', { value: terminal });
  Object.defineProperty(globalThis, deliver, {
    value: (event: string, payload: unknown) => {
      for (const handler of [...(listeners.get(event) ?? [])]) handler(payload);
    },
  });
}

export interface InstalledTerminal {
  /** Stops the event pump. */
  stop(): Promise<void>;
}

export async function installTerminal(page: Page, client: HarnessClient): Promise<InstalledTerminal> {
  await page.exposeBinding(INVOKE_BINDING, (_source, method: string, args: unknown[]) => client.invoke(method, args));
  await page.addInitScript(terminalInitScript, {
    methods: [...bridgeMethodNames],
    events: [...bridgeEventNames],
    invokeBinding: INVOKE_BINDING,
    deliver: DELIVER,
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
