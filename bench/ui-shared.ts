/**
 * Shared rig for the UI benchmarks (bench/ui-*.bench.ts): the built renderer in headless Chromium
 * with `window.terminal` wired by the e2e harness to the real app core, which trades on a devnet
 * started here (no bots, one BTC market with hour-long epochs so no roll-over mid-run). A demo
 * account is unlocked, funded and selected; order confirmations are off and hotkeys on; the page
 * shows the Trade screen with the ladder subscribed. The devnet runs in a child process
 * (bench/devnet-process.ts), beside the core as in the app, not inside its process.
 *
 * The window↔core hop (RIG_HOPS below says which processes a call and an event cross): with the core
 * in this process (the default), a call goes page → Chromium → this process over Playwright's
 * binding and reaches the core directly; an event goes from the core's emit to the page by a CDP
 * Runtime.evaluate. Electron's IPC goes renderer → main (the browser process, where the core runs)
 * and back; this rig adds the pipe between Chromium's browser process and node each way. With
 * `coreProcess` the core is in a process of its own and a loopback HTTP hop is added each way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, noChromiumMessage } from '../e2e/chromium';
import { harnessClient, type HarnessClient } from '../e2e/harness/client';
import { startCoreServer, type CoreServer, type HarnessDevnet } from '../e2e/harness/core-server';
import { installTerminal, type InstalledTerminal } from '../e2e/harness/install-terminal';
import { serveDirectory, type StaticServer } from '../e2e/static-server';
import { type ExchangeClient } from '../src/client';
import { devnetClient } from '../src/exchange/bots';
import { startDevnetProcess, type DevnetProcess } from './devnet-process';
import { startHotkeyCoreProcess, type HotkeyCoreProcess } from './hotkey-core-process';

const PASSWORD = 'ui bench password';
export const VIEWPORT = { width: 1360, height: 860 } as const;
export const SCREENS_DIR = resolve('test-results/screens');

export interface UiRig {
  readonly page: Page;
  readonly devnet: DevnetProcess;
  readonly client: HarnessClient;
  readonly market: { assetId: string; epoch: string; symbol: string };
  /** The core's own process, when RigOptions.coreProcess asked for one. */
  readonly coreProcess: HotkeyCoreProcess | null;
  /** The ladder's current book subscription (captured from markets.subscribeBook). */
  subscriptionId(): string | null;
  /** Calls the core directly (not through the page); throws on a failure. */
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  /** An exchange client for another funded demo account (the "market" that moves the book). */
  otherTrader(): ExchangeClient;
  close(): Promise<void>;
}

/** Which hops a call and an event cross between the page and the core, as the bench prints it. */
export function rigHops(coreProcess: boolean): string {
  return coreProcess
    ? 'call: page → Chromium browser process → CDP pipe → bench process (Playwright binding) → loopback HTTP → core process; event: core process → HTTP stream → bench process → CDP pipe → Chromium → page (two process hops each way more than Electron)'
    : "call: page → Chromium browser process → CDP pipe → bench process, where the core is (Playwright binding, then core.invoke); event: core's emit → CDP Runtime.evaluate → Chromium browser process → page (Electron: renderer ↔ main in one IPC hop each way; this adds the CDP pipe to node each way)";
}

export interface RigOptions {
  /** Called in the bench process when the page's call arrives at the binding (before the hop to the core server). */
  onBinding?: (method: string) => void;
  /** Init script file (runs after the harness's, so `terminal` exists) for page-side instrumentation. */
  initScriptPath?: string;
  /** Run the core in a process of its own, as Electron's main (bench/hotkey-core-child.ts); default: in this one. */
  coreProcess?: boolean;
}

