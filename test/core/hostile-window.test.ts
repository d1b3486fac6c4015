// The hostile window: this file plays an attacker who controls the window's script and nothing else.
// It calls the bridge through the real dispatch (the IPC handlers main registers for the window, as
// the window's own main frame), on a real devnet, with main's dialogs answering "no" or never
// answering at all, and checks that nothing the user did not agree to happened:
//   - no withdrawal or agent approval, and no signature under any domain but the pinned one, reaches
//     the exchange (every request to it passes a recording proxy);
//   - no transaction from any key of the vault (nonces, balances and allowances on the chain);
//   - no change to deployments, pins, confirmations, auto-lock or the app password, and install-on-quit
//     never turned on (with it off, quitting the app, which a window can bring about by closing
//     itself, installs no downloaded update);
//   - no request to any host main was not configured with (a loopback sink whose URLs the attacker
//     passes everywhere it can);
//   - every refusal is a code and a sentence.
// The method list comes from the bridge table and the capability table, and arguments are generated
// from each method's own schema, so a method added later is attacked without anyone listing it.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { DevnetHandle } from '../../src/devnet/devnet';
import type { IpcMainInvokeEvent } from 'electron';
import { buildSignedWithdrawal, keySigner } from '../../src/client';
import { registerCore } from '../../src/main/electron/bridge-ipc';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { devnetDeploymentAt, type Settings } from '../../src/main/settings';
import {
  bridgeMethodNames,
  bridgeMethods,
  invokeChannel,
  type BridgeMethod,
  type BridgeOutcome,
  type SignedPayload,
} from '../../src/shared/bridge';
import {
  CAPABILITY_CLASSES,
  capabilityOf,
  methodCapabilities,
  needsMainDialog,
} from '../../src/shared/bridge/capabilities';
import {
  REQUEST_KINDS,
  hashAction,
  makeExchangeDomain,
  parseSignedRequest,
  type Address,
  type ExchangeDomain,
  type PrimaryType,
  type RequestKind,
} from '../../src/shared/protocol';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import { hostileValues } from './hostile-args';
import { loosened } from '../../src/main/core/risk/limits';
import { startUpdatesFixture, type UpdatesFixture } from '../updates/updates-fixture';
import { practiceWorkerDouble } from '../practice/worker-double';
import { PRACTICE_DEPLOYMENT_ID } from '../../src/shared/practice';

const wait = { timeout: 40_000, interval: 200 };
const ATTACKER = Wallet.createRandom();
/** The practice exchange's worker, as a double: the attacker must never get it started. */
const practiceWorker = practiceWorkerDouble({ bots: 0 });

interface Recorded {
  method: string;
  path: string;
  body: string;
}

