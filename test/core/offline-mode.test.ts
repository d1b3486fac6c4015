/**
 * Offline mode opens no connection: with a real devnet running (so any connection the core tried
 * would succeed) and selected, pinned and listed, the core is used through its bridge in offline
 * mode (keys, lock, settings, offline signing of every kind, then every bridge method with
 * generated arguments) while every way node opens a socket or resolves a name is watched. Zero
 * attempts. Controls: the same watcher records the connections of a core that is not offline, of
 * the devnet probe main runs at start, and of a core whose offline mode the user turns off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { parseDevnetAccounts, type DevnetAccountEntry } from '../../src/main/core/devnet/devnet-accounts';
import {
  attestedBy,
  devnetAtStart,
  parseDevnetFile,
  type RunningDevnet,
} from '../../src/main/core/devnet/devnet-deployment';
import { needsNetwork } from '../../src/main/core/offline-mode';
import { appMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { SettingsService } from '../../src/main/settings';
import { createMemoryStore } from '../../src/main/store/key-value-store';
import { bridgeMethodNames, bridgeMethods } from '../../src/shared/bridge';
import { hostileValues } from './hostile-args';
import { formatAttempts, watchSockets, type SocketWatch } from './socket-watch';
import { startUpdatesFixture, type UpdatesFixture } from '../updates/updates-fixture';

// The ws package's constructor, watched directly (its connects also pass the net/http watchers).
const wsConstructed = vi.hoisted(() => ({ hook: null as ((args: unknown[]) => void) | null }));
vi.mock('ws', async (importOriginal) => {
  const original = (await importOriginal<{ default: new (...a: unknown[]) => object }>()).default;
  const Watched = new Proxy(original, {
    construct(target, args, newTarget) {
      wsConstructed.hook?.(args);
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
  return { default: Watched, WebSocket: Watched };
});

const HARDHAT_PHRASE = 'test test test test test test test test test test test junk';
const root = join(import.meta.dirname, '..', '..');

interface DevnetChild {
  readonly child: ChildProcess;
  readonly dir: string;
  readonly devnetFile: string;
  readonly running: RunningDevnet;
  readonly accounts: DevnetAccountEntry[];
}

/** A real devnet in a child process, so the only sockets of this process are the core's. */
async function startDevnetChild(): Promise<DevnetChild> {
  const dir = mkdtempSync(join(tmpdir(), 'offline-mode-devnet-'));
  const args = [join(root, 'src/devnet/cli.ts'), '--fresh', '--data-dir', dir, '--bots', '0', '--port', '0'];
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [...args, '--rpc-port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ devnetFile: string }>((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('DEVNET READY '));
      if (line) resolve(JSON.parse(line.slice('DEVNET READY '.length)) as { devnetFile: string });
    });
    child.on('exit', (code) => reject(new Error(`the devnet exited (code ${code}) before it was ready`)));
  });
  child.stdout.resume();
  const text = readFileSync(ready.devnetFile, 'utf8');
  const running = parseDevnetFile(text);
  if (!running) throw new Error('the devnet wrote a devnet.json this app cannot read');
  return { child, dir, devnetFile: ready.devnetFile, running, accounts: parseDevnetAccounts(text).accounts };
}

let devnet: DevnetChild;
let watch: SocketWatch;

beforeAll(async () => {
  devnet = await startDevnetChild();
  watch = watchSockets();
  wsConstructed.hook = (args) => watch.attempts.push({ via: 'ws.WebSocket', target: String(args[0]), stack: '' });
}, 120_000);

afterAll(async () => {
  wsConstructed.hook = null;
  watch?.stop();
  if (devnet) {
    const exited = new Promise((resolve) => devnet.child.once('exit', resolve));
    devnet.child.kill('SIGTERM');
    await exited;
    rmSync(devnet.dir, { recursive: true, force: true });
  }
});

/**
 * The app's updater with a signed newer release on a local update server, checked at once and
 * downloaded by the real electron-updater: any socket it opened would be seen.
 */
function updater(): Promise<UpdatesFixture> {
  return startUpdatesFixture({ engine: 'electron-updater' });
}

/** A core with the running devnet configured, selected, pinned and its markets listed. */
function devnetCore(offline: { launchFlag?: boolean; setting?: boolean }, updates: UpdatesFixture): Promise<TestCore> {
  const { running, devnetFile, accounts } = devnet;
  return createTestCore({
    updates: updates.service,
    defaultDeployments: [running.deployment],
    devnetAccounts: accounts,
    trading: { markets: appMarkets(devnetFile), attestedFacts: attestedBy(running), pollMs: 250, healthMs: 1000 },
    ...(offline.launchFlag ? { launchedOffline: true } : {}),
    beforeCore: (settings, pinning) => {
      if (offline.setting) settings.updateSettings({ offlineMode: true });
      pinning.acceptPin(running.deployment.id, running.facts);
    },
  });
}

