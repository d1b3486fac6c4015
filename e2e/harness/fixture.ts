/**
 * Playwright fixtures for end-to-end tests against the real app core:
 *   renderer  the built out/renderer behind the production CSP (worker-wide)
 *   core      a fresh core server and its client (per test; `restartCore` keeps its data)
 *   app       a page showing the renderer with `window.terminal` wired to that core
 *   problems  console errors, page errors and CSP violations the page produced
 * Dialogs are answered by the test through `core.dialogs(...)`, never by the page.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { serveDirectory, type StaticServer } from '../static-server';
import { harnessClient, type HarnessClient } from './client';
import { startCoreServer, type CoreServer } from './core-server';
import { startHarnessDevnet, type HarnessDevnetHandle, type HarnessDevnetOptions } from './devnet';
import { installTerminal } from './install-terminal';
import type { UpdatesFixtureOptions } from '../../test/updates/updates-fixture';
import { startWsProxy, type WsProxy } from './ws-proxy';

export const SCREENS_DIR = resolve('test-results/screens');

/** The running test's core, for shared steps that answer main's dialogs as the user would (never the page). */
let currentCore: Harness | null = null;
export function userAnswers(): Harness {
  if (!currentCore) throw new Error('No core is running for this test.');
  return currentCore;
}
const RENDERER_DIR = resolve('out/renderer');

export interface Harness extends HarnessClient {
  readonly server: CoreServer;
}

/** Worker-wide devnet, started on first use (`await devnet.get()`), stopped with the worker. */
export interface LazyDevnet {
  get(): Promise<HarnessDevnetHandle>;
}

export const test = base.extend<
  {
    core: Harness;
    app: Page;
    problems: string[];
    withDevnet: boolean;
    firstRun: boolean;
    startedOffline: boolean;
    proxyMarketFeed: boolean;
    marketFeedProxy: WsProxy | null;
    updates: (UpdatesFixtureOptions & { downloads?: 'automatic' | 'ask' }) | null;
    practice: boolean;
  },
  { renderer: StaticServer; devnet: LazyDevnet; devnetOptions: HarnessDevnetOptions }
>({
  /** `test.use({ withDevnet: true })`: the core trades on the worker's devnet. */
  withDevnet: [false, { option: true }],
  /** `test.use({ withDevnet: true, firstRun: true })`: no deployment yet; the devnet is reached like a remote exchange. */
  firstRun: [false, { option: true }],
  /** `test.use({ startedOffline: true })`: the core runs as if started with --offline. */
  startedOffline: [false, { option: true }],
  /** `test.use({ devnetOptions: { markets: shortMarkets(15) } })`: a worker devnet of its own kind. */
  devnetOptions: [{}, { option: true, scope: 'worker' }],
  /** `test.use({ proxyMarketFeed: true })`: the core reaches the market WS through `marketFeedProxy`. */
  proxyMarketFeed: [false, { option: true }],
  /** `test.use({ updates: { version: '0.2.0' } })`: a signed release waits on a local update server. */
  updates: [null, { option: true }],
  /** `test.use({ firstRun: true, practice: true })`: the installed app's practice mode (the built worker). */
  practice: [false, { option: true }],
  marketFeedProxy: async ({ withDevnet, proxyMarketFeed, devnet }, use) => {
    if (!withDevnet || !proxyMarketFeed) return use(null);
    const proxy = await startWsProxy((await devnet.get()).forCore.marketWsUrl);
    await use(proxy);
    await proxy.close();
  },
  devnet: [
    async ({ devnetOptions }, use) => {
      const state: { started: Promise<HarnessDevnetHandle> | null } = { started: null };
      await use({ get: () => (state.started ??= startHarnessDevnet(devnetOptions)) });
      if (state.started) await (await state.started).stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  renderer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
        throw new Error('out/renderer is missing: run `npx electron-vite build` first (`npm test` does).');
      }
      mkdirSync(SCREENS_DIR, { recursive: true });
      const server = await serveDirectory(RENDERER_DIR);
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  core: async ({ withDevnet, firstRun, startedOffline, devnet, marketFeedProxy, updates, practice }, use) => {
    const forCore = withDevnet ? (await devnet.get()).forCore : null;
    const server = await startCoreServer({
      ...(forCore ? { devnet: marketFeedProxy ? { ...forCore, marketWsUrl: marketFeedProxy.url } : forCore } : {}),
      ...(firstRun ? { firstRun } : {}),
      ...(startedOffline ? { launchedOffline: true } : {}),
      ...(updates ? { updates } : {}),
      ...(practice ? { practice } : {}),
    });
    const harness = { ...harnessClient(server), server };
    currentCore = harness;
    await use(harness);
    currentCore = null;
    await server.close();
  },
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /content security policy/i.test(message.text()))
        problems.push(`console.${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) =>
      problems.push(
        `pageerror: ${error.message}${error.stack ? ` @ ${error.stack.split('\n').slice(0, 4).join(' | ')}` : ''}`,
      ),
    );
    await use(problems);
  },
  app: async ({ page, renderer, core, problems: _problems }, use) => {
    await page.addInitScript({ path: resolve('e2e/browser/record-csp-violations.js') });
    const terminal = await installTerminal(page, core);
    await page.goto(renderer.url);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
    await use(page);
    await terminal.stop();
  },
});

export { expect };

/** Calls the bridge from inside the page, exactly as the renderer does. */
export function invokeInPage(page: Page, method: string, ...args: unknown[]) {
  return page.evaluate(
    ([m, a]) =>
      (
        globalThis as unknown as {
          terminal: {
            invoke(
              m: string,
              a: unknown[],
            ): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
          };
        }
      ).terminal.invoke(m, a),
    [method, args] as const,
  );
}

/** Starts recording one event in the page; read it back with recordedEvents. */
export async function recordEvents(page: Page, event: string): Promise<void> {
  await page.evaluate((e) => {
    const w = globalThis as unknown as {
      __recorded?: Record<string, unknown[]>;
      terminal: { on(e: string, h: (p: unknown) => void): () => void };
    };
    const store = (w.__recorded ??= {});
    store[e] = [];
    w.terminal.on(e, (p) => store[e]!.push(p));
  }, event);
}

export function recordedEvents(page: Page, event: string): Promise<unknown[]> {
  return page.evaluate(
    (e) => (globalThis as unknown as { __recorded?: Record<string, unknown[]> }).__recorded?.[e] ?? [],
    event,
  );
}