/** `npx electron-vite build` unless UI_BENCH_SKIP_BUILD=1 (then out/renderer must exist). */
export function buildRenderer(): void {
  if (process.env['UI_BENCH_SKIP_BUILD'] === '1') {
    if (!existsSync(resolve('out/renderer/index.html')))
      throw new Error('out/renderer is missing: unset UI_BENCH_SKIP_BUILD');
    return;
  }
  const t0 = Date.now();
  execFileSync('npx', ['electron-vite', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`  built the renderer (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

export async function startUiRig(options: RigOptions = {}): Promise<UiRig> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(noChromiumMessage());
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    // Its own process, as `npm start` runs it: the core's process holds no chain or exchange.
    const devnet = await startDevnetProcess();
    cleanups.push(() => devnet.stop());
    const forCore: HarnessDevnet = {
      httpUrl: devnet.httpUrl,
      marketWsUrl: devnet.marketWsUrl,
      oracleWsUrl: devnet.oracleWsUrl,
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      markets: devnet.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol })),
      accounts: devnet.accounts.map((a) => ({ label: a.label, address: a.address, privateKey: a.privateKey })),
    };
    const coreProcess = options.coreProcess ? await startHotkeyCoreProcess(forCore) : null;
    const server: Pick<CoreServer, 'url' | 'token' | 'backend' | 'close'> =
      coreProcess ?? (await startCoreServer({ devnet: forCore }));
    cleanups.push(() => server.close());
    const raw = coreProcess ? harnessClient(server) : (server as CoreServer).direct;
    let subscriptionId: string | null = null;
    const client: HarnessClient = {
      ...raw,
      async invoke(method, args) {
        options.onBinding?.(method);
        const outcome = await raw.invoke(method, args);
        if (method === 'markets.subscribeBook' && outcome.ok)
          subscriptionId = (outcome.value as { subscriptionId: string }).subscriptionId;
        return outcome;
      },
    };
    const call = async <T>(method: string, ...args: unknown[]): Promise<T> => {
      const outcome = await raw.invoke(method, args);
      if (!outcome.ok) throw new Error(`${method}: ${outcome.error.code} ${outcome.error.message}`);
      return outcome.value as T;
    };

    // Account: password, a funded demo key selected as master, no confirmations, hotkeys on.
    // The first password of a keychain vault, and order confirmation off, are trust changes: main asks, the user says yes.
    if (server.backend() === 'keychain') await raw.dialogs({ kind: 'confirm', yes: true });
    await call('lock.setPassword', { password: PASSWORD, passwordAgain: PASSWORD });
    const demo = (await call<{ address: string }[]>('keys.devnetAccounts'))[0]!;
    await call('keys.useDevnetAccount', { address: demo.address });
    await devnet.credit(demo.address, 10_000_000_000n);
    await devnet.credit(devnet.accounts[1]!.address, 10_000_000_000n);
    const deadline = Date.now() + 30_000;
    while ((await call<{ pin: { kind: string } }>('app.connection')).pin.kind !== 'pinned') {
      if (Date.now() > deadline) throw new Error('the core never pinned the devnet deployment');
      await new Promise((r) => setTimeout(r, 200));
    }
    await call('account.select', { master: demo.address, agent: null, tradeAs: 'master' });
    const settings = await call<{ hotkeys: { bindings: Record<string, string> } }>('settings.get');
    await raw.dialogs({ kind: 'confirm', yes: true });
    await call('settings.setConfirmation', { name: 'orders', on: false });
    // Hundreds of presses a minute: the bench's user raises the order rate limit (a looser limit: main asks).
    await raw.dialogs({ kind: 'confirm', yes: true });
    await call('settings.setRiskLimits', { maxOrdersPerMinute: 6000 });
    await call('settings.update', { hotkeys: { enabled: true, bindings: settings.hotkeys.bindings } });
    const market = (await call<{ assetId: string; epoch: string; symbol: string }[]>('markets.list'))[0]!;

    const renderer: StaticServer = await serveDirectory(resolve('out/renderer'));
    cleanups.push(() => renderer.close());
    const browser: Browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: VIEWPORT });
    page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
    // tsx (esbuild keepNames) wraps named functions in __name(...); functions Playwright
    // serialises into the page (the harness's init script, evaluate callbacks) need it there too.
    await page.addInitScript({ content: 'Object.defineProperty(globalThis, "__name", { value: (f) => f });' });
    const terminal: InstalledTerminal = await installTerminal(page, client);
    cleanups.push(() => terminal.stop());
    if (options.initScriptPath) await page.addInitScript({ path: options.initScriptPath });
    await page.goto(renderer.url);
    await page
      .getByTestId('connection-status')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Trade' }).click();
    // The ladder shows as many rows as fit its box (fewer at laptop heights).
    await page.getByTestId('ladder').locator('[data-price]').first().waitFor();
    const subDeadline = Date.now() + 15_000;
    while (subscriptionId === null || (await page.getByTestId('book-blocked').count()) > 0) {
      if (Date.now() > subDeadline) throw new Error('the ladder never got a live book');
      await new Promise((r) => setTimeout(r, 100));
    }
    mkdirSync(SCREENS_DIR, { recursive: true });

    const other = devnet.accounts[1]!;
    return {
      page,
      devnet,
      client,
      market,
      coreProcess,
      subscriptionId: () => subscriptionId,
      call,
      otherTrader() {
        const trader = devnetClient(devnet, other.privateKey);
        cleanups.push(() => Promise.resolve(trader.http.close()));
        return trader;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Nearest-rank percentile of an ascending array. */
export function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function sortedCopy(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}
