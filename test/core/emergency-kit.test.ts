// The emergency kit on a real devnet, two app cores side by side. Core 1 holds the master key A and
// makes the kit behind main's dialog; core 2 holds no key for A (its vault has none at all), takes
// the kit in from a file and panics. A's orders are placed from the test process with A's key
// through the client library, after the kit was made, in two consecutive BTC epochs; each panic
// cancels them; a second panic in the same epoch uses the next entry; an entry another copy of the
// kit already sent is answered ENTRY_PROCESSED, marked used and never sent again; the kit's agent
// revocation takes effect (the agent's next order is refused). Panic goes only on a press of the
// person that main saw, once per press: the window calling it alone sends nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetClient } from '../../src/exchange/bots/devnet-client';
import {
  buildEmergencyKit,
  keySigner,
  kitToJson,
  type ExchangeClient,
  ExchangeError,
  panicPlan,
  parseEmergencyKit,
  type EmergencyKit,
} from '../../src/client';
import { TEST_PASSWORD, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import { DigestSigner, makeExchangeDomain, unpackAssetId, type Address, type Hex } from '../../src/shared/protocol';
import type { KitView, PanicResult } from '../../src/shared/bridge';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls } from './core-calls';
import { createTradingCore, startTradingDevnet } from './trading-devnet';

const SHORT = 24n; // seconds per BTC epoch: two consecutive ones within the test
const wait = { timeout: 60_000, interval: 200 };
const C = 1_000_000n;
const OTHER_EXCHANGE = '0x00000000000000000000000000000000000e0c99' as Address;
const AGENT_KEY: Hex = `0x${'5a'.repeat(32)}`;

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let keySide: TestCore;
let watchSide: TestCore;
let btcAsset: string;
let master: Address;
let a: ExchangeClient;
let agent: ExchangeClient;
let kitFile: string;
/** The epoch the first panics ran in. */
let firstEpoch: bigint;

const key = coreCalls(
  () => keySide,
  () => [],
);
const watch = coreCalls(
  () => watchSide,
  () => [],
);

async function pinDevnet(t: TestCore): Promise<void> {
  t.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await vi.waitFor(async () => {
    const c = (await t.core.invoke('app.connection', [])) as { ok: boolean; value?: { pin: { kind: string } } };
    expect(c.ok && c.value?.pin.kind).toBe('pinned');
  }, wait);
}

/** The exchange's current BTC epoch, once at least `left` ms of it remain (and after `after`, if given). */
async function btcEpoch(left: number, after?: bigint): Promise<bigint> {
  let epoch = 0n;
  await vi.waitFor(async () => {
    const asset = await a.getAsset(BigInt(btcAsset));
    epoch = asset.epoch;
    if (after !== undefined) expect(epoch).toBeGreaterThan(after);
    expect(epochEndMs(epoch) - Date.now()).toBeGreaterThan(left);
  }, wait);
  return epoch;
}

function epochEndMs(epoch: bigint): number {
  const f = unpackAssetId(BigInt(btcAsset));
  return Number(f.startTime + (epoch + 1n) * f.periodLength) * 1000;
}

/** A's resting buy far below the market (no bots: nothing fills it). */
async function placeResting(epoch: bigint, price = 20n * 10_000n): Promise<void> {
  const r = await a.placeOrder({
    assetId: BigInt(btcAsset),
    epoch,
    side: 'buy',
    price,
    size: 5n * C,
    timeInForce: 'GTC',
  });
  expect(r.delivery).toBe('answered');
}

async function resting(epoch: bigint): Promise<number> {
  const book = await a.getBookOrders(BigInt(btcAsset), epoch, master);
  return book.buys.length + book.sells.length;
}

/** The person clicks Panic: main sees the press (as Electron reports it), then the window calls. */
async function panic(): Promise<PanicResult> {
  watchSide.core.noteUserInput({ device: 'mouse', type: 'mouseDown' });
  const results = await watch.ok<PanicResult[]>('kit.panic', null);
  expect(results).toHaveLength(1);
  return results[0]!;
}

async function usedIn(epoch: bigint): Promise<number> {
  const [kit] = await watch.ok<KitView[]>('kit.list');
  return kit!.markets[0]!.epochs.find((e) => e.epoch === epoch.toString())!.used;
}