interface Recorder {
  url: string;
  port: number;
  records: Recorded[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function collect(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** A host main was never configured with: it records whatever reaches it and answers 404. */
async function startSink(): Promise<Recorder> {
  const records: Recorded[] = [];
  const server = createServer((req, res) => {
    void collect(req).then((body) => {
      records.push({ method: req.method ?? '', path: req.url ?? '', body: body.toString('utf8') });
      res.writeHead(404).end();
    });
  });
  server.on('upgrade', (req, socket) => {
    records.push({ method: 'UPGRADE', path: req.url ?? '', body: '' });
    socket.destroy();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, records, close: () => closeServer(server) };
}

/** The configured exchange, behind a proxy that records every request main sends it. */
async function startRecordingProxy(target: string): Promise<Recorder> {
  const records: Recorded[] = [];
  const to = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void collect(req).then((body) => {
      records.push({ method: req.method ?? '', path: req.url ?? '', body: body.toString('utf8') });
      const upstream = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, records, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
let exchange: Recorder;
let sink: Recorder;
/** A signed release, downloaded and ready to install: what a restart to update would put in place. */
let updates: UpdatesFixture;
let provider: JsonRpcProvider;
let alice: string;
let bob: string;
let agent: string;
let market: { assetId: string; epoch: string };
let pinned: Readonly<ExchangeDomain>;
/** A withdrawal the user signed offline (and confirmed): the attacker tries to send it. */
let usersWithdrawal: SignedPayload;
/** A withdrawal of the attacker's own account, signed by its own key under the pinned domain. */
let attackersWithdrawal: SignedPayload;

/** main's IPC handlers as registered for the window (src/main/electron/bridge-ipc.ts), called as the window's main frame. */
const channels = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
const windowFrame = { url: 'app://renderer/index.html' };
const fromTheWindow = { senderFrame: windowFrame, sender: { mainFrame: windowFrame } } as unknown as IpcMainInvokeEvent;
function invoke(method: string, ...args: unknown[]): Promise<BridgeOutcome> {
  const handler = channels.get(invokeChannel(method as BridgeMethod));
  if (!handler) throw new Error(`main registered no IPC handler for ${method}`);
  return handler(fromTheWindow, args) as Promise<BridgeOutcome>;
}
async function ok<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
  const outcome = await invoke(method, ...args);
  if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value as T;
}

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address) view returns (uint256)',
];

interface Snapshot {
  /** Updates the engine was told to install: only main's restart dialog answered yes may do that. */
  installs: number;
  /** Whether quitting the app would install the ready update: only main's dialog turns this on. */
  installOnQuit: boolean;
  protections: string;
  ordersConfirmed: boolean;
  riskLimits: Settings['riskLimits'];
  autoLockMinutes: number;
  keys: string[];
  chain: string;
  hasPassword: boolean;
}

/**
 * What the attacker must not be able to change at all. Market lists of a deployment are not trust
 * (they name what to show); order confirmation and auto-lock may get stricter, never weaker (checked apart).
 */
function protections(s: Settings): string {
  return JSON.stringify({
    deployments: s.deployments.map(({ markets: _markets, ...d }) => d),
    selectedDeploymentId: s.selectedDeploymentId,
    pins: s.pins,
    pendingPinChanges: s.pendingPinChanges,
    confirmations: { ...s.confirmations, orders: null },
  });
}

/** Auto-lock b is at least as strict as a: on when a was on, and no longer. */
function atLeastAsStrict(a: number, b: number): boolean {
  return a === 0 ? true : b > 0 && b <= a;
}

async function chainState(): Promise<string> {
  const token = new Contract(devnet.contracts.settlementToken, ERC20, provider);
  const rows: string[] = [];
  for (const who of [alice, bob, agent]) {
    rows.push(
      `${who}: nonce ${await provider.getTransactionCount(who)}, tokens ${(await token.getFunction('balanceOf').staticCall(who)) as bigint}, ` +
        `allowance ledger ${(await token.getFunction('allowance').staticCall(who, devnet.contracts.depositLedger)) as bigint}, ` +
        `allowance permit2 ${(await token.getFunction('allowance').staticCall(who, devnet.contracts.permit2)) as bigint}`,
    );
  }
  return rows.join('\n');
}

async function snapshot(): Promise<Snapshot> {
  const settings = t.settings.getSettings();
  return {
    installs: updates.installs(),
    installOnQuit: settings.installUpdatesOnQuit,
    protections: protections(settings),
    ordersConfirmed: settings.confirmations.orders,
    riskLimits: settings.riskLimits,
    autoLockMinutes: settings.autoLockMinutes,
    keys: (await ok<{ address: string }[]>('keys.list')).map((k) => k.address.toLowerCase()),
    chain: await chainState(),
    hasPassword: (await ok<{ hasPassword: boolean }>('lock.status')).hasPassword,
  };
}

/** Signed requests that reached the exchange and must not have: withdrawals, approvals, any foreign domain. */
function forbiddenAtExchange(records: readonly Recorded[]): string[] {
  const byPath = new Map<string, RequestKind>(
    Object.entries(REQUEST_KINDS).map(([kind, spec]) => [spec.path, kind as RequestKind]),
  );
  const found: string[] = [];
  for (const r of records) {
    if (r.method !== 'POST') continue;
    const path = r.path.split('?')[0]!;
    if (path === REQUEST_KINDS.withdrawals.path || path === REQUEST_KINDS.agentsApprove.path) {
      found.push(`${path} reached the exchange`);
      continue;
    }
    const kind = byPath.get(path);
    if (!kind) continue;
    let request: Record<string, unknown>;
    try {
      request = parseSignedRequest(kind, JSON.parse(r.body)) as unknown as Record<string, unknown>;
    } catch {
      found.push(`${path}: a body main built that does not parse`);
      continue;
    }
    const pairs: [PrimaryType, string, string][] =
      kind === 'cancelReplace'
        ? [
            ['CancelReplaceOrder', 'cancelReplace', 'orderHash'],
            ['FillOrder', 'replacement', 'replacementOrderHash'],
          ]
        : [
            [
              REQUEST_KINDS[kind].primaryType,
              Object.keys(request).find((k) => typeof request[k] === 'object')!,
              'orderHash',
            ],
          ];
    if (request['chainId'] !== pinned.chainId) found.push(`${path}: chain ${String(request['chainId'])}`);
    for (const [type, key, hashKey] of pairs) {
      const digest = hashAction(type, request[key] as never, pinned);
      if (digest.toLowerCase() !== String(request[hashKey]).toLowerCase())
        found.push(`${path}: signed under a domain other than the pinned one`);
    }
  }
  return found;
}

/** Everything that must still hold after an attack (the baseline is taken before it). */
async function expectNothingHappened(before: Snapshot, since: number, what: string): Promise<void> {
  const after = await snapshot();
  expect(after.installs, `${what}: an update was installed`).toBe(before.installs);
  expect(!after.installOnQuit || before.installOnQuit, `${what}: install-on-quit turned on`).toBe(true);
  expect(after.protections, `${what}: protections changed`).toBe(before.protections);
  expect(!before.ordersConfirmed || after.ordersConfirmed, `${what}: order confirmation turned off`).toBe(true);
  expect(
    atLeastAsStrict(before.autoLockMinutes, after.autoLockMinutes),
    `${what}: auto-lock ${before.autoLockMinutes} → ${after.autoLockMinutes}`,
  ).toBe(true);
  expect(after.hasPassword, `${what}: password state changed`).toBe(before.hasPassword);
  expect(loosened(before.riskLimits, after.riskLimits), `${what}: a risk limit was loosened`).toEqual([]);
  expect(
    before.keys.filter((k) => !after.keys.includes(k)),
    `${what}: a key disappeared`,
  ).toEqual([]);
  expect(after.chain, `${what}: something happened on chain`).toBe(before.chain);
  expect(forbiddenAtExchange(exchange.records.slice(since)), what).toEqual([]);
  expect(sink.records, `${what}: main reached a host it was not configured with`).toEqual([]);
}

/** A refusal is a dotted code and a sentence; a "no" in main's dialog is { confirmed: false }. */
function expectRefusedOrDeclined(outcome: BridgeOutcome, what: string): void {
  if (outcome.ok) {
    expect(outcome.value, `${what} succeeded instead of being refused`).toEqual({ confirmed: false });
  } else {
    expect(outcome.error.code, what).toMatch(/^[a-z][a-z0-9_]*\.[a-z0-9_.]+$/);
    // A sentence, which may end with the exchange's own words in quotes (exchange-words.ts).
    expect(outcome.error.message, what).toMatch(/^[A-Z0-9"“].{15,}[.)]"?$/s);
  }
}

/** As the user (not the attacker): put back what a read or trade method, or a stricter protection, may change legitimately. */
async function userRestores(baseline?: Snapshot): Promise<void> {
  t.dialogs.releaseWaiting();
  if (baseline) {
    t.settings.updateSettings({
      confirmations: { ...t.settings.getSettings().confirmations, orders: baseline.ordersConfirmed },
      autoLockMinutes: baseline.autoLockMinutes,
      // The window may turn offline mode on (stricter, no dialog); the user turns it off again.
      offlineMode: false,
      // The window may tighten risk limits (no dialog); the user puts them back.
      riskLimits: baseline.riskLimits,
      // The window may turn install-on-quit off (stricter, no dialog); the user puts it back.
      installUpdatesOnQuit: baseline.installOnQuit,
    });
  }
  const status = await ok<{ locked: boolean }>('lock.status');
  if (status.locked) await ok('lock.unlock', TEST_PASSWORD);
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
}

beforeAll(async () => {
  temp = await startTempDevnet('hostile-window-', { bots: 0, demoAccounts: 3, blockTimeMs: 500 });
  devnet = temp.devnet;
  exchange = await startRecordingProxy(devnet.httpUrl);
  sink = await startSink();
  provider = new JsonRpcProvider(devnet.rpcUrl, undefined, { staticNetwork: true });
  const entries = devnet.markets.markets.map((m) => ({ assetId: m.assetId, symbol: m.symbol }));
  updates = await startUpdatesFixture();
  t = await createTestCore({
    trading: { markets: devnetMarkets(entries), pollMs: 250, healthMs: 1000, creditTimeoutMs: 30_000 },
    updates: updates.service,
    // Practice is there to be attacked: leaving the devnet for it takes main's dialog, which says no.
    practice: { spawn: practiceWorker.spawn },
  });
  // The attacker is the window itself: the sender check passes, as it does for the real page.
  registerCore(
    {
      handle: (channel, listener) => void channels.set(channel, listener),
      removeHandler: (channel) => void channels.delete(channel),
    },
    t.core,
    (sender) => sender?.isMainFrame === true,
  );
  // The user's own configuration, through main: the exchange is reached through the recording proxy.
  t.settings.updateSettings({ deployments: [devnetDeploymentAt({ ...devnet, httpUrl: exchange.url })] });
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  alice = (
    await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    })
  ).address;
  bob = (
    await ok<{ address: string }>('keys.importPrivateKey', { privateKey: devnet.accounts[1]!.privateKey, label: 'bob' })
  ).address;
  agent = (await ok<{ address: string }>('keys.create', { label: 'agent', role: 'agent' })).address;
  await devnet.exchange.credit(alice, 1_000_000_000n);
  await vi.waitFor(async () => {
    const c = await ok<{ pin: { kind: string } }>('app.connection');
    expect(['pinned', 'unconfirmed']).toContain(c.pin.kind);
  }, wait);
  if ((await ok<{ pin: { kind: string } }>('app.connection')).pin.kind === 'unconfirmed') {
    t.dialogs.answer({ kind: 'confirm', yes: true });
    await ok('deployments.acceptPin');
  }
  const pin = t.pinning.pinFor('devnet')!;
  pinned = makeExchangeDomain({
    chainId: BigInt(pin.chainId),
    verifyingContract: pin.verifyingContract as Address,
    name: pin.domainName,
  });
  await ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  const markets = await ok<{ assetId: string; epoch: string }[]>('markets.list');
  market = { assetId: markets[0]!.assetId, epoch: markets[0]!.epoch };
  // The user signs a withdrawal offline, and confirms it: it is the attacker's to try to send.
  t.dialogs.answer({ kind: 'confirm', yes: true });
  usersWithdrawal = (
    await ok<{ confirmed: true; value: SignedPayload }>('offline.sign', {
      signer: alice,
      action: { kind: 'withdrawal', amount: '5' },
    })
  ).value;
  const facts = usersWithdrawal.domain;
  const ledger = JSON.parse(JSON.stringify(usersWithdrawal.body)) as { withdrawal: { ledger: Address } };
  const signed = await buildSignedWithdrawal(
    { signer: keySigner(ATTACKER.privateKey as `0x${string}`), domain: pinned },
    { amount: '5', ledger: ledger.withdrawal.ledger, receiver: ATTACKER.address as Address },
  );
  attackersWithdrawal = { ...usersWithdrawal, domain: facts, body: signed.body };
  await vi.waitFor(
    async () => expect(await ok<{ state: string }>('updates.status')).toMatchObject({ state: 'ready' }),
    wait,
  );
  t.dialogs.whenUnscripted('no');
}, 120_000);

afterAll(async () => {
  t?.dialogs.releaseWaiting();
  await t?.practice?.host.stop();
  await practiceWorker.stopAll();
  t?.close();
  provider?.destroy();
  await sink?.close();
  await exchange?.close();
  await temp?.stop();
  await updates?.close();
});

describe('the capability table', () => {
  it('gives every bridge method one of the four classes, and names no method the bridge lacks', () => {
    const missing = bridgeMethodNames.filter((m) => !CAPABILITY_CLASSES.includes(capabilityOf(m)!));
    expect(missing, 'bridge methods without a capability class').toEqual([]);
    expect(
      Object.keys(methodCapabilities).filter((m) => !(bridgeMethodNames as readonly string[]).includes(m)),
    ).toEqual([]);
  });

  it('lets no argument name a signing domain, chain or contract, except where main checks it against the pin or asks the user', () => {
    // Configuring a deployment (its chain id is the user's, confirmed in main's dialog), and signed
    // envelopes whose domain is only ever compared with the pin, never signed under.
    const allowed: Partial<Record<BridgeMethod, string>> = {
      'deployments.add': 'the chain id the user configures, confirmed in main',
      'deployments.edit': 'the chain id the user configures, confirmed in main',
      'offline.describe': 'an envelope compared with the pin',
      'offline.submit': 'an envelope compared with the pin',
      'offline.saveFile': 'an envelope written to a file',
    };
    const named =
      /^(domain|domainName|verifyingContract|chainId|contract|contracts|ledger|spender|permit2|settlementToken|depositLedger)$/i;
    const keysOf = (schema: unknown, depth = 0): string[] => {
      if (depth > 8 || typeof schema !== 'object' || schema === null) return [];
      const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (!def) return [];
      const nested = ['innerType', 'in', 'out', 'element', 'valueType'].flatMap((k) => keysOf(def[k], depth + 1));
      const items = [
        ...((def['items'] as unknown[] | undefined) ?? []),
        ...((def['options'] as unknown[] | undefined) ?? []),
      ].flatMap((s) => keysOf(s, depth + 1));
      const shape = (def['shape'] as Record<string, unknown> | undefined) ?? {};
      return [...Object.keys(shape), ...Object.values(shape).flatMap((s) => keysOf(s, depth + 1)), ...nested, ...items];
    };
    const offenders = bridgeMethodNames
      .filter((m) => !allowed[m])
      .flatMap((m) =>
        keysOf(bridgeMethods[m].args)
          .filter((k) => named.test(k))
          .map((k) => `${m}: ${k}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe('a hostile window, dialogs answering no', () => {
  it('cannot withdraw, approve, sign foreign domains, move tokens or change trust through the attacks of the issue', async () => {
    // Order confirmation on, so that turning it off is an attack too.
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: true } });
    const sinkHttp = `${sink.url}/steal/${ATTACKER.address}`;
    const sinkWs = `ws://127.0.0.1:${sink.port}/steal`;
    const foreign = { chainId: '1', verifyingContract: ATTACKER.address, domainName: 'Service Exchange' };
    const order = { kind: 'order', ...market, side: 'buy', price: '1', size: '1', timeInForce: 'GTC' };
    const evilDeployment = {
      id: 'evil',
      name: 'Local devnet',
      httpUrl: sinkHttp,
      marketWsUrl: sinkWs,
      oracleWsUrl: sinkWs,
      rpcUrl: sinkHttp,
      chainId: '31337',
    };
    const draft = {
      name: 'Local devnet',
      httpUrl: sinkHttp,
      marketWsUrl: sinkWs,
      oracleWsUrl: sinkWs,
      rpcUrl: sinkHttp,
      chainId: '31337',
    };
    const attacks: [string, ...unknown[]][] = [
      ['offline.sign', { signer: alice, action: { kind: 'withdrawal', amount: '100', receiver: ATTACKER.address } }],
      ['offline.sign', { signer: alice, action: { kind: 'withdrawal', amount: '100' } }],
      ['offline.sign', { signer: alice, action: { kind: 'claim', ...market } }],
      ['offline.sign', { signer: alice, action: { kind: 'revokeAgent' } }],
      ['offline.sign', { signer: alice, domain: foreign, action: order }],
      ['offline.sign', { signer: alice, action: { ...order, chainId: '1' } }],
      ['offline.sign', { signer: alice, action: order }, foreign],
      ['offline.submit', usersWithdrawal],
      ['offline.submit', attackersWithdrawal],
      ['offline.submit', { ...usersWithdrawal, domain: foreign }],
      [
        'settings.update',
        { confirmations: { orders: false, withdrawals: true, agentApprovals: false, keyExport: false } },
      ],
      ['settings.update', { confirmations: { agentApprovals: false } }],
      ['settings.update', { autoLockMinutes: 0 }],
      ['settings.update', { autoLockMinutes: 1440 }],
      ['settings.update', { deployments: [...t.settings.getSettings().deployments, evilDeployment] }],
      ['settings.update', { deployments: [{ ...t.settings.getSettings().deployments[0]!, httpUrl: sinkHttp }] }],
      [
        'settings.update',
        { deployments: [...t.settings.getSettings().deployments, evilDeployment], selectedDeploymentId: 'evil' },
      ],
      ['settings.update', { selectedDeploymentId: 'evil' }],
      ['settings.update', { pins: { devnet: { ...foreign, pinnedAt: '2025-01-01T00:00:00.000Z' } } }],
      ['settings.update', { pendingPinChanges: {} }],
      ['settings.update', { version: 0 }],
      ['settings.update', { theme: 'light', confirmations: { orders: false } }],
      ['keys.importPrivateKey', { privateKey: ATTACKER.privateKey, label: 'alice (backup)' }],
      ['agents.approve', { agent: ATTACKER.address }],
      ['agents.approve', { agent }],
      ['funds.withdraw', { amount: '10', receiver: ATTACKER.address }],
      ['funds.withdraw', { amount: '10' }],
      ['funds.deposit', { amount: '5', mode: 'approve' }],
      ['funds.deposit', { amount: '5', mode: 'permit' }],
      ['funds.faucet'],
      [
        'keys.exportKeystore',
        { address: alice, password: 'attacker chose this', passwordAgain: 'attacker chose this' },
      ],
      ['keys.delete', { address: alice }],
      ['settings.setConfirmation', { name: 'orders', on: false }],
      ['settings.setConfirmation', { name: 'agentApprovals', on: false }],
      ['settings.setAutoLock', 0],
      ['settings.setAutoLock', 1440],
      [
        'lock.setPassword',
        { password: 'attacker password', passwordAgain: 'attacker password', currentPassword: TEST_PASSWORD },
      ],
      ['lock.setPassword', { password: 'attacker password', passwordAgain: 'attacker password' }],
      ['lock.removePassword', TEST_PASSWORD],
      ['deployments.add', draft],
      ['deployments.edit', { id: 'devnet', ...draft }],
      ['deployments.select', { id: 'evil' }],
      ['deployments.remove', { id: 'devnet' }],
      ['deployments.acceptPin'],
      ['orders.place', { ...market, side: 'buy', price: '1', size: '1', timeInForce: 'GTC', signAs: 'master' }],
      ['updates.restart'],
      ['updates.restart', { version: '9.9.9', url: sinkHttp }],
      ['settings.update', { installUpdatesOnQuit: true }],
      ['settings.setInstallUpdatesOnQuit', true],
      // Practice: entering it leaves the devnet (main's dialog); play money and starting over only in practice.
      ['practice.start'],
      ['practice.addFunds'],
      ['practice.reset'],
    ];
    const before = await snapshot();
    const since = exchange.records.length;
    for (const [method, ...args] of attacks) {
      const outcome = await invoke(method, ...args);
      const what = `${method}(${JSON.stringify(args).slice(0, 160)})`;
      if (method === 'keys.importPrivateKey') expect(outcome.ok, what).toBe(true);
      else expectRefusedOrDeclined(outcome, what);
      await expectNothingHappened(before, since, what);
      await userRestores();
    }
    // Every guarded attack that got as far as main's dialog was shown to the user, with the facts.
    const confirms = t.dialogs.shown
      .filter((d) => d.kind === 'confirm')
      .map((d) => (d.kind === 'confirm' ? d.request : null)!);
    const withdrawal = confirms.find(
      (c) => c.title === 'Sign offline' && c.detail.includes(`Receiver: ${ATTACKER.address}`),
    );
    expect(withdrawal?.detail).toContain(`Verifying contract: ${pinned.verifyingContract}`);
    expect(withdrawal?.detail).toContain(`Chain id: ${pinned.chainId}`);
    expect(withdrawal?.detail).toMatch(/Deployment: “Local devnet” \(user text/);
    expect(confirms.find((c) => c.title === 'Approve agent')?.detail).toContain(`Agent: ${ATTACKER.address}`);
    expect(confirms.find((c) => c.title === 'Send a signed request')?.detail).toContain(
      'Action: Send a withdrawal signed earlier to the exchange',
    );
    expect(
      confirms.some(
        (c) => c.title === 'Deposit' && c.detail.includes(`Spender (Permit2): ${devnet.contracts.permit2}`),
      ),
    ).toBe(true);
    expect(confirms.some((c) => c.title === 'Turn off order confirmation')).toBe(true);
    expect(confirms.some((c) => c.title === 'Turn off auto-lock')).toBe(true);
    expect(confirms.some((c) => c.title === 'Change the app password')).toBe(true);
    // The restart to update reached main's dialog, with the release's version and signing key, and the no installed nothing.
    const restart = confirms.find((c) => c.title === 'Restart to update');
    expect(restart?.detail).toContain(`Signed by release key: ${updates.key.key.fingerprint}`);
    expect(restart?.message).toBe('Install version 0.2.0 and restart the app?');
    expect(updates.installs()).toBe(0);
    // Install-on-quit asked main's dialog, which said no: the window then closing itself (the last
    // window closing quits the app) installs nothing.
    expect(confirms.some((c) => c.title === 'Install updates when you quit')).toBe(true);
    expect(t.settings.getSettings().installUpdatesOnQuit).toBe(false);
    expect(updates.quit()).toBe(false);
    expect(updates.installs()).toBe(0);
    // Practice asked before leaving the devnet, and was never started.
    expect(confirms.find((c) => c.title === 'Switch to Practice')?.detail).toContain('Deployment: “Local devnet”');
    expect(practiceWorker.spawned).toEqual([]);
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  }, 180_000);

  it('cannot do it through any method of the bridge, with arguments generated from each schema', async () => {
    const hostile = {
      attacker: ATTACKER.address,
      urls: [
        `${sink.url}/x`,
        `ws://127.0.0.1:${sink.port}/x`,
        `https://127.0.0.1:${sink.port}/x`,
        `wss://127.0.0.1:${sink.port}/x`,
      ],
    };
    // Order confirmation on, so that every way of turning it off is tried (trading then meets main's dialog too).
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: true } });
    const before = await snapshot();
    const since = exchange.records.length;
    let tried = 0;
    for (const method of bridgeMethodNames) {
      const capability = capabilityOf(method);
      expect(capability, `${method} has no capability class`).toBeDefined();
      const argsList = hostileValues(bridgeMethods[method].args as z.ZodType, hostile) as unknown[][];
      for (const args of argsList) {
        const outcome = await invoke(method, ...args);
        tried++;
        const what = `${method}(${JSON.stringify(args).slice(0, 160)})`;
        // Success is fine as long as nothing above changed (a stricter auto-lock, a new key, the layout).
        if (!outcome.ok) expectRefusedOrDeclined(outcome, what);
        await expectNothingHappened(before, since, what);
        await userRestores(before);
      }
    }
    expect(tried).toBeGreaterThan(bridgeMethodNames.length);
    expect(practiceWorker.spawned).toEqual([]);
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
  }, 300_000);
});

describe('a hostile window, dialogs never answered', () => {
  it('leaves every guarded call waiting on its dialog while the rest of main answers, and nothing happens', async () => {
    t.dialogs.whenUnscripted('never');
    const attacks: [BridgeMethod, ...unknown[]][] = [
      ['offline.sign', { signer: alice, action: { kind: 'withdrawal', amount: '100', receiver: ATTACKER.address } }],
      ['offline.submit', usersWithdrawal],
      ['agents.approve', { agent }],
      ['funds.withdraw', { amount: '10', receiver: ATTACKER.address }],
      ['funds.deposit', { amount: '5', mode: 'permit' }],
      ['funds.faucet'],
      [
        'keys.exportKeystore',
        { address: alice, password: 'attacker chose this', passwordAgain: 'attacker chose this' },
      ],
      ['keys.delete', { address: alice }],
      ['settings.setAutoLock', 0],
      [
        'lock.setPassword',
        { password: 'attacker password', passwordAgain: 'attacker password', currentPassword: TEST_PASSWORD },
      ],
      ['updates.restart'],
      ['settings.setInstallUpdatesOnQuit', true],
      ['practice.start'],
    ];
    try {
      for (const [method, ...args] of attacks) {
        expect(needsMainDialog(capabilityOf(method)!)).toBe(true);
        const before = await snapshot();
        const since = exchange.records.length;
        let settled: BridgeOutcome | null = null;
        const pending = invoke(method, ...args).then((o) => (settled = o));
        await vi.waitFor(() => expect(t.dialogs.waiting()).toBe(1), wait);
        // The rest of main answers: reads, trading, and a second dangerous call is refused at once.
        expect((await invoke('app.info')).ok).toBe(true);
        expect((await invoke('account.get')).ok).toBe(true);
        expect(await invoke('orders.cancelAll', { ...market, signAs: 'master' })).toMatchObject({ ok: true });
        expect(await invoke('funds.withdraw', { amount: '1', receiver: ATTACKER.address })).toEqual({
          ok: false,
          error: {
            code: 'dialog.busy',
            message:
              'Another confirmation from the app is already open: answer it first. Nothing was done for this request.',
          },
        });
        expect(settled, `${method} finished without its dialog being answered`).toBeNull();
        await expectNothingHappened(before, since, `${method} while its dialog is open`);
        // The user finally closes the dialog: it counts as no.
        expect(t.dialogs.releaseWaiting()).toBe(1);
        expectRefusedOrDeclined(await pending, method);
        await expectNothingHappened(before, since, `${method} after its dialog was closed`);
        await userRestores();
      }
    } finally {
      t.dialogs.whenUnscripted('no');
    }
  }, 180_000);
});

describe('signing only under the pinned domain of the selected deployment', () => {
  it('refuses to sign anything offline while a pin change is pending, or when the pin is not on the configured chain', async () => {
    const order = { kind: 'order', ...market, side: 'buy', price: '1', size: '1', timeInForce: 'GTC' };
    const pin = t.pinning.pinFor('devnet')!;
    const observed = {
      chainId: pin.chainId,
      verifyingContract: ATTACKER.address,
      domainName: pin.domainName,
      ...(pin.spenders ? { spenders: pin.spenders } : {}),
    };
    t.pinning.checkPin('devnet', observed);
    try {
      expect(await invoke('offline.sign', { signer: alice, action: order })).toMatchObject({
        ok: false,
        error: { code: 'deployments.pin_changed' },
      });
      const accepted = await invoke('deployments.acceptPin');
      expectRefusedOrDeclined(accepted, 'deployments.acceptPin');
      expect(t.pinning.pinFor('devnet')?.verifyingContract).toBe(pin.verifyingContract);
    } finally {
      t.pinning.checkPin('devnet', {
        chainId: pin.chainId,
        verifyingContract: pin.verifyingContract,
        domainName: pin.domainName,
        ...(pin.spenders ? { spenders: pin.spenders } : {}),
      });
    }
    const s = t.settings.getSettings();
    t.settings.writePins({ ...s.pins, devnet: { ...pin, chainId: '1' } }, s.pendingPinChanges);
    try {
      const refused = await invoke('offline.sign', { signer: alice, action: order });
      expect(refused).toMatchObject({ ok: false, error: { code: 'deployments.chain_mismatch' } });
    } finally {
      const now = t.settings.getSettings();
      t.settings.writePins({ ...now.pins, devnet: pin }, now.pendingPinChanges);
    }
    const signed = await ok<{ confirmed: true; value: SignedPayload }>('offline.sign', {
      signer: alice,
      action: order,
    });
    expect(signed.value.domain).toEqual({
      chainId: pin.chainId,
      verifyingContract: pin.verifyingContract,
      domainName: pin.domainName,
    });
  });
});

describe('trading stays one keystroke with order confirmation off', () => {
  it('places, replaces, cancels, cancels all and claims with no dialog', async () => {
    // The user turned order confirmation off (through main's dialog: see the attacks above for the refusal).
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
    t.dialogs.whenUnscripted('fail');
    try {
      const shown = t.dialogs.shown.length;
      const live = (await ok<{ assetId: string; epoch: string; expiration: number }[]>('markets.list')).sort(
        (a, b) => b.expiration - a.expiration,
      )[0]!;
      const market = { assetId: live.assetId, epoch: live.epoch };
      const placed = await ok<{ orderId: string; status: string; reason?: string }>('orders.place', {
        ...market,
        side: 'buy',
        price: '2',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      });
      expect(placed).toMatchObject({ status: 'ACCEPTED' });
      const replaced = await ok<{ status: string; orderId: string | null }>('orders.replace', {
        ...market,
        orderId: placed.orderId,
        price: '3',
        size: '1',
        signAs: 'master',
      });
      expect(replaced.status).toBe('SUCCESS');
      const again = await ok<{ orderId: string }>('orders.place', {
        ...market,
        side: 'buy',
        price: '2',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      });
      expect(
        (await ok<{ status: string }>('orders.cancel', { ...market, orderId: again.orderId, signAs: 'master' })).status,
      ).toBe('CANCELLED');
      expect((await ok<{ status: string }>('orders.cancelAll', { ...market, signAs: 'master' })).status).toBe(
        'CANCELLED',
      );
      expect(await ok('claims.claimAll')).toEqual([]);
      expect(t.dialogs.shown.length).toBe(shown);
    } finally {
      t.dialogs.whenUnscripted('no');
    }
  }, 60_000);
});

describe('panic needs the person', () => {
  it('sends nothing when the window calls it alone, and goes once per press main saw', async () => {
    t.settings.updateSettings({ confirmations: { ...t.settings.getSettings().confirmations, orders: false } });
    const live = (await ok<{ assetId: string; epoch: string; expiration: number }[]>('markets.list')).sort(
      (a, b) => b.expiration - a.expiration,
    )[0]!;
    // The user made a kit for alice (main's dialog, yes) and has an order resting in its market.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const made = await ok<{ confirmed: true; value: { id: string } }>('kit.build', {
      signer: alice,
      assetIds: [live.assetId],
      epochs: 2,
      perEpoch: 2,
      revokeAgent: false,
    });
    const posts = (since: number) => exchange.records.slice(since).filter((r) => r.method === 'POST');
    try {
      await ok('orders.place', {
        assetId: live.assetId,
        epoch: live.epoch,
        side: 'buy',
        price: '2',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      });
      const since = exchange.records.length;
      const needsPerson = {
        ok: false,
        error: {
          code: 'kit.needs_person',
          message: 'Panic needs your click or key press: press the Panic button or its hotkey. Nothing was sent.',
        },
      };
      // The window alone, by kit or for all, as often as it likes; a mouse move or a key release is no press.
      for (const id of [null, made.value.id, null]) expect(await invoke('kit.panic', id)).toEqual(needsPerson);
      t.core.noteUserInput({ device: 'mouse', type: 'mouseMove' });
      t.core.noteUserInput({ device: 'key', type: 'keyUp', repeat: false });
      t.core.noteUserInput({ device: 'key', type: 'keyDown', repeat: true });
      expect(await invoke('kit.panic', null)).toEqual(needsPerson);
      expect(posts(since), 'panic without the person reached the exchange').toEqual([]);
      // The person clicks Panic: main saw the press, so this one call goes...
      t.core.noteUserInput({ device: 'mouse', type: 'mouseDown' });
      const [result] = await ok<{ outcomes: { result: string }[] }[]>('kit.panic', null);
      expect(result!.outcomes.map((o) => o.result)).toEqual(['sent']);
      const sent = posts(since);
      expect(sent.map((r) => r.path.split('?')[0])).toEqual([REQUEST_KINDS.cancels.path]);
      // ...and the same press, released, allows no second one.
      t.core.noteUserInput({ device: 'mouse', type: 'mouseUp' });
      expect(await invoke('kit.panic', null)).toEqual(needsPerson);
      expect(posts(since)).toEqual(sent);
    } finally {
      t.dialogs.answer({ kind: 'confirm', yes: true });
      await ok('kit.remove', made.value.id);
    }
  }, 60_000);
});

describe('the idle timer follows the person', () => {
  it('locks after the idle time however busy the window keeps the bridge, and real input postpones it', async () => {
    const s = t.settings.getSettings();
    t.settings.updateSettings({ autoLockMinutes: 1 });
    try {
      for (let i = 0; i < 6; i++) {
        t.clock.advance(10_000);
        await invoke('app.connection');
        await invoke('account.get');
      }
      expect(await ok('lock.status')).toMatchObject({ locked: true });
      await ok('lock.unlock', TEST_PASSWORD);
      t.clock.advance(50_000);
      t.core.noteUserInput();
      t.clock.advance(50_000);
      expect(await ok('lock.status')).toMatchObject({ locked: false });
    } finally {
      t.settings.updateSettings({ autoLockMinutes: s.autoLockMinutes });
      await userRestores();
    }
  });
});

// The dialog rule of practice.start (src/main/core/handlers/practice.ts): main asks first whenever a
// deployment other than practice is selected; it starts practice at once only when no deployment is
// selected (selectedDeploymentId '', a first run) or practice itself is. The window cannot get to either
// without the user: settings.update may not touch deployments or the selection, a draft carries no
// builtIn, deployments.select refuses practice, removing the selected one takes main's dialog.
describe('a hostile window and practice.start', () => {
  const selected = (): string => t.settings.getSettings().selectedDeploymentId;
  const confirmsShown = (): number => t.dialogs.shown.filter((d) => d.kind === 'confirm').length;

  it('gets main’s dialog while a real deployment is selected; starts without one only from no deployment or practice', async () => {
    expect(selected()).toBe('devnet');
    const practiceLike = {
      ...t.settings.getSettings().deployments[0]!,
      id: PRACTICE_DEPLOYMENT_ID,
      builtIn: 'practice',
    };
    // Ways to the no-dialog branch without the user: each refused, or declined in main's dialog.
    const detours: [string, ...unknown[]][] = [
      ['settings.update', { selectedDeploymentId: '' }],
      ['settings.update', { selectedDeploymentId: PRACTICE_DEPLOYMENT_ID }],
      ['settings.update', { deployments: [...t.settings.getSettings().deployments, practiceLike] }],
      [
        'deployments.add',
        {
          name: 'Practice',
          httpUrl: devnet.httpUrl,
          marketWsUrl: devnet.marketWsUrl,
          oracleWsUrl: devnet.oracleWsUrl,
          rpcUrl: devnet.rpcUrl,
          chainId: '31337',
          builtIn: 'practice',
        },
      ],
      ['deployments.select', { id: PRACTICE_DEPLOYMENT_ID }],
      ['deployments.remove', { id: 'devnet' }],
    ];
    for (const [method, ...args] of detours) {
      const before = await snapshot();
      const since = exchange.records.length;
      const what = `${method}(${JSON.stringify(args).slice(0, 160)})`;
      expectRefusedOrDeclined(await invoke(method, ...args), what);
      await expectNothingHappened(before, since, what);
      expect(selected(), what).toBe('devnet');
      await userRestores();
    }

    // The real deployment selected: main's dialog, which says no, and nothing changes.
    const before = await snapshot();
    const since = exchange.records.length;
    const shown = confirmsShown();
    expect(await invoke('practice.start')).toEqual({ ok: true, value: { confirmed: false } });
    expect(confirmsShown()).toBe(shown + 1);
    const asked = t.dialogs.shown.at(-1);
    expect(asked?.kind === 'confirm' && asked.request.title).toBe('Switch to Practice');
    expect(asked?.kind === 'confirm' && asked.request.detail).toContain('Deployment: “Local devnet”');
    await expectNothingHappened(before, since, 'practice.start from the devnet');
    expect(selected()).toBe('devnet');
    expect(practiceWorker.spawned).toEqual([]);

    // The user (not the window) selects no deployment, as on a first run: now practice.start asks nothing.
    t.settings.updateSettings({ selectedDeploymentId: '' });
    const first = await invoke('practice.start');
    expect(first).toMatchObject({ ok: true, value: { confirmed: true, value: { active: true, state: 'ready' } } });
    expect(confirmsShown()).toBe(shown + 1);
    expect(selected()).toBe(PRACTICE_DEPLOYMENT_ID);
    expect(practiceWorker.spawned).toHaveLength(1);
    // From practice itself: nothing real is left, so no dialog either (and the same worker).
    expect(await invoke('practice.start')).toMatchObject({ ok: true, value: { confirmed: true } });
    expect(confirmsShown()).toBe(shown + 1);
    expect(practiceWorker.spawned).toHaveLength(1);

    // Back on the devnet (the user's choice), having been in practice changes nothing: main asks again.
    t.settings.updateSettings({ selectedDeploymentId: 'devnet' });
    expect(await invoke('practice.start')).toEqual({ ok: true, value: { confirmed: false } });
    expect(confirmsShown()).toBe(shown + 2);
    expect(selected()).toBe('devnet');
    expect(practiceWorker.spawned).toHaveLength(1);
    await userRestores();
  }, 120_000);
});
