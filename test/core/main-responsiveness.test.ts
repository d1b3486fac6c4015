// Main stays responsive to a hostile window (issue 19, item 4). The window runs in a thread of its own
// (hostile-renderer.ts: its script and the real preload, as Electron's renderer process), and calls main
// through main's real IPC handlers (src/main/electron/bridge-ipc.ts) over a structured-clone channel.
// For each hostile call main's event-loop delay is measured with monitorEventLoopDelay (10 ms
// resolution) from before the call until its answer: it must stay under 100 ms (a stall would hold
// every other call, timers, auto-lock and dialogs), and every refusal must be a code and a sentence.
// On a loaded machine the OS may leave main's thread waiting for a CPU between two ticks of its loop;
// that time (Linux reports it per thread in /proc/self/task/<tid>/schedstat) is the machine's, not
// main's work. So a second 10 ms timer takes each gap between ticks apart, and a delay over 100 ms
// passes only when, in every gap, what is left after the CPU wait is under 100 ms. Main's own time
// (its code, blocking I/O) is never taken off; where the OS reports no wait, nothing is.
// Keystores that are costly but as real wallets write them are decrypted on libuv's threadpool, so
// they take their second or two without holding the loop; an emergency kit's 2,001 signatures are
// checked on a worker thread (src/main/core/airgap/kit-checks.ts), after its pin.
import { readFileSync } from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IpcMainInvokeEvent } from 'electron';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCore } from '../../src/main/electron/bridge-ipc';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import type { BridgeOutcome, KitView } from '../../src/shared/bridge';
import { KIT_FORMAT, buildEmergencyKit, keySigner, payloadToFileText } from '../../src/client';
import { DEFAULT_DOMAIN_NAME, DigestSigner, makeExchangeDomain, type Address } from '../../src/shared/protocol';
import type { Attack } from './hostile-renderer';

/** The longest main's event loop may be held while the window attacks. */
const STALL_MS = 100;
const RESOLUTION_MS = 10;

const KEYSTORE_PASSWORD = 'keystore-password-1';
const wallet = Wallet.createRandom();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let t: TestCore;
let worker: Worker;
/** Keystores as the window would hand them to main, built before any measurement. */
let keystore: (kdf: string, params: Record<string, unknown>) => string;
let standardCost: string;
const figures: string[] = [];

function fromWorker<T>(): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: T): void => {
      worker.off('error', reject);
      resolve(m);
    };
    worker.once('message', onMessage);
    worker.once('error', reject);
  });
}

/**
 * Milliseconds main's thread has spent runnable but waiting for a CPU since it started (Linux
 * schedstat, nanoseconds); 0 where the OS does not report it, so nothing is taken off there.
 */
function cpuWaitMs(): number {
  try {
    const wait = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(/\s+/)[1];
    return Number(wait) / 1e6 || 0;
  } catch {
    return 0;
  }
}

/** The largest gap between two ticks of main's loop, less the time main waited for a CPU in that gap. */
function sampleOwnGaps(): () => { maxOwnMs: number; waitedMs: number } {
  const firstWait = cpuWaitMs();
  let lastAt = performance.now();
  let lastWait = firstWait;
  let maxOwnMs = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    const wait = cpuWaitMs();
    maxOwnMs = Math.max(maxOwnMs, at - lastAt - (wait - lastWait));
    lastAt = at;
    lastWait = wait;
  }, RESOLUTION_MS);
  return () => {
    clearInterval(timer);
    return { maxOwnMs, waitedMs: lastWait - firstWait };
  };
}