beforeAll(async () => {
  temp = await startTradingDevnet('core-kit-', { demoAccounts: 1, btcEpochSeconds: SHORT });
  devnet = temp.devnet;
  ({ core: keySide, btcAsset } = await createTradingCore(devnet));
  ({ core: watchSide } = await createTradingCore(devnet));
  const account = devnet.accounts[0]!;
  master = account.address;
  a = devnetClient(devnet, account.privateKey, { timeoutMs: 10_000, doctor: false });
  agent = devnetClient(devnet, AGENT_KEY, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(master, 1_000_000_000n);
  // Both cores unlock as the app does at start; only the key side holds a key.
  for (const t of [keySide, watchSide]) {
    await t.core.invoke('lock.setPassword', [{ password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD }]);
    await pinDevnet(t);
  }
  await key.ok('keys.importPrivateKey', { privateKey: account.privateKey, label: 'A' });
  expect(await watch.ok<unknown[]>('keys.list')).toEqual([]);
  // The agent A approves now: the kit's revocation removes whichever agent is approved when it is sent.
  const approved = await a.approveAgent({ agent: new DigestSigner(AGENT_KEY).address });
  expect(approved.status).toBe('SUCCESS');
  kitFile = join(temp.dir, 'kit.json');
}, 120_000);

afterAll(async () => {
  keySide?.close();
  watchSide?.close();
  await temp?.stop();
});

describe('the emergency kit on a devnet', () => {
  it('is made on the key side behind main’s dialog, saying what it pre-signs, and saved as a file', async () => {
    // Leave room for two whole epochs after the current one.
    await btcEpoch(10_000);
    keySide.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'saveFile', path: kitFile });
    const made = await key.ok<{ confirmed: true; value: KitView }>('kit.build', {
      signer: master,
      assetIds: [btcAsset],
      epochs: 4,
      perEpoch: 3,
      revokeAgent: true,
    });
    expect(made.confirmed).toBe(true);
    const dialog = keySide.dialogs.shown.at(-1)!;
    expect(dialog.kind).toBe('confirm');
    const detail = dialog.kind === 'confirm' ? dialog.request.detail : '';
    expect(detail).toContain('Cancel every order of this account on BTC');
    expect(detail).toContain('up to 3 times per epoch');
    expect(detail).toContain('Revoke whichever agent is approved');
    expect(detail).toContain('13 signatures in all');
    expect(made.value.markets[0]!.total).toBe(12);
    expect(made.value.revocation).toBe('unused');
    const saved = await key.ok<{ confirmed: boolean }>('kit.saveFile', made.value.id);
    expect(saved.confirmed).toBe(true);
    // Declined: nothing is signed or kept.
    keySide.dialogs.answer({ kind: 'confirm', yes: false });
    const declined = await key.ok<{ confirmed: boolean }>('kit.build', {
      signer: master,
      assetIds: [btcAsset],
      epochs: 1,
      perEpoch: 1,
      revokeAgent: false,
    });
    expect(declined.confirmed).toBe(false);
    expect(await key.ok<KitView[]>('kit.list')).toHaveLength(1);
    // Too large, or a market the deployment does not list: refused before any dialog.
    const shown = keySide.dialogs.shown.length;
    const tooLarge = { signer: master, assetIds: [btcAsset], epochs: 288, perEpoch: 8, revokeAgent: false };
    expect((await key.err('kit.build', tooLarge)).code).toBe('kit.too_large');
    expect((await key.err('kit.build', { ...tooLarge, assetIds: ['12345'], epochs: 1 })).code).toBe(
      'kit.unknown_market',
    );
    expect(keySide.dialogs.shown.length).toBe(shown);
  });

  it('is taken in on the watch side from the file, checked; a changed copy is refused', async () => {
    const text = readFileSync(kitFile, 'utf8');
    const json = JSON.parse(text) as { cancels: { nonce: string }[] };
    json.cancels[2]!.nonce = (BigInt(json.cancels[2]!.nonce) + 1n).toString();
    const refused = await watch.err('kit.importText', JSON.stringify(json));
    expect(refused.code).toMatch(/^airgap\./);
    expect(await watch.ok<KitView[]>('kit.list')).toEqual([]);
    // Signed by A, whole and valid, but for another exchange contract: not kept.
    const foreign = await buildEmergencyKit(
      {
        signer: keySigner(devnet.accounts[0]!.privateKey),
        domain: makeExchangeDomain({ chainId: devnet.chainId, verifyingContract: OTHER_EXCHANGE }),
      },
      {
        contracts: { exchange: OTHER_EXCHANGE, ledger: null },
        markets: [
          { assetId: BigInt(btcAsset), label: 'BTC', fromEpoch: 0n, toEpoch: 0n, until: new Date().toISOString() },
        ],
        perEpoch: 1,
        revokeAgent: false,
      },
    );
    expect((await watch.err('kit.importText', JSON.stringify(kitToJson(foreign)))).code).toBe('kit.wrong_domain');
    expect(await watch.ok<KitView[]>('kit.list')).toEqual([]);
    watchSide.dialogs.answer({ kind: 'openFile', content: text });
    const taken = await watch.ok<{ confirmed: true; value: KitView }>('kit.openFile');
    expect(taken.value.signer.toLowerCase()).toBe(master.toLowerCase());
    expect(taken.value.matchesDeployment).toBe(true);
    expect(taken.value.origin).toBe('imported');
    expect(taken.value.source).toBe('file');
  });

  it('cancels orders placed after it was made, twice in one epoch, and revokes the agent', async () => {
    const e = await btcEpoch(10_000);
    firstEpoch = e;
    const agentOrder = await agent.placeAgentOrder({
      master,
      assetId: BigInt(btcAsset),
      epoch: e,
      side: 'buy',
      price: 15n * 10_000n,
      size: 2n * C,
      timeInForce: 'GTC',
    });
    expect(agentOrder.delivery).toBe('answered');
    const approvalNonce = (await a.getAgentApproval(master)).nonce;
    await placeResting(e);
    expect(await resting(e)).toBe(2);
    // The window calling panic on its own: refused, nothing cancelled, revoked or spent.
    const refused = await watch.err('kit.panic', null);
    expect(refused).toEqual({
      code: 'kit.needs_person',
      message: 'Panic needs your click or key press: press the Panic button or its hotkey. Nothing was sent.',
    });
    expect(await resting(e)).toBe(2);
    expect((await a.getAgentApproval(master)).status).toBe('active');
    expect(await usedIn(e)).toBe(0);
    const first = await panic();
    // The same press allows one panic only, however the window asks again.
    expect((await watch.err('kit.panic', null)).code).toBe('kit.needs_person');
    expect(first.outcomes.map((o) => o.result).sort()).toEqual(['sent', 'sent']);
    await vi.waitFor(async () => expect(await resting(e)).toBe(0), wait);
    await vi.waitFor(async () => expect((await a.getAgentApproval(master)).status).not.toBe('active'), wait);
    // With the approval it traded under a moment ago: the exchange itself refuses it.
    const refusedAgent = await agent
      .placeAgentOrder({
        master,
        approvalNonce,
        assetId: BigInt(btcAsset),
        epoch: e,
        side: 'buy',
        price: 15n * 10_000n,
        size: 2n * C,
        timeInForce: 'GTC',
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusedAgent).toBeInstanceOf(ExchangeError);
    expect((refusedAgent as ExchangeError).code).toBe('AGENT_APPROVAL_INACTIVE');
    expect(await usedIn(e)).toBe(1);
    // Nothing resting: no entry is spent.
    const idle = await panic();
    expect(idle.outcomes.map((o) => o.result)).toEqual(['skipped']);
    expect(await usedIn(e)).toBe(1);
    // Placed again, cancelled again with the next entry of the same epoch.
    await placeResting(e, 21n * 10_000n);
    const second = await panic();
    expect(second.outcomes.map((o) => o.result)).toEqual(['sent']);
    await vi.waitFor(async () => expect(await resting(e)).toBe(0), wait);
    expect(await usedIn(e)).toBe(2);
    const [view] = await watch.ok<KitView[]>('kit.list');
    expect(view!.revocation).toBe('used');
  });

  it('in the next epoch, an entry already sent elsewhere is marked used and the next one cancels', async () => {
    const e1 = await btcEpoch(8_000, firstEpoch);
    expect(e1).toBe(firstEpoch + 1n);
    // Another copy of the kit sends the epoch's first entry (as a second watch machine would).
    const kit: EmergencyKit = parseEmergencyKit(JSON.parse(readFileSync(kitFile, 'utf8')));
    const elsewhere = panicPlan(kit, new Map([[BigInt(btcAsset), e1]]), new Set(), { revokeAgent: false });
    const firstEntry = elsewhere.sends[0]!;
    await a.submitSigned('cancels', firstEntry.action.body);
    await placeResting(e1);
    expect(await resting(e1)).toBe(1);
    const r = await panic();
    expect(r.outcomes.map((o) => o.result)).toEqual(['already-used', 'sent']);
    await vi.waitFor(async () => expect(await resting(e1)).toBe(0), wait);
    expect(await usedIn(e1)).toBe(2);
    // The entry answered ENTRY_PROCESSED is never sent again: the last unused one goes next.
    await placeResting(e1, 22n * 10_000n);
    const last = await panic();
    expect(last.outcomes.map((o) => o.result)).toEqual(['sent']);
    await vi.waitFor(async () => expect(await resting(e1)).toBe(0), wait);
    expect(await usedIn(e1)).toBe(3);
    // Every entry of the epoch used: panic says so and sends nothing.
    await placeResting(e1, 23n * 10_000n);
    const spent = await panic();
    expect(spent.outcomes).toEqual([]);
    expect(spent.gaps.join(' ')).toContain('has been used');
    expect(await resting(e1)).toBe(1);
  });
});
