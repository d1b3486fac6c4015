/**
 * The end-to-end harness's node side: the real app core (real vault, settings, logger) behind a
 * loopback HTTP server. Every request must carry the random token in a header; requests with an
 * Origin header (anything a web page sends) or a foreign Host are refused, so the page under test
 * cannot reach the core except through the `window.terminal` the fixture installs.
 *
 * The vault uses the OS keychain when a Secret Service answers (`npm test` runs Playwright under
 * scripts/with-keyring.sh) and the encrypted-file fallback otherwise; tests set a password first,
 * which works on both. scrypt costs are lowered (the machine is shared); everything else is real.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCredentialsAsync, AsyncEntry } from '@napi-rs/keyring';
import { createAppCore, windowOutbox, type AppCore, type UserInput } from '../../src/main/core';
import { createScriptedDialogs, type DialogAnswer } from '../../test/support/scripted-dialogs';
import { createLogger } from '../../src/main/log';
import { DeploymentPinning, SettingsService, devnetDeploymentAt } from '../../src/main/settings';
import { createConfStore } from '../../src/main/store/conf-store';
import { openVault, type Clock, type Vault } from '../../src/main/vault';
import { appMarkets, devnetMarkets, type MarketEntry } from '../../src/main/core/session/market-directory';
import { resolve } from 'node:path';
import { createPracticeMode, workerThreadSpawner, type PracticeMode } from '../../src/main/core/practice';
import { TOKEN_HEADER, type HarnessClient, type HarnessEvent } from './client';
import {
  startUpdatesFixture,
  type UpdatesFixture,
  type UpdatesFixtureOptions,
} from '../../test/updates/updates-fixture';

const CHEAP_SCRYPT = { N: 2 ** 12, r: 8, p: 1 };

/** A running devnet the core should trade on (the built-in devnet deployment is pointed at it). */
export interface HarnessDevnet {
  readonly httpUrl: string;
  readonly marketWsUrl: string;
  readonly oracleWsUrl: string;
  readonly rpcUrl: string;
  readonly chainId: bigint;
  readonly markets: readonly MarketEntry[];
  /** Demo accounts offered by keys.devnetAccounts. */
  readonly accounts: readonly { label: string; address: string; privateKey: string }[];
}

export interface CoreServerOptions {
  readonly devnet?: HarnessDevnet;
  /**
   * An installed app on its first day: no built-in devnet entry and no deployment at all. The devnet
   * (if any) is only reachable the way a remote exchange is, by typing its addresses.
   */
  readonly firstRun?: boolean;
  /** Started with --offline (src/main/core/offline-mode.ts): the core opens no connection. */
  readonly launchedOffline?: boolean;
  /** The app's own updates: a release signed by a test key on a local update server (test/updates). */
  readonly updates?: UpdatesFixtureOptions & { readonly downloads?: 'automatic' | 'ask' };
  /** Practice mode as the installed app has it: the built out/main/practice-worker.js in a worker thread. */
  readonly practice?: boolean;
}

export interface CoreServer {
  readonly url: string;
  readonly token: string;
  readonly backend: () => 'keychain' | 'file';
  /**
   * The same routes without HTTP, for a caller in this process (the UI benchmarks): calls go to the
   * core and its events come out as it emits them, with no loopback hop between, as main's core is
   * called by Electron's IPC handler.
   */
  readonly direct: HarnessClient;
  close(): Promise<void>;
}

/** Real time plus an offset the test can advance (password throttling without waiting). */
function skewableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    setTimeout: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      handle.unref();
      return handle;
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    advance: (ms) => void (offset += ms),
  };
}

/** A forwarded press, as the core takes it; anything else is refused (the route is the harness's own). */
function userInput(body: Record<string, unknown>): UserInput {
  const type = body['type'];
  if (typeof type !== 'string') throw new Error('input without a type');
  switch (body['device']) {
    case 'key':
      return { device: 'key', type, repeat: body['repeat'] === true };
    case 'mouse':
      return { device: 'mouse', type };
    case 'touch':
      return { device: 'touch', type };
    default:
      throw new Error('input of no known device');
  }
}