/** One attack: the window builds it, then main's loop is measured from before the call until its answer. */
async function attack(what: string, a: Attack): Promise<{ outcomes: BridgeOutcome[]; maxDelayMs: number }> {
  worker.postMessage({ prepare: a });
  await fromWorker<{ prepared: true }>();
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ownGaps = sampleOwnGaps();
  // The histogram records from its second tick on: let it tick before the call.
  await sleep(5 * RESOLUTION_MS);
  const started = performance.now();
  worker.postMessage({ send: true });
  const { outcomes } = await fromWorker<{ outcomes: BridgeOutcome[] }>();
  const tookMs = performance.now() - started;
  await sleep(3 * RESOLUTION_MS);
  histogram.disable();
  const { maxOwnMs, waitedMs } = ownGaps();
  const maxDelayMs = histogram.max / 1e6;
  figures.push(
    `${what}: answered in ${tookMs.toFixed(0)} ms; loop delay max ${maxDelayMs.toFixed(1)} ms ` +
      `(largest gap less CPU wait ${maxOwnMs.toFixed(1)} ms; main waited ${waitedMs.toFixed(0)} ms for a CPU in all)`,
  );
  const heldMs = Math.min(maxDelayMs, maxOwnMs);
  expect(heldMs, `${what}: main's event loop was held ${heldMs.toFixed(0)} ms`).toBeLessThan(STALL_MS);
  return { outcomes, maxDelayMs };
}

/** A refusal is a dotted code and a sentence for people. */
function expectRefused(outcome: BridgeOutcome | undefined, code: string, what: string): void {
  expect(outcome?.ok, `${what} was not refused`).toBe(false);
  if (outcome?.ok !== false) return;
  expect(outcome.error.code, what).toBe(code);
  expect(outcome.error.message, what).toMatch(/^[A-Z0-9].{15,}[.)]$/s);
  expect(outcome.error.message, `${what}: a schema path on screen`).not.toMatch(/panelSizes|kdfparams|argument 0/);
}

beforeAll(async () => {
  // Exports at the cost production writes (N = 2^17), so the export below is a real one.
  t = await createTestCore({ keystoreScrypt: { N: 2 ** 17, r: 8, p: 1 } });
  t.dialogs.whenUnscripted('no');
  const channels = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  registerCore(
    {
      handle: (channel, listener) => void channels.set(channel, listener),
      removeHandler: (channel) => void channels.delete(channel),
    },
    t.core,
    (sender) => sender?.isMainFrame === true,
  );
  const frame = { url: 'app://renderer/index.html' };
  const fromTheWindow = { senderFrame: frame, sender: { mainFrame: frame } } as unknown as IpcMainInvokeEvent;
  const ipc = new MessageChannel();
  ipc.port1.on('message', ({ id, channel, args }: { id: number; channel: string; args: unknown[] }) => {
    const handler = channels.get(channel);
    void Promise.resolve(handler?.(fromTheWindow, ...args)).then((outcome) => ipc.port1.postMessage({ id, outcome }));
  });
  worker = new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), {
    workerData: { entry: new URL('./hostile-renderer.ts', import.meta.url).href, ipc: ipc.port2 },
    transferList: [ipc.port2],
  });
  await fromWorker<{ ready: true }>();

  expect(
    (await t.core.invoke('lock.setPassword', [{ password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD }])).ok,
  ).toBe(true);
  const base = JSON.parse(
    await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, KEYSTORE_PASSWORD, {
      scrypt: { N: 2 ** 4 },
    }),
  ) as { Crypto: Record<string, unknown> };
  keystore = (kdf, kdfparams) => JSON.stringify({ ...base, Crypto: { ...base.Crypto, kdf, kdfparams } });
  // An ethers keystore at geth's standard cost (N = 2^18, r = 8, p = 1), the costliest wallets write.
  standardCost = await encryptKeystoreJson(
    { address: wallet.address, privateKey: wallet.privateKey },
    KEYSTORE_PASSWORD,
    { scrypt: { N: 2 ** 18, r: 8, p: 1 } },
  );
}, 60_000);

afterAll(async () => {
  await worker?.terminate();
  t?.close();
  // eslint-disable-next-line no-console -- the figures this run measured are the record (docs/hostile-input.md quotes a run)
  console.info(`main's event loop under a hostile window:\n  ${figures.join('\n  ')}`);
});

const SALT = 'ab'.repeat(32);