function calls(t: TestCore) {
  const ok = async <T = unknown>(method: string, ...args: unknown[]): Promise<T> => {
    const outcome = await t.core.invoke(method, args);
    if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${outcome.error.message}`);
    return outcome.value as T;
  };
  const err = async (method: string, ...args: unknown[]): Promise<{ code: string; message: string }> => {
    const outcome = await t.core.invoke(method, args);
    if (outcome.ok) throw new Error(`${method} unexpectedly succeeded`);
    return outcome.error;
  };
  const yes = (): void => t.dialogs.answer({ kind: 'confirm', yes: true });
  return { ok, err, yes };
}

/** Everything offline mode promises still works, through the bridge. */
async function useKeysLockSettingsAndSigning(t: TestCore): Promise<void> {
  const { ok, err, yes } = calls(t);
  const [first, second] = devnet.accounts;
  expect(await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD })).toMatchObject({
    locked: false,
  });
  const created = await ok<{ address: string }>('keys.create', { label: 'Fresh' });
  const imported = await ok<{ address: string }>('keys.importPrivateKey', { privateKey: first!.privateKey });
  await ok('keys.importMnemonic', { phrase: HARDHAT_PHRASE, accountIndex: 5, label: 'From phrase' });
  await ok('keys.useDevnetAccount', { address: second!.address });
  await ok('keys.rename', { address: imported.address, label: 'Signer' });
  const keystore = join(t.dir, 'fresh.json');
  yes();
  t.dialogs.answer({ kind: 'saveFile', path: keystore });
  expect(
    await ok('keys.exportKeystore', {
      address: created.address,
      password: 'export pass',
      passwordAgain: 'export pass',
    }),
  ).toMatchObject({ confirmed: true });
  yes();
  expect(await ok('keys.delete', { address: created.address })).toEqual({ confirmed: true, value: null });
  const back = await ok<{ address: string }>('keys.importKeystore', {
    json: readFileSync(keystore, 'utf8'),
    password: 'export pass',
  });
  expect(back.address).toBe(created.address);
  expect(await ok<unknown[]>('keys.list')).toHaveLength(4);
  await ok('keys.devnetAccounts');

  await ok('lock.lock');
  expect(await ok('lock.status')).toMatchObject({ locked: true });
  expect(await ok('lock.unlock', TEST_PASSWORD)).toMatchObject({ locked: false });

  await ok('settings.update', { theme: 'light' });
  yes();
  expect(await ok('settings.setConfirmation', { name: 'orders', on: false })).toMatchObject({ confirmed: true });
  yes();
  expect(await ok('settings.setAutoLock', 0)).toMatchObject({ confirmed: true });
  await ok('settings.get');

  // Offline signing of every kind, under the pinned domain; each payload described and saved as a file.
  const market = { assetId: '1', epoch: '1' };
  // The account ledger a withdrawal names comes from a connected session: offline, a sentence says so.
  expect(
    await err('offline.sign', { signer: imported.address, action: { kind: 'withdrawal', amount: '5' } }),
  ).toMatchObject({ code: 'offline.no_ledger' });
  const actions = [
    { kind: 'order', ...market, side: 'buy', price: '40', size: '2', timeInForce: 'GTC' },
    { kind: 'cancelAll', ...market },
    { kind: 'claim', ...market },
    { kind: 'revokeAgent' },
  ] as const;
  for (const action of actions) {
    // Cancels sign at once; the rest after main's dialog (an order's is the order gate's: offline it
    // cannot read the account, so it asks whatever the confirmation setting says).
    if (action.kind !== 'cancelAll') yes();
    const signed = (await ok<{ confirmed: true; value: unknown }>('offline.sign', { signer: imported.address, action }))
      .value;
    expect(signed).toMatchObject({ domain: { verifyingContract: devnet.running.facts.verifyingContract } });
    await ok('offline.describe', signed);
    t.dialogs.answer({ kind: 'saveFile', path: join(t.dir, `${action.kind}.json`) });
    await ok('offline.saveFile', signed);
    t.dialogs.answer({ kind: 'openFile', content: readFileSync(join(t.dir, `${action.kind}.json`), 'utf8') });
    await ok('offline.openFile');
    // Submitting needs the exchange: refused with the sentence, nothing sent.
    const refused = await err('offline.submit', signed);
    expect(refused.code).toBe('offline.on');
    expect(refused.message).toMatch(/^Offline mode is on: /);
  }
  expect(t.dialogs.pending()).toBe(0);
}

/** Every bridge method, each with every argument variant the hostile-window test generates; URLs name the devnet. */
async function callEveryMethod(t: TestCore): Promise<number> {
  const { running } = devnet;
  const hostile = {
    attacker: devnet.accounts[0]!.address,
    urls: [running.deployment.httpUrl, running.deployment.marketWsUrl, running.deployment.rpcUrl],
  };
  t.dialogs.whenUnscripted('no');
  let tried = 0;
  for (const method of bridgeMethodNames) {
    for (const args of hostileValues(bridgeMethods[method].args as z.ZodType, hostile) as unknown[][]) {
      const outcome = await t.core.invoke(method, args);
      tried++;
      if (needsNetwork(method)) {
        expect(outcome.ok, method).toBe(false);
        if (!outcome.ok) expect(outcome.error.message, method).toMatch(/^Offline mode is on: /);
      }
    }
  }
  return tried;
}

describe('offline mode', () => {
  it('opens no socket and resolves no name while the app is used, launched with --offline', async () => {
    // The local update server listens first: its own listening is not the app's doing.
    const updates = await updater();
    watch.clear();
    const settings = new SettingsService({ store: createMemoryStore(), defaultDeployments: [] });
    // What main does at start: offline, the devnet is neither probed nor taken out of the settings.
    expect(await devnetAtStart(settings, devnet.devnetFile, true)).toBeNull();
    const t = await devnetCore({ launchFlag: true }, updates);
    try {
      const { ok, err } = calls(t);
      expect(await ok('app.connection')).toMatchObject({ offline: 'launch-flag', deploymentId: 'devnet' });
      // The updater checks nothing, and downloading is refused with the offline sentence.
      expect(await ok('updates.status')).toMatchObject({ state: 'offline' });
      expect(await err('updates.download')).toMatchObject({ code: 'offline.on' });
      await useKeysLockSettingsAndSigning(t);
      // The launch flag wins over the window.
      expect(await err('settings.setOfflineMode', false)).toMatchObject({ code: 'offline.launch_flag' });
      expect(await ok('app.connection')).toMatchObject({ offline: 'launch-flag' });
      expect(await callEveryMethod(t)).toBeGreaterThan(bridgeMethodNames.length);
      expect(await ok('updates.status')).toMatchObject({ state: 'offline' });
    } finally {
      t.close();
      await updates.close();
    }
    expect(watch.attempts, formatAttempts(watch.attempts)).toEqual([]);
    expect(updates.server.requests).toEqual([]);
  }, 120_000);

  it('opens no socket while the setting is on, and connects only after main asks and the user agrees', async () => {
    const updates = await updater();
    watch.clear();
    const t = await devnetCore({ setting: true }, updates);
    try {
      const { ok, yes } = calls(t);
      expect(await ok('app.connection')).toMatchObject({ offline: 'setting' });
      expect(await ok('updates.status')).toMatchObject({ state: 'offline' });
      await useKeysLockSettingsAndSigning(t);
      // settings.update cannot turn it off; the user saying no in main's dialog leaves it on.
      expect((await t.core.invoke('settings.update', [{ offlineMode: false }])).ok).toBe(false);
      t.dialogs.answer({ kind: 'confirm', yes: false });
      expect(await ok('settings.setOfflineMode', false)).toEqual({ confirmed: false });
      expect(t.dialogs.shown.at(-1)).toMatchObject({ kind: 'confirm', request: { title: 'Turn off offline mode' } });
      expect(await ok('app.connection')).toMatchObject({ offline: 'setting' });
      expect(watch.attempts, formatAttempts(watch.attempts)).toEqual([]);
      expect(updates.server.requests).toEqual([]);

      // Control: once the user agrees, the session connects and the watcher sees it, the updater's check too.
      yes();
      expect(await ok('settings.setOfflineMode', false)).toMatchObject({ confirmed: true });
      expect(await ok('app.connection')).toMatchObject({ offline: 'off' });
      await ok('markets.list');
      expect(watch.attempts.length).toBeGreaterThan(0);
      await vi.waitFor(() => expect(updates.server.requests.length).toBeGreaterThan(0), { timeout: 20_000 });
      expect(watch.attempts.some((a) => a.target.includes(String(updates.server.port)))).toBe(true);
      // Turning it on again needs no dialog, and the session stops.
      const shown = t.dialogs.shown.length;
      expect(await ok('settings.setOfflineMode', true)).toMatchObject({ confirmed: true });
      expect(t.dialogs.shown).toHaveLength(shown);
      expect((await t.core.invoke('markets.list', [])).ok).toBe(false);
    } finally {
      t.close();
      await updates.close();
    }
  }, 120_000);

  it('control: the same watcher records what a core that is not offline opens, and the start-up probe', async () => {
    watch.clear();
    const settings = new SettingsService({ store: createMemoryStore(), defaultDeployments: [] });
    expect(await devnetAtStart(settings, devnet.devnetFile, false)).not.toBeNull();
    expect(watch.attempts.some((a) => a.via === 'fetch')).toBe(true);
    watch.clear();
    const updates = await updater();
    const t = await devnetCore({}, updates);
    try {
      await calls(t).ok('markets.list');
      const vias = new Set(watch.attempts.map((a) => a.via));
      expect(vias.has('net.Socket.connect')).toBe(true);
      expect(vias.has('ws.WebSocket')).toBe(true);
      // The updater checks at start and downloads the signed release: through the sockets watched here.
      await vi.waitFor(async () => expect(await calls(t).ok('updates.status')).toMatchObject({ state: 'ready' }), {
        timeout: 20_000,
      });
      const toUpdates = watch.attempts.filter((a) => a.target.includes(String(updates.server.port)));
      expect(toUpdates.map((a) => a.via)).toEqual(expect.arrayContaining(['http.request', 'net.Socket.connect']));
      expect(updates.server.requests.some((p) => p.endsWith('.AppImage'))).toBe(true);
    } finally {
      t.close();
      await updates.close();
    }
  }, 120_000);
});