interface Running {
  core: AppCore;
  stopOutbox: () => void;
  vault: Vault;
  updates: UpdatesFixture | null;
  practice: PracticeMode | null;
}

const PRACTICE_WORKER = resolve('out/main/practice-worker.js');

export async function startCoreServer(options: CoreServerOptions = {}): Promise<CoreServer> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-core-'));
  const service = `Exchange Terminal E2E ${randomBytes(6).toString('hex')}`;
  const token = randomBytes(32).toString('hex');
  const clock = skewableClock();
  const dialogs = createScriptedDialogs();
  const logger = createLogger({ dir: join(dir, 'logs') });
  // Open event streams (install-terminal.ts): each event is written to them as the core emits it,
  // as Electron's main sends it to the window (webContents.send), not when a poll next asks.
  const streams = new Set<ServerResponse>();
  /** In-process listeners (CoreServer.direct's event streams). */
  const listeners = new Set<(events: HarnessEvent[]) => void>();
  let seq = 0;

  /** Opens the core on the persisted store, vault file and keychain service: a restart reopens the same. */
  async function open(): Promise<Running> {
    const store = createConfStore({ cwd: dir });
    const settings = new SettingsService({ store, ...(options.firstRun ? { defaultDeployments: [] } : {}) });
    const devnet = options.firstRun ? undefined : options.devnet;
    if (devnet) {
      settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
    }
    const vault = await openVault({
      store,
      filePath: join(dir, 'keys.vault'),
      service,
      // A loaded build machine can keep the Secret Service busy past the app's 3 s probe; a test
      // core falling back to the file vault would start locked where the test expects the keychain.
      probeTimeoutMs: 20_000,
      clock,
      passwordScrypt: CHEAP_SCRYPT,
      keystoreScrypt: CHEAP_SCRYPT,
    });
    if (options.updates?.downloads) settings.updateSettings({ updateDownloads: options.updates.downloads });
    const updates = options.updates ? await startUpdatesFixture(options.updates) : null;
    const pinning = new DeploymentPinning(settings, () => clock.now());
    const practice = options.practice
      ? createPracticeMode({
          spawn: workerThreadSpawner(PRACTICE_WORKER),
          appDataDir: dir,
          settings,
          vault,
          logger,
          pinning,
        })
      : null;
    const core = createAppCore({
      vault,
      settings,
      ...(updates ? { updates: updates.service } : {}),
      store,
      pinning,
      ...(practice ? { practice } : {}),
      dialogs,
      logger,
      app: { version: '0.1.0', platform: process.platform },
      now: () => clock.now(),
      ...(options.launchedOffline ? { launchedOffline: true } : {}),
      ...(devnet
        ? {
            devnetAccounts: devnet.accounts.map((a) => ({
              label: a.label,
              address: a.address,
              privateKey: a.privateKey,
            })),
            trading: { markets: devnetMarkets(devnet.markets) },
          }
        : options.firstRun
          ? { trading: { markets: practice ? appMarkets(null) : devnetMarkets([]) } }
          : {}),
    });
    // In the order and pace main's forwardEvents sends them to the window (window-outbox.ts): an
    // order's answer at once, market data once per frame, latest per key.
    const stopOutbox = windowOutbox(core, (batch) => {
      const items = batch.map(([event, payload]) => ({ seq: ++seq, event, payload }));
      for (const listener of listeners) listener(items);
      if (streams.size === 0) return;
      const lines = items.map((item) => `${JSON.stringify(item)}\n`).join('');
      for (const stream of streams) stream.write(lines);
    });
    return { core, vault, updates, practice, stopOutbox };
  }

  let running = await open();

  // Bridge calls by method, for tests that check what a screen asks for (HarnessClient.calls).
  const calls: Record<string, number> = {};
  const invoke = (method: string, args: unknown) => {
    calls[method] = (calls[method] ?? 0) + 1;
    return running.core.invoke(method, args);
  };
  const routes: Record<string, (body: Record<string, unknown>, url: URL) => Promise<unknown>> = {
    '/invoke': (body) => invoke(String(body['method']), body['args']),
    '/control/calls': () => Promise.resolve({ ...calls }),
    '/control/dialogs': (body) => {
      dialogs.answer(...((body['answers'] as DialogAnswer[] | undefined) ?? []));
      const mode = body['unscripted'];
      if (mode === 'fail' || mode === 'no' || mode === 'never') dialogs.whenUnscripted(mode);
      const released = body['release'] === true ? dialogs.releaseWaiting() : 0;
      return Promise.resolve({
        shown: dialogs.shown,
        pending: dialogs.pending(),
        waiting: dialogs.waiting(),
        released,
      });
    },
    // Stands in for Electron's input events (install-terminal.ts forwards the page's trusted presses).
    '/control/input': (body) => {
      running.core.noteUserInput(userInput(body));
      return Promise.resolve(null);
    },
    // Stands in for main watching the window's page (install-terminal.ts tells a reload or navigation).
    '/control/page-gone': () => {
      running.core.windowGone();
      return Promise.resolve(null);
    },
    '/control/advance-clock': (body) => {
      clock.advance(Number(body['ms']));
      return Promise.resolve(null);
    },
    '/control/restart': async () => {
      await running.practice?.host.stop();
      running.stopOutbox();
      running.core.dispose();
      running.vault.dispose();
      await running.updates?.close();
      running = await open();
      return null;
    },
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number, value: unknown) => {
      response
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(value));
    };
    const { port } = server.address() as AddressInfo;
    if (request.headers.origin !== undefined || request.headers.host !== `127.0.0.1:${port}`)
      return reply(403, { error: 'origin refused' });
    if (request.headers[TOKEN_HEADER] !== token) return reply(401, { error: 'token required' });
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === '/events' && request.method === 'POST') {
      // Newline-delimited JSON, one event a line, from now until the client goes.
      request.resume();
      response.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
      response.flushHeaders();
      streams.add(response);
      // A blank line now and then, so a quiet core never trips the client's body timeout.
      const beat = setInterval(() => response.write('\n'), 30_000);
      response.on('close', () => {
        clearInterval(beat);
        streams.delete(response);
      });
      return;
    }
    const route = routes[url.pathname];
    if (!route || request.method !== 'POST') return reply(404, { error: 'no such route' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return reply(400, { error: 'bad json' });
      }
      route(body, url).then(
        (value) => reply(200, value),
        (error: unknown) => reply(500, { error: error instanceof Error ? error.message : 'failed' }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  const control = (path: string, body: Record<string, unknown>): Promise<never> =>
    routes[path]!(body, new URL(path, `http://127.0.0.1:${port}`)) as Promise<never>;
  const direct: HarnessClient = {
    invoke,
    eventStream(onEvents, signal) {
      listeners.add(onEvents);
      const ended = new Promise<void>((done) => {
        const end = () => {
          listeners.delete(onEvents);
          done();
        };
        if (signal.aborted) end();
        else signal.addEventListener('abort', end, { once: true });
      });
      return Promise.resolve({ ended });
    },
    dialogs: (...answers) => control('/control/dialogs', { answers }),
    dialogPolicy: (policy) => control('/control/dialogs', policy),
    noteInput: (input) => control('/control/input', input),
    pageGone: () => control('/control/page-gone', {}),
    advanceClock: (ms) => control('/control/advance-clock', { ms }),
    restartCore: () => control('/control/restart', {}),
    calls: () => control('/control/calls', {}),
  };

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    backend: () => running.vault.status().backend,
    direct,
    async close() {
      for (const stream of streams) stream.end();
      listeners.clear();
      await running.practice?.host.stop();
      running.stopOutbox();
      running.core.dispose();
      running.vault.dispose();
      await running.updates?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Leave nothing behind in the (throwaway) keychain or on disk.
      try {
        for (const c of await findCredentialsAsync(service)) {
          await new AsyncEntry(service, c.account, { linux: { store: 'secret-service' } }).deletePassword();
        }
      } catch {
        /* no keychain, nothing stored */
      }
      // A core failure the window only saw as "failed while doing this" is told here, with its stack,
      // before the log goes with the folder.
      try {
        for (const line of readFileSync(join(dir, 'logs', 'main.log'), 'utf8').split('\n')) {
          if (line.includes('"level":"error"')) console.error(`[core log] ${line}`);
        }
      } catch {
        /* no log written */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