describe("main's event loop while the window sends hostile keystores", () => {
  it.each([
    ['scrypt N = 2^30', 'scrypt', { n: 2 ** 30, r: 8, p: 1, dklen: 32, salt: SALT }],
    ['scrypt N = 2^20', 'scrypt', { n: 2 ** 20, r: 8, p: 1, dklen: 32, salt: SALT }],
    ['scrypt r = 2^20', 'scrypt', { n: 2 ** 4, r: 2 ** 20, p: 1, dklen: 32, salt: SALT }],
    ['scrypt N = 2^18, p = 16', 'scrypt', { n: 2 ** 18, r: 8, p: 16, dklen: 32, salt: SALT }],
    ['PBKDF2 c = 2^22 (820 ms on main before)', 'pbkdf2', { c: 2 ** 22, prf: 'hmac-sha256', dklen: 32, salt: SALT }],
    ['PBKDF2 c = 2^31 - 1', 'pbkdf2', { c: 2 ** 31 - 1, prf: 'hmac-sha256', dklen: 32, salt: SALT }],
  ])('refuses %s before any work', async (what, kdf, params) => {
    const { outcomes } = await attack(what, {
      method: 'keys.importKeystore',
      args: [{ json: keystore(kdf, params), password: KEYSTORE_PASSWORD }],
    });
    expectRefused(outcomes[0], 'keys.keystore_too_costly', what);
  });

  it('refuses a 90 KB keystore and a 50 MB one', async () => {
    const padded = JSON.stringify({
      ...(JSON.parse(keystore('scrypt', { n: 16, r: 8, p: 1, dklen: 32, salt: SALT })) as object),
      padding: 'x'.repeat(90_000),
    });
    const big = await attack('a 90 KB keystore', {
      method: 'keys.importKeystore',
      args: [{ json: padded, password: KEYSTORE_PASSWORD }],
    });
    expectRefused(big.outcomes[0], 'keys.invalid_keystore', 'a 90 KB keystore');
    const huge = await attack('a 50 MB keystore', {
      method: 'keys.importKeystore',
      hugeString: { mib: 50, into: 'keystore' },
    });
    expectRefused(huge.outcomes[0], 'bridge.too_large', 'a 50 MB keystore');
  });

  it("decrypts a keystore at geth's standard cost off the loop: wrong password refused, right one imported", async () => {
    const wrong = await attack('standard-cost keystore, wrong password', {
      method: 'keys.importKeystore',
      args: [{ json: standardCost, password: `${KEYSTORE_PASSWORD}?` }],
    });
    expectRefused(wrong.outcomes[0], 'vault.bad_password', 'a wrong keystore password');
    const right = await attack('standard-cost keystore, right password', {
      method: 'keys.importKeystore',
      args: [{ json: standardCost, password: KEYSTORE_PASSWORD, label: 'From geth' }],
    });
    expect(right.outcomes[0]).toMatchObject({ ok: true, value: { address: wallet.address, source: 'keystore' } });
  });

  it('takes one standard-cost keystore at a time: a burst of 8 runs one and refuses the rest', async () => {
    const { outcomes } = await attack('8 standard-cost keystores at once', {
      method: 'keys.importKeystore',
      args: [{ json: standardCost, password: `${KEYSTORE_PASSWORD}?` }],
      times: 8,
    });
    expect(outcomes.filter((o) => !o.ok && o.error.code === 'vault.bad_password')).toHaveLength(1);
    const busy = outcomes.filter((o) => !o.ok && o.error.code === 'keys.keystore_busy');
    expect(busy).toHaveLength(7);
    for (const o of busy) expectRefused(o, 'keys.keystore_busy', 'a keystore while another is opened');
  });

  it('encrypts an export at the cost production writes (N = 2^17) off the loop', async () => {
    const key = (await t.core.invoke('keys.create', [{ label: 'to export' }])) as BridgeOutcome<{ address: string }>;
    expect(key.ok).toBe(true);
    const address = key.ok ? key.value.address : '';
    const { outcomes } = await attack('export at N = 2^17 (the dialog says no)', {
      method: 'keys.exportKeystore',
      args: [{ address, password: 'export-password', passwordAgain: 'export-password' }],
    });
    // Encrypted first, then main's dialog asks; here it answers no.
    expect(outcomes[0]).toEqual({ ok: true, value: { confirmed: false } });
  });
});

describe("main's event loop while the window sends oversized settings", () => {
  it('refuses a million panel sizes and a 50 MB string, and saves nothing', async () => {
    const before = JSON.stringify(t.settings.getSettings());
    const million = await attack('settings.update with a million panel sizes', {
      method: 'settings.update',
      panels: 1_000_000,
    });
    expectRefused(million.outcomes[0], 'bridge.too_large', 'a million panel sizes');
    const huge = await attack('settings.update with a 50 MB string', {
      method: 'settings.update',
      hugeString: { mib: 50, into: 'settings' },
    });
    expectRefused(huge.outcomes[0], 'bridge.too_large', 'a 50 MB string in settings');
    expect(JSON.stringify(t.settings.getSettings())).toBe(before);
  });

  it('refuses one panel size over the bound in words, and keeps 64', async () => {
    const over = await attack('settings.update with 65 panel sizes', { method: 'settings.update', panels: 65 });
    expectRefused(over.outcomes[0], 'settings.invalid', '65 panel sizes');
    const fits = await attack('settings.update with 64 panel sizes', { method: 'settings.update', panels: 64 });
    expect(fits.outcomes[0]?.ok).toBe(true);
  });

  it('answers every later call as fast as before the attacks', async () => {
    for (const method of ['settings.get', 'app.info', 'keys.list', 'lock.status', 'app.connection']) {
      const { outcomes } = await attack(`${method} after the attacks`, { method });
      expect(outcomes[0]?.ok, method).toBe(true);
    }
  });
});

describe("main's event loop while the window hands over a 2,000-entry emergency kit", () => {
  const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
  const OTHER_EXCHANGE = '0x00000000000000000000000000000000000e0c99' as Address;
  /** A whole, valid kit at the largest size a kit may have, signed by a key the window made up. */
  let kitText: string;

  const pinExchange = (verifyingContract: Address): void =>
    t.pinning.acceptPin(t.settings.getSettings().selectedDeploymentId, {
      chainId: '31337',
      verifyingContract,
      domainName: DEFAULT_DOMAIN_NAME,
    });

  beforeAll(async () => {
    const kit = await buildEmergencyKit(
      {
        signer: keySigner(new DigestSigner(Wallet.createRandom().privateKey as `0x${string}`)),
        domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
      },
      {
        contracts: { exchange: EXCHANGE, ledger: null },
        markets: [{ assetId: 7n, label: 'BTC 5m', fromEpoch: 10n, toEpoch: 259n, until: '2026-07-01T12:10:00.000Z' }],
        perEpoch: 8,
        revokeAgent: true,
      },
    );
    kitText = payloadToFileText({ format: KIT_FORMAT, kit });
  }, 120_000);

  it('refuses it under another pin before checking a signature', async () => {
    pinExchange(OTHER_EXCHANGE);
    const { outcomes } = await attack('a valid 2,000-entry kit under another pin', {
      method: 'kit.importText',
      args: [kitText],
    });
    expectRefused(outcomes[0], 'kit.wrong_domain', 'a kit under another pin');
  });

  it('checks its 2,001 signatures off the loop and keeps it', async () => {
    pinExchange(EXCHANGE);
    const { outcomes } = await attack('a valid 2,000-entry kit', { method: 'kit.importText', args: [kitText] });
    expect(outcomes[0]?.ok).toBe(true);
    const view = outcomes[0]?.ok ? (outcomes[0].value as KitView) : null;
    expect(view).toMatchObject({ matchesDeployment: true, source: 'window', revocation: 'unused' });
    expect(view?.markets[0]?.total).toBe(2000);
  }, 120_000);

  it('checks one kit from the window at a time: a burst of 4 checks one and refuses the rest', async () => {
    const { outcomes } = await attack('4 valid 2,000-entry kits at once', {
      method: 'kit.importText',
      args: [kitText],
      times: 4,
    });
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const busy = outcomes.filter((o) => !o.ok);
    expect(busy).toHaveLength(3);
    for (const o of busy) expectRefused(o, 'kit.busy', 'a kit while another is checked');
  }, 120_000);
});
